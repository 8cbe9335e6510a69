import { z } from "zod";
import {
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type OrderStatus,
  type PaymentMethod,
} from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";

/*
 * A session type's deposit paid online (decision 0186): how much (a fixed amount, a share of the session's
 * price, or the whole price), whether it is « arrhes » or an « acompte » (Code de la consommation,
 * L214-1), the methods the owner allows, how long a transfer may take, and whether a cancellation in time
 * refunds it at once or proposes the refund to the owner. Stored as one JSON column (`session_types.deposit`)
 * and copied onto each booking made with it (`bookings.deposit_rules`): the rules the client accepted.
 */

export const DEPOSIT_AMOUNTS = ["fixed", "percent", "full"] as const;
export type DepositAmount = (typeof DEPOSIT_AMOUNTS)[number];

export const DEPOSIT_NATURES = ["acompte", "arrhes"] as const;
export type DepositNature = (typeof DEPOSIT_NATURES)[number];

/** A card checkout's 30 minutes plus a margin: the booking holds its slot that long (decision 0186). */
/**
 * The idempotency key of a booking's balance paid at the studio (decision 0186): its order's, and the key of
 * the voucher use that pays part or all of it (decision 0201). One balance per booking.
 */
export const balanceOrderKey = (bookingId: string) => `booking-balance:${bookingId}`;

export const CARD_HOLD_MINUTES = 35;

export const depositRuleSchema = z.object({
  amount: z.enum(DEPOSIT_AMOUNTS),
  /** Cents for `fixed`, a percentage (1 to 100) for `percent`, unused for `full`. */
  value: z.number().int().min(0),
  /** The session's price in cents (what `percent` and `full` are computed from); null for `fixed`. */
  priceCents: z.number().int().min(0).nullable().default(null),
  nature: z.enum(DEPOSIT_NATURES),
  methods: z.array(z.enum(PAYMENT_METHODS)).min(1),
  /** Hours a transfer has to arrive: the slot is held that long. */
  transferHours: z.number().int().min(1).max(720).default(48),
  /** A cancellation before the cut-off refunds at once (true) or proposes the refund to the owner. */
  refundAtOnce: z.boolean().default(false),
});
export type DepositRule = z.infer<typeof depositRuleSchema>;

