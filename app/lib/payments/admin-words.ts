import { formatCents } from "../prices";
import {
  CURRENCY,
  type AttemptStatus,
  type JournalKind,
  type OrderKind,
  type RefundStatus,
} from "./model";

/*
 * The words of the admin's sales and vouchers pages (decision 0162), and the amounts the owner types.
 */

/** An amount typed in euros (« 12 », « 12,50 », « 12.5 € », « 1 200 ») in cents; null when it is not one. */
export function typedCents(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f€]/g, "");
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents > 0 ? cents : null;
}

/** Cents as the owner types them back into a field: « 150 », « 12,50 ». */
export function centsForInput(cents: number): string {
  const rest = cents % 100;
  return rest === 0
    ? String(cents / 100)
    : `${Math.trunc(cents / 100)},${String(rest).padStart(2, "0")}`;
}

export const ATTEMPT_STATUS_LABELS: Record<AttemptStatus, string> = {
  open: "en attente",
  succeeded: "réussi",
  failed: "refusé",
  expired: "expiré",
  held: "retenu : montant différent",
  returned: "montant différent, remboursé au client",
};

export const PROVIDER_LABELS: Record<string, string> = {
  stripe: "Carte (Stripe)",
  transfer: "Virement",
  studio: "Au studio",
};

export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: "en cours chez le prestataire",
  succeeded: "remboursé",
  failed: "refusé par le prestataire",
  to_refund_offline: "à rembourser par vous",
  refunded_offline: "remboursé par vous",
};

export const JOURNAL_KIND_LABELS: Record<JournalKind, string> = {
  payment: "Paiement reçu",
  refund: "Remboursement",
  voucher_issue: "Bon cadeau émis",
  voucher_redemption: "Bon cadeau utilisé",
  voucher_cancellation: "Bon cadeau annulé",
  closure: "Clôture du jour",
};

/**
 * Each kind of e-mail the site sends, as the owner reads it in an order's history (every kind has one:
 * app/server/boot/mail-kinds.test.ts).
 */
export const MAIL_LABELS: Record<string, string> = {
  "voucher-order": "Commande confirmée à l'acheteur",
  "voucher-delivery": "Bon cadeau envoyé",
  "voucher-reminder": "Rappel avant expiration",
  "voucher-reminder-undelivered": "Rappel non remis : message à l'acheteur",
  "voucher-undelivered": "Bon cadeau non remis : message à l'acheteur",
  "payment-buyer": "Paiement : message à l'acheteur",
  "payment-owner": "Paiement : message pour vous",
  "gallery-photo-order": "Commande de photos confirmée au client",
  "gallery-photo-order-called-off": "Commande de photos annulée : message au client",
  "gallery-photo-order-deadline":
    "Commande de photos : virement attendu plus tôt, message au client",
  "gallery-invitation": "Lien de la galerie envoyé au client",
  "gallery-selection": "Sélection du client : message pour le studio",
  "gallery-selection-receipt": "Sélection : accusé de réception au client",
  "booking-client": "Réservation : message au client",
  "booking-owner": "Réservation : message pour vous",
  "accountant-files": "Fichiers pour la comptable",
  admin: "Compte administrateur : lien envoyé",
  "backup-failed": "Sauvegarde échouée",
  "backup-missed": "Sauvegarde manquée",
  "backup-monthly-link": "Sauvegarde du mois",
  confirmation: "Confirmation d'inscription à la lettre",
  contact: "Message du formulaire de contact",
  "newsletter-test": "Lettre d'essai",
};

export const mailLabel = (kind: string): string => MAIL_LABELS[kind] ?? `E-mail (${kind})`;

/**
 * What the provider took of a payment held for the owner (decision 0172): in euros as the site writes
 * prices, or in the other currency it came in, as its figures (« 12,50 USD »).
 */
export function heldAmountText(cents: number, currency: string | null): string {
  return currency !== null && currency !== CURRENCY
    ? `${(cents / 100).toFixed(2).replace(".", ",")} ${currency}`
    : formatCents(cents);
}

/**
 * The toast after « Accepter ce paiement » (decision 0172): the order paid with what was taken and its
 * effects; or, what it paid for gone meanwhile (its photos no longer due, its booking cancelled), the
 * money given back at once, which « la commande est payée » would hide.
 */
export function heldAcceptedToast(
  outcome: { outcome: string; givenBack?: true },
  received: string,
  kind: OrderKind,
): { type: "success" | "info"; title: string; description?: string } {
  if (outcome.outcome === "already_applied") {
    return { type: "success", title: "Ce paiement est déjà accepté" };
  }
  if (outcome.givenBack) {
    return {
      type: "info",
      title: "Paiement accepté, puis remboursé",
      description: `${received} enregistrés, mais ce qu'ils payaient n'est plus dû (la commande a été annulée ou a changé entre-temps) : ils sont remboursés en entier au client, qui en est prévenu.`,
    };
  }
  return {
    type: "success",
    title: "Paiement accepté",
    description: `${received} enregistrés : la commande est payée et ${PAID_ORDER_EFFECTS[kind].done}.`,
  };
}

/** Where one of an order's e-mails stands (admin-orders' orderMails), in its history. */
export function mailStatusLabel(mail: {
  state: string;
  sentAt: Date | string | null;
  givenUp: string | null;
  nothingToSend: boolean;
}): string {
  if (mail.sentAt) return "envoyé";
  if (mail.givenUp) return `non remis : ${mail.givenUp}`;
  if (mail.nothingToSend) return "non envoyé : plus rien à envoyer";
  return mail.state === "failed" || mail.state === "cancelled" ? "non envoyé" : "à envoyer";
}

export const VOUCHER_STATUS_LABELS = {
  awaiting_payment: "En attente de paiement",
  active: "Valable",
  used: "Utilisé",
  expired: "Expiré",
  cancelled: "Annulé",
} as const;

/**
 * What a payment the owner records or accepts does, by kind of order (« Marquer payé », « Accepter ce
 * paiement »), and what stays undone while it is not: a deposit's order issues no voucher.
 */
export const PAID_ORDER_EFFECTS: Record<OrderKind, { done: string; undone: string }> = {
  voucher: { done: "le bon cadeau est émis et envoyé", undone: "aucun bon cadeau n'est émis" },
  gallery_photos: {
    done: "les photos achetées sont débloquées dans la galerie du client",
    undone: "aucune photo n'est débloquée",
  },
  booking_deposit: {
    done: "la réservation est confirmée, sauf si elle a été annulée ou son créneau donné à un autre client entre-temps : le paiement est alors à rendre",
    undone: "la réservation n'est pas confirmée",
  },
  booking_balance: {
    done: "le solde de la séance est enregistré",
    undone: "le solde de la séance n'est pas enregistré",
  },
};

/** « le bon cadeau… » as the start of a sentence. */
export const sentenceOf = (clause: string) =>
  `${clause.charAt(0).toUpperCase()}${clause.slice(1)}.`;
