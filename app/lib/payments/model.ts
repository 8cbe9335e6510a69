/**
 * The words of payments (decision 0162), shared by the database schema, the server modules and the pages.
 * Amounts are integers in euro cents everywhere; the only currency is EUR.
 */

export const CURRENCY = "EUR";

/**
 * What the buyer reads of a card payment the provider took for another total or currency than her order's
 * (an attempt `held` for the owner, decision 0172): it came, the studio decides, and it is not paid again.
 */
export const PAYMENT_HELD_MESSAGE =
  "Votre paiement par carte a bien été reçu, mais son montant ne correspond pas à celui de la commande : le studio le vérifie et vous écrit. Ne payez pas une seconde fois.";

/** What is sold. Gift vouchers first; deposits and gallery photos use the same orders. */
export const ORDER_KINDS = [
  "voucher",
  // A client gallery's extra photos (decision 0184).
  "gallery_photos",
  // A booking's deposit, and its balance paid at the studio (decision 0186).
  "booking_deposit",
  "booking_balance",
] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/**
 * Where an order stands.
 * - `awaiting_payment`: created, its payment not received yet (a card checkout open, a transfer awaited,
 *   or « au studio »: confirmed, paid at the studio).
 * - `paid`: the money was received (once, whatever the source that told us).
 * - `expired`: the payment window closed without a payment: what it held is released. A payment that arrives
 *   later is still applied (the money is real): the order becomes `paid` with `late_payment` set.
 * - `cancelled`: called off before any payment (by the owner or the buyer).
 * - `refunded`: every euro paid was given back (partial refunds keep `paid`, with their rows in `refunds`).
 */
export const ORDER_STATUSES = [
  "awaiting_payment",
  "paid",
  "expired",
  "cancelled",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: "En attente de paiement",
  paid: "Payée",
  expired: "Expirée",
  cancelled: "Annulée",
  refunded: "Remboursée",
};

/**
 * How the buyer pays: by card on the provider's hosted page, by bank transfer (a short reference to quote),
 * or at the studio. The owner allows some of them (payment settings).
 */
export const PAYMENT_METHODS = ["card", "transfer", "studio"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Carte bancaire",
  transfer: "Virement",
  studio: "Au studio",
};

/** How the owner says an offline payment arrived (« Marquer payé »). */
export const OFFLINE_MEANS = ["transfer", "cheque", "cash", "card_terminal"] as const;
export type OfflineMeans = (typeof OFFLINE_MEANS)[number];

export const OFFLINE_MEANS_LABELS: Record<OfflineMeans, string> = {
  transfer: "Virement reçu",
  cheque: "Chèque",
  cash: "Espèces",
  card_terminal: "Carte au studio",
};

/**
 * How the owner says she gave an offline refund back (« Rendu par », decision 0171): the same ways, in a
 * refund's words; the payment's by default, another when she chose it (cash for a card at the studio).
 */
export const REFUND_MEANS_LABELS: Record<OfflineMeans, string> = {
  transfer: "Virement",
  cheque: "Chèque",
  cash: "Espèces",
  card_terminal: "Carte au studio",
};

/** The way an offline refund goes back by default: its payment's, a transfer when none is known. */
export const defaultRefundMeans = (payment: { means: string | null }): OfflineMeans =>
  OFFLINE_MEANS.find((means) => means === payment.means) ?? "transfer";

/** The providers behind `PaymentProvider` (app/server/payments/provider.server.ts). */
export const PROVIDER_NAMES = ["stripe", "transfer", "studio"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * A payment attempt: one checkout (card), one transfer awaited, one payment at the studio.
 * - `open`: waiting for the provider or the owner;
 * - `succeeded`: paid (applied to its order once);
 * - `failed`: refused by the provider (the buyer may try again: a new attempt);
 * - `expired`: its window closed unpaid;
 * - `held`: the provider reports a total that differs from our order's: never applied, shown to the owner,
 *   who accepts it (`succeeded`) or refunds it (decision 0172);
 * - `returned`: a held payment the owner chose to refund: the money received, journalled and given back,
 *   never counted for its order.
 */
export const ATTEMPT_STATUSES = [
  "open",
  "succeeded",
  "failed",
  "expired",
  "held",
  "returned",
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** What a payment source reports about an attempt (webhook, return page, expiry job, reconciliation, owner). */
export const REPORTED_STATUSES = ["succeeded", "failed", "expired"] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

/** Who told us: each calls the one function that applies a payment status. */
export const STATUS_SOURCES = ["webhook", "return", "expiry", "reconciliation", "owner"] as const;
export type StatusSource = (typeof STATUS_SOURCES)[number];

/**
 * A refund: through the provider (`pending` until it confirms, then `succeeded` or `failed`), or owed by
 * the owner for an offline payment (`to_refund_offline` until she marks it `refunded_offline`).
 */
export const REFUND_STATUSES = [
  "pending",
  "succeeded",
  "failed",
  "to_refund_offline",
  "refunded_offline",
] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The rows of the append-only money journal. `closure` closes a day (Europe/Paris) with its totals. */
export const JOURNAL_KINDS = [
  "payment",
  "refund",
  "voucher_issue",
  "voucher_redemption",
  "voucher_cancellation",
  "closure",
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * TVA of a gift voucher (BOFiP TVA-BASE-20-10-20): a single-purpose voucher (one studio, one kind of
 * session: the rate known at sale) bears TVA when sold; a multi-purpose one (an amount) when used.
 */
export const VOUCHER_VAT_MODES = ["single", "multi"] as const;
export type VoucherVatMode = (typeof VOUCHER_VAT_MODES)[number];

/**
 * What refunds took out of an order's price: they give back first what was paid beyond it (a second
 * payment of the same order, kept as a duplicate, or a payment above its total), then the price itself.
 */
export function refundedOfPrice(totals: {
  priceCents: number;
  paidCents: number;
  refundedCents: number;
}): number {
  const beyond = Math.max(0, totals.paidCents - totals.priceCents);
  return Math.max(0, totals.refundedCents - beyond);
}

/**
 * Whether a failed refund was made good by later ones (decision 0171): refunds asked after it, not failed,
 * giving back at least as much. Its failure is then no one's concern any more; a smaller gesture made
 * since leaves it standing.
 */
export function failedRefundReplaced<
  Refund extends { status: string; amountCents: number; createdAt: Date },
>(refund: Refund, refunds: readonly Refund[]): boolean {
  if (refund.status !== "failed") return false;
  const since = refunds
    .filter((later) => later.status !== "failed" && later.createdAt > refund.createdAt)
    .reduce((sum, later) => sum + later.amountCents, 0);
  return since >= refund.amountCents;
}