/** The rule a stored value holds, or null (none, or a shape no release wrote). */
export function depositRuleOf(value: unknown): DepositRule | null {
  if (value === null || value === undefined) return null;
  const parsed = depositRuleSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The rule of a deposit that asks something (a positive sum), or null: none, or nothing to pay. */
export function askedDepositOf(value: unknown): DepositRule | null {
  const rule = depositRuleOf(value);
  return rule && depositCents(rule) > 0 ? rule : null;
}

/** What the deposit costs, in cents (a percentage rounded to the cent). */
export function depositCents(rule: DepositRule): number {
  if (rule.amount === "fixed") return rule.value;
  const price = rule.priceCents ?? 0;
  if (rule.amount === "full") return price;
  return Math.round((price * rule.value) / 100);
}

export const DEPOSIT_NATURE_LABELS: Record<DepositNature, string> = {
  acompte: "Acompte",
  arrhes: "Arrhes",
};

/**
 * Where the deposit's order stands, said of the deposit and agreed with its word: « Arrhes de 30 € :
 * payées », « Acompte de 30 € : payé » (the order's own labels agree with « commande »).
 */
export const DEPOSIT_STATUS_WORDS: Record<DepositNature, Record<OrderStatus, string>> = {
  arrhes: {
    awaiting_payment: "en attente de paiement",
    paid: "payées",
    expired: "non réglées à temps",
    cancelled: "annulées",
    refunded: "remboursées",
  },
  acompte: {
    awaiting_payment: "en attente de paiement",
    paid: "payé",
    expired: "non réglé à temps",
    cancelled: "annulé",
    refunded: "remboursé",
  },
};

/**
 * What becomes of a paid deposit when its client cancels in time (decision 0186), said before she confirms.
 * Only a card's payment goes back by itself, at once, on the card (the provider's refund, its credit note in
 * the e-mail that confirms it); a transfer or a payment at the studio (cash, cheque, the studio's terminal)
 * the owner gives back herself (an offline refund, « à rembourser par vous »), as she does any refund when
 * the type does not refund at once: « Le studio vous rembourse… ».
 */
export function depositOnClientCancel(
  nature: DepositNature,
  amount: string,
  atOnce: boolean,
  paidByCard: boolean,
): string {
  const sum = nature === "arrhes" ? `vos arrhes de ${amount}` : `votre acompte de ${amount}`;
  if (!atOnce || !paidByCard) {
    return `Le studio vous rembourse ${sum} et vous le confirme par e-mail.`;
  }
  const back = nature === "arrhes" ? "vous sont remboursées" : "vous est remboursé";
  return `${sum.charAt(0).toUpperCase()}${sum.slice(1)} ${back} aussitôt, sur la carte utilisée ; l'e-mail qui le confirme porte l'avoir.`;
}

/**
 * What a client's cancellation (online, so in time) does with the deposit she paid, in the owner's e-mail
 * of it: back on her card by the site at once; or for the owner to give back by hand, or to refund with
 * « Rembourser », when the type does not refund at once or the money came by transfer or at the studio.
 */
export function depositOnClientCancelForOwner(
  nature: DepositNature,
  amount: string,
  atOnce: boolean,
  paidByCard: boolean,
): string {
  const arrhes = nature === "arrhes";
  const paid = `${DEPOSIT_NATURE_LABELS[nature]} de ${amount} ${arrhes ? "payées" : "payé"} ${paidByCard ? "par carte" : "hors du site (virement ou au studio)"}`;
  const them = arrhes ? "les" : "le";
  if (paidByCard) {
    return atOnce
      ? `${paid} : le site ${them} lui rembourse aussitôt sur sa carte, vous n'avez rien à faire.`
      : `${paid} : à lui rembourser, elle a annulé dans les délais. Cliquez sur « Rembourser » dans la commande : le site ${them} lui rend sur sa carte.`;
  }
  return atOnce
    ? `${paid} : à lui rendre vous-même, elle a annulé dans les délais. Une fois ${arrhes ? "rendues" : "rendu"}, cliquez sur « Remboursé » dans la commande.`
    : `${paid} : à lui rendre vous-même, elle a annulé dans les délais. Cliquez sur « Rembourser » dans la commande, rendez-${them}-lui, puis cliquez sur « Remboursé ».`;
}

/**
 * How a cancellation in time gives the deposit back, in the rules her booking's page restates: at once only
 * on a card (`paidByCard` null: no method chosen yet, both said).
 */
export function depositRefundWay(atOnce: boolean, paidByCard: boolean | null): string {
  if (!atOnce || paidByCard === false) return "par le studio";
  return paidByCard
    ? "aussitôt, sur la carte utilisée"
    : "aussitôt pour une carte, par le studio sinon";
}

/**
 * What cancelling a booking whose deposit is not paid yet does with it (decision 0186), said before the
 * client or the owner confirms: its order is cancelled (no « Payer » any more), and a payment that beats
 * the close, a card's or a transfer already sent, is refunded.
 */
export function depositUnpaidOnCancel(nature: DepositNature, reader: "client" | "owner"): string {
  if (reader === "owner") {
    return `${nature === "arrhes" ? "Les arrhes ne sont pas encore payées" : "L'acompte n'est pas encore payé"} : la commande est annulée et plus rien n'est demandé à la cliente ; un paiement qui arriverait encore lui serait remboursé.`;
  }
  return nature === "arrhes"
    ? "Vos arrhes ne sont pas encore payées : elles ne vous seront plus demandées, et un paiement qui arriverait encore vous serait remboursé."
    : "Votre acompte n'est pas encore payé : il ne vous sera plus demandé, et un paiement qui arriverait encore vous serait remboursé.";
}

/**
 * What cancelling a booking whose deposit is paid does with it when the studio cancels (decision 0186), said
 * to the owner before she confirms: what is left of it goes back, by itself on a card, by her hand
 * otherwise; and for arrhes the law owes the client twice the sum, the other half from her.
 */
export function depositPaidOnStudioCancel(
  nature: DepositNature,
  paid: { amount: string; twice: string; left: string; byCard: boolean },
): string {
  const back = paid.byCard
    ? `Les ${paid.left} payés lui sont remboursés aussitôt, sur sa carte.`
    : `Les ${paid.left} payés sont à lui rendre par vous : la commande vous le rappelle, cliquez sur « Remboursé » une fois rendus.`;
  return nature === "arrhes"
    ? `${back} Ce sont des arrhes : la loi (article L214-1 du Code de la consommation) vous oblige à lui rendre le double, ${paid.twice} en tout, soit ${paid.amount} de plus à lui verser vous-même.`
    : back;
}

/**
 * What became of a paid deposit once its booking was cancelled, in the client's e-mail and on her page in
 * place of what the word means: given back on her card or by the studio; for arrhes the studio cancelled,
 * as much again.
 */
export function depositAfterCancel(
  nature: DepositNature,
  paid: { amount: string; refundedOnCard: boolean },
  by: "client" | "studio",
): string {
  const sum =
    nature === "arrhes" ? `vos arrhes de ${paid.amount}` : `votre acompte de ${paid.amount}`;
  const returned = nature === "arrhes" ? "vous sont remboursées" : "vous est remboursé";
  const how = paid.refundedOnCard
    ? `${sum.charAt(0).toUpperCase()}${sum.slice(1)} ${returned} sur la carte utilisée ; l'e-mail qui le confirme porte l'avoir.`
    : `Le studio vous rembourse ${sum} et vous le confirme par e-mail.`;
  if (by === "studio" && nature === "arrhes") {
    return `${how} Le studio ayant annulé, il vous doit la même somme en plus : le double des arrhes (article L214-1 du Code de la consommation).`;
  }
  return how;
}

/** What each word commits the client and the studio to (L214-1 du Code de la consommation). */
export const DEPOSIT_MEANINGS: Record<DepositNature, string> = {
  arrhes:
    "Des arrhes permettent à chacun de renoncer à la séance : si vous annulez, vous les perdez ; si le studio annule, il vous rend le double (article L214-1 du Code de la consommation).",
  acompte:
    "Un acompte engage définitivement le client et le studio : la séance est due en entier et le studio s'engage à la réaliser (article L214-1 du Code de la consommation).",
};

/**
 * What the client gets back when the studio calls the session off: the sum paid, and for arrhes as much
 * again (L214-1: the studio that withdraws gives back twice the arrhes; the site refunds the payment, the
 * owner is shown the rest, decision 0186).
 */
export const DEPOSIT_ON_STUDIO_CANCEL: Record<DepositNature, string> = {
  arrhes:
    "Annulée par le studio, elle vous est remboursée et le studio vous doit la même somme en plus : le double des arrhes.",
  acompte: "Annulée par le studio, elle vous est remboursée en entier.",
};

/** « Acompte de 30,00 € » / « Arrhes de 30,00 € » (the lines of orders and pages). */
export function depositTitle(rule: DepositRule, formatEuros: (cents: number) => string): string {
  const word = rule.nature === "arrhes" ? "Arrhes" : "Acompte";
  return `${word} de ${formatEuros(depositCents(rule))}`;
}

/** The methods in the owner's order. */
export const depositMethods = (rule: DepositRule): PaymentMethod[] =>
  PAYMENT_METHODS.filter((method) => rule.methods.includes(method));

/**
 * The ways of paying a deposit the owner takes now (her payment settings, decision 0166): a card while she
 * accepts cards, a transfer while she accepts transfers (her bank details then given), at the studio always.
 */
export const acceptedDepositMethods = (payments: {
  card: boolean;
  transfer: boolean;
}): PaymentMethod[] => PAYMENT_METHODS.filter((method) => method === "studio" || payments[method]);

/** Whether no way of paying `rule` is one the owner takes now: the type cannot be booked online. */
export const depositUnpayable = (rule: DepositRule, accepted: readonly PaymentMethod[]): boolean =>
  !rule.methods.some((method) => accepted.includes(method));

/**
 * The way a « sur demande » deposit is asked when the owner accepts (decision 0186, amended 2026-12-02): the
 * one the client chose while the owner still takes it, else the first of the type's ways she takes now
 * (card, transfer, at the studio), else null: none can be paid, the request cannot be accepted online.
 */
export function depositMethodOnAcceptance(
  rule: DepositRule,
  requested: PaymentMethod,
  accepted: readonly PaymentMethod[],
): PaymentMethod | null {
  if (accepted.includes(requested)) return requested;
  return depositMethods(rule).find((method) => accepted.includes(method)) ?? null;
}

const METHOD_WORDS: Record<PaymentMethod, string> = {
  card: "par carte",
  transfer: "par virement",
  studio: "au studio",
};

/**
 * What the owner reads above « Accepter la demande » when the way her client chose is one she no longer
 * takes (null: it still is): what her acceptance will ask instead, or that it cannot be accepted as is.
 */
export function acceptanceDepositNotice(
  rule: DepositRule,
  requested: PaymentMethod,
  accepted: readonly PaymentMethod[],
): string | null {
  if (accepted.includes(requested)) return null;
  const method = depositMethodOnAcceptance(rule, requested, accepted);
  const arrhes = rule.nature === "arrhes";
  const word = arrhes ? "ses arrhes" : "son acompte";
  const chose = `La cliente a choisi de payer ${word} ${METHOD_WORDS[requested]}, ce que vous ne prenez plus en ce moment (vos réglages de paiement)`;
  if (method === null) {
    return `${chose} : aucun des moyens de cette séance n'est pris. Acceptez la carte ou le virement dans vos réglages de paiement avant d'accepter, ou appelez la cliente.`;
  }
  return method === "studio"
    ? `${chose} : en acceptant, la séance est confirmée et ${word} ${arrhes ? "se règlent" : "se règle"} au studio.`
    : `${chose} : en acceptant, ${word} ${arrhes ? "lui sont demandées" : "lui est demandé"} ${METHOD_WORDS[method]}, le lien de paiement par e-mail.`;
}

/**
 * The client's acceptance e-mail when her deposit is asked another way than the one she chose, the owner
 * no longer taking it (`depositMethodOnAcceptance`, decision 0186 amended 2026-12-02): what changed and how
 * to pay now, the payment's page (its link) following for a card or a transfer.
 */
export function depositWayChangedLine(
  rule: DepositRule,
  requested: PaymentMethod,
  method: PaymentMethod,
): string {
  const arrhes = rule.nature === "arrhes";
  const chose = `Vous aviez choisi de régler ${arrhes ? "vos arrhes" : "votre acompte"} ${METHOD_WORDS[requested]}, un moyen de paiement que le studio ne prend pas en ce moment`;
  const asked = arrhes ? "elles vous sont demandées" : "il vous est demandé";
  switch (method) {
    case "card":
      return `${chose} : ${asked} par carte, sur la page de paiement ci-dessous.`;
    case "transfer":
      return `${chose} : ${asked} par virement. Le montant, le nom du titulaire, l'IBAN et la référence à indiquer sont sur la page de paiement ci-dessous.`;
    case "studio":
      return `${chose} : ${arrhes ? "elles se règlent" : "il se règle"} au studio, sans paiement en ligne.`;
  }
}

/**
 * What the booking page of such a type says (decision 0186, amended 2026-12-02), the studio's phone after
 * it: « Cette séance ne se réserve pas en ligne pour le moment : les arrhes de 30 € … ».
 */
export function depositUnpayableMessage(rule: DepositRule): string {
  const amount = formatCents(depositCents(rule));
  const what =
    rule.nature === "arrhes"
      ? `les arrhes de ${amount} demandées à la réservation ne peuvent pas être réglées sur le site`
      : `l'acompte de ${amount} demandé à la réservation ne peut pas être réglé sur le site`;
  return `Cette séance ne se réserve pas en ligne pour le moment : ${what}.`;
}

/** What a type whose deposit the owner can no longer be paid asks, and what it means for her visitors. */
function unpayableDemand(rule: DepositRule): string {
  const ways = depositMethods(rule)
    .map((method) => (method === "card" ? "par carte" : "par virement"))
    .join(" ou ");
  const what = rule.nature === "arrhes" ? "des arrhes" : "un acompte";
  return `demande ${what} ${ways}, que vous ne prenez pas en ce moment : elle ne se réserve plus en ligne (sa page invite à appeler le studio).`;
}

/** The owner's warning on her payment settings of a type whose deposit she can no longer be paid. */
export function depositUnpayableWarning(typeName: string, rule: DepositRule): string {
  return `« ${typeName} » ${unpayableDemand(rule)} Acceptez l'un de ces moyens ci-dessous, ou ajoutez « Au studio » aux moyens de cette séance.`;
}

/**
 * The same warning on the type's own page, where she edits its ways of paying: what it asks, then
 * `settingsLink` (« dans vos réglages de paiement », a link there) and what to change below.
 */
export function sessionTypeUnpayableWarning(rule: DepositRule): {
  before: string;
  settingsLink: string;
  after: string;
} {
  return {
    before: `Cette séance ${unpayableDemand(rule)} Acceptez l'un de ces moyens `,
    settingsLink: "dans vos réglages de paiement",
    after: ", ou ajoutez « Au studio » aux moyens de cette séance ci-dessous.",
  };
}

/** What the booking page shows of a type's deposit. */
export type DepositSummary = {
  title: string;
  meaning: string;
  methods: { value: PaymentMethod; label: string }[];
  transferHours: number;
};

export function depositSummary(rule: DepositRule): DepositSummary {
  return {
    title: depositTitle(rule, formatCents),
    meaning: DEPOSIT_MEANINGS[rule.nature],
    methods: depositMethods(rule).map((method) => ({
      value: method,
      label: PAYMENT_METHOD_LABELS[method],
    })),
    transferHours: rule.transferHours,
  };
}
