import { formatCents } from "./prices";

/** The word the owner types to confirm a restore (/admin/sauvegardes; the action checks it again). */
export const RESTORE_WORD = "RESTAURER";

/** The search parameter that opens a backup's restore confirmation (works without JavaScript). */
export const RESTORE_PARAM = "restaurer";

/**
 * The money a restore takes off the site (decision 0207): what moved after the backup, which the restored
 * site no longer knows though it happened: payments received (orders paid), invoices and credit notes
 * issued (`documents`: their numbers, the first ones issued; `documentCount` in all), vouchers sold and
 * voucher uses not given back.
 */
export type ErasedMoney = {
  payments: number;
  paymentsCents: number;
  documentCount: number;
  documents: string[];
  vouchersSold: number;
  voucherUses: number;
};

/** What a restore of a backup taken at `since` would erase: what was made on the site after it. */
export type ErasedSince = {
  bookings: number;
  galleries: number;
  messages: number;
  subscribers: number;
  /** The clients of the bookings erased, to call them: by the time of their session. */
  clients: Array<{ name: string; phone: string; email: string; startsAt: string }>;
  money: ErasedMoney;
};

/** « 3 réservations faites depuis disparaîtront », and so on; with one or none in the singular. */
export function erasedSentences(
  erased: Pick<ErasedSince, "bookings" | "galleries" | "messages" | "subscribers" | "clients">,
): string[] {
  const sentence = (n: number, one: string, many: string, verbOne: string, verbMany: string) =>
    n === 0 ? null : `${n} ${n === 1 ? one : many} depuis ${n === 1 ? verbOne : verbMany}`;
  return [
    sentence(
      erased.bookings,
      "réservation faite",
      "réservations faites",
      "disparaîtra",
      "disparaîtront",
    ),
    sentence(
      erased.galleries,
      "galerie client créée",
      "galeries clients créées",
      "disparaîtra",
      "disparaîtront",
    ),
    sentence(erased.messages, "message reçu", "messages reçus", "disparaîtra", "disparaîtront"),
    sentence(
      erased.subscribers,
      "abonné inscrit",
      "abonnés inscrits",
      "disparaîtra",
      "disparaîtront",
    ),
  ].filter((line): line is string => line !== null);
}

/** The money a restore takes off the site, one sentence a kind, in the owner's words (decision 0207). */
export function moneySentences(money: ErasedMoney): string[] {
  const one = (n: number) => n === 1;
  const lines: string[] = [];
  if (money.payments > 0) {
    lines.push(
      `${money.payments} ${one(money.payments) ? "paiement reçu" : "paiements reçus"} depuis (${formatCents(money.paymentsCents)}) ${one(money.payments) ? "disparaîtra" : "disparaîtront"} des commandes du site ; l'argent, lui, est bien arrivé et reste au journal de caisse et dans les fichiers de votre comptable`,
    );
  }
  if (money.documentCount > 0) {
    const numbers = `${money.documents.join(", ")}${money.documentCount > money.documents.length ? "…" : ""}`;
    lines.push(
      one(money.documentCount)
        ? `1 facture ou avoir émis depuis (${numbers}) restera dans le site et dans les fichiers de votre comptable, même si sa commande disparaît`
        : `${money.documentCount} factures ou avoirs émis depuis (${numbers}) resteront dans le site et dans les fichiers de votre comptable, même si leurs commandes disparaissent`,
    );
  }
  if (money.vouchersSold > 0) {
    lines.push(
      one(money.vouchersSold)
        ? "1 bon cadeau vendu depuis disparaîtra : son code, sur le PDF de son acheteur, ne marchera plus"
        : `${money.vouchersSold} bons cadeaux vendus depuis disparaîtront : leurs codes, sur les PDF de leurs acheteurs, ne marcheront plus`,
    );
  }
  if (money.voucherUses > 0) {
    lines.push(
      one(money.voucherUses)
        ? "1 utilisation de bon cadeau depuis disparaîtra : ce bon pourra servir une seconde fois"
        : `${money.voucherUses} utilisations de bons cadeaux depuis disparaîtront : ces bons pourront servir une seconde fois`,
    );
  }
  return lines;
}
