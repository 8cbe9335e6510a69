import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { formatDateFr, isoDayInParis } from "~/lib/dates";
import { depositRuleOf } from "~/lib/booking/deposit";
import {
  finalInvoiceLines,
  type InvoicedDeposit,
  type InvoicedVoucherUse,
  type VoucherDiscount,
} from "~/lib/invoices/final-invoice";
import { formatVoucherCode } from "~/lib/vouchers/code";
import {
  creditNoteOf,
  deductionLines,
  invoiceAmount,
  invoiceTotals,
  readInvoiceNumber,
  shareAcrossRates,
  type InvoiceLineInput,
  type InvoiceSeller,
} from "~/lib/invoices/model";
import { creditNoteSeller } from "~/lib/invoices/seller";
import { db } from "../db/client.server";
import {
  cursorColumn,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";
import {
  bookings,
  invoices,
  moneyJournal,
  orderLines,
  orders,
  paymentAttempts,
  refunds,
  voucherUses,
  vouchers,
} from "../db/schema";
import type { Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { catchUpStep } from "./catch-up.server";
import { issueInvoice, standingOf, type InvoiceRecord } from "./issue.server";
import { sellerForInvoices } from "./seller.server";
import { issueHeldUseInvoiceOfBooking, issueHeldUseInvoices } from "./voucher-uses.server";

/*
 * Every paid order has its invoice and every refund of it its credit note (decision 0181), issued in the
 * transaction that made the order paid or the refund done, so that neither exists without the other.
 * While the seller's legal identity lacks what an invoice must print (decision 0176) none is issued; the
 * catch-up (`issueMissingInvoices`) issues them, in the order of their payments, once it is complete.
 */

type OrderRecord = typeof orders.$inferSelect;
type RefundRecord = typeof refunds.$inferSelect;

/** How the money came, as the invoice says it: « par carte bancaire », « en espèces »… */
const PAID_BY: Record<string, string> = {
  card: "par carte bancaire",
  transfer: "par virement",
  cheque: "par chèque",
  cash: "en espèces",
  card_terminal: "par carte bancaire au studio",
  studio: "au studio",
  voucher: "par bon cadeau",
};

/** « Payée par carte bancaire le 12 janvier 2027. », from the order's first payment in the journal. */
async function paymentTerms(tx: Executor, order: OrderRecord): Promise<string> {
  const [payment] = await tx
    .select({ method: moneyJournal.method, at: moneyJournal.at })
    .from(moneyJournal)
    .where(and(eq(moneyJournal.orderId, order.id), eq(moneyJournal.kind, "payment")))
    .orderBy(asc(moneyJournal.seq))
    .limit(1);
  const at = payment?.at ?? order.paidAt ?? new Date();
  const means = (payment?.method && PAID_BY[payment.method]) ?? "";
  return `Payée${means ? ` ${means}` : ""} le ${formatDateFr(at)}.`;
}

/**
 * The order's lines as invoiced: under the franchise no TVA at all; otherwise each line's own rate, a
 * multi-purpose voucher bearing none at its sale (its TVA is due when it is used: CGI art. 256 ter).
 */
async function invoiceLines(
  tx: Executor,
  order: OrderRecord,
  seller: InvoiceSeller,
): Promise<InvoiceLineInput[]> {
  const lines = await tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.position));
  const subject = seller.vatMention === null;
  return lines.map((line) => ({
    label:
      subject && line.voucherVatMode === "multi"
        ? `${line.label} (bon à usages multiples : TVA due à son utilisation)`
        : line.label,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    vatRate: subject ? line.vatRate : null,
  }));
}

/** What the order's payments brought in (a held payment the owner accepted counts for what it took). */
async function receivedFor(tx: Executor, order: OrderRecord): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<number>`coalesce(sum(${paymentAttempts.amountCents}), 0)::int` })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, order.id), eq(paymentAttempts.status, "succeeded")));
  return row?.cents ?? 0;
}

/**
 * The lines as billed when the owner accepted a payment of less than the order (a held payment, decision
 * 0172): the difference granted as a discount, shared over the lines' rates, so that the invoice bills
 * what was received and the sales journal agrees with the money journal. More than the order (a payment
 * made twice) changes nothing: its refund gives the excess back without a credit note (creditDue).
 */
export function withShortfall(
  lines: InvoiceLineInput[],
  receivedCents: number,
): InvoiceLineInput[] {
  const billed = invoiceTotals(lines);
  if (receivedCents <= 0 || receivedCents >= billed.ttcCents) return lines;
  const discount = shareAcrossRates(billed.byRate, billed.ttcCents - receivedCents);
  return [
    ...lines,
    ...deductionLines(
      discount,
      `Remise accordée : paiement reçu de ${invoiceAmount(receivedCents)}`,
    ),
  ];
}

/** The kinds of an order's own invoice (one per order); credit notes refer to it. */
const ORDER_INVOICE_KINDS = ["sale", "deposit", "final"] as const;

/**
 * The deposit invoice a booking's balance order deducts (decision 0186): its booking's deposit order's
 * invoice, what credit notes gave back of it, and whether it was « arrhes » or an « acompte » (the rules
 * copied onto the deposit's order, else onto the booking); null when the booking has none.
 */
async function invoicedDeposit(tx: Executor, order: OrderRecord): Promise<InvoicedDeposit | null> {
  const bookingId = order.rulesSnapshot.bookingId;
  if (typeof bookingId !== "string") return null;
  // Held back with it while the identity was incomplete, the catch-up not yet come by: issued first, so
  // that the final invoice deducts it and follows it in the series.
  const [paidDeposit] = await tx
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.status, ["paid", "refunded"]),
        eq(orders.id, sql`(select deposit_order_id from bookings where id = ${bookingId})`),
      ),
    )
    .for("update");
  if (paidDeposit) await invoicePaidOrder(tx, paidDeposit);
  const [row] = await tx
    .select({ invoice: invoices, snapshot: orders.rulesSnapshot, rules: bookings.depositRules })
    .from(bookings)
    .innerJoin(orders, eq(orders.id, bookings.depositOrderId))
    .innerJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "deposit")))
    .where(eq(bookings.id, bookingId));
  if (!row) return invoicedVoucherDeposit(tx, bookingId);
  const rules = depositRuleOf(row.snapshot.deposit) ?? row.rules;
  return {
    number: row.invoice.number,
    issuedAt: row.invoice.issuedAt,
    nature: rules?.nature ?? "acompte",
    byRate: await standingOf(tx, row.invoice),
  };
}

/**
 * The deposit an amount voucher paid (decision 0199), invoiced at its use (decision 0198): the final
 * invoice deducts it as it deducts a paid deposit's invoice; null when none stands (given back, or never
 * invoiced: the franchise).
 */
async function invoicedVoucherDeposit(
  tx: Executor,
  bookingId: string,
): Promise<InvoicedDeposit | null> {
  // Held back with it while the identity was incomplete: issued first.
  await issueHeldUseInvoiceOfBooking(tx, bookingId);
  const [row] = await tx
    .select({
      invoice: invoices,
      rules: bookings.depositRules,
      usedCents: voucherUses.amountCents,
      code: vouchers.code,
    })
    .from(invoices)
    .innerJoin(voucherUses, eq(voucherUses.id, invoices.voucherUseId))
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .innerJoin(bookings, eq(bookings.id, voucherUses.bookingId))
    .where(
      and(
        eq(voucherUses.bookingId, bookingId),
        isNull(voucherUses.cancelledAt),
        eq(invoices.kind, "voucher_use"),
      ),
    );
  if (!row) return null;
  return {
    number: row.invoice.number,
    issuedAt: row.invoice.issuedAt,
    nature: row.rules?.nature ?? "acompte",
    byRate: await standingOf(tx, row.invoice),
    voucherDiscount: voucherDiscountOf(row),
  };
}

/**
 * The part of a use its invoice did not bill, its voucher sold for less than its value (decision 0203): the
 * final invoice restates it in the session's price and deducts it as the discount it was; null for none.
 */
function voucherDiscountOf(row: {
  invoice: InvoiceRecord;
  usedCents: number;
  code: string | null;
}): VoucherDiscount | null {
  const cents = row.usedCents - row.invoice.ttcCents;
  return cents > 0 ? { code: formatVoucherCode(row.code ?? ""), cents } : null;
}

/**
 * The invoices of the amount vouchers' uses that paid part of a booking's balance at the studio (decision
 * 0201), the oldest first: the final invoice deducts them. None under the franchise (a use then has no
 * invoice) or while the seller's identity held them back (the catch-up issues them first, in the order of
 * their payments).
 */
async function invoicedBalanceVoucherUses(
  tx: Executor,
  bookingId: string,
): Promise<InvoicedVoucherUse[]> {
  await issueHeldUseInvoiceOfBooking(tx, bookingId, "balance");
  const rows = await tx
    .select({ invoice: invoices, code: vouchers.code, usedCents: voucherUses.amountCents })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .innerJoin(
      invoices,
      and(eq(invoices.voucherUseId, voucherUses.id), eq(invoices.kind, "voucher_use")),
    )
    .where(and(eq(voucherUses.balanceOfBookingId, bookingId), isNull(voucherUses.cancelledAt)))
    .orderBy(asc(voucherUses.at));
  return Promise.all(
    rows.map(async (row) => ({
      number: row.invoice.number,
      issuedAt: row.invoice.issuedAt,
      code: formatVoucherCode(row.code ?? ""),
      byRate: await standingOf(tx, row.invoice),
      voucherDiscount: voucherDiscountOf(row),
    })),
  );
}

/**
 * A booking's balance as its final invoice bills it: the session's whole price less the deposit invoice
 * and the balance's voucher uses still standing (finalInvoiceLines), and the payment terms' « Net à
 * payer » sentence.
 */
async function balanceInvoiceLines(
  tx: Executor,
  order: OrderRecord,
  lines: InvoiceLineInput[],
  seller: InvoiceSeller,
): Promise<{ lines: InvoiceLineInput[]; note: string | null }> {
  const [balance] = lines;
  if (!balance || lines.length !== 1) return { lines, note: null };
  const session = order.rulesSnapshot.sessionLabel;
  return finalInvoiceLines({
    balance,
    // Balance orders made before the session's label was kept in their snapshot: their line's label.
    sessionLabel: typeof session === "string" ? session : balance.label.replace(/^Solde : /, ""),
    deposit: await invoicedDeposit(tx, order),
    voucherUses:
      typeof order.rulesSnapshot.bookingId === "string"
        ? await invoicedBalanceVoucherUses(tx, order.rulesSnapshot.bookingId)
        : [],
    taxed: seller.vatMention === null,
  });
}

/**
 * Issues the invoice of a paid order in `tx`, unless it has one or the seller's identity is incomplete
 * (then null). Taken once: the unique index on the sale's order refuses a second.
 */
export async function invoicePaidOrder(
  tx: Executor,
  order: OrderRecord,
): Promise<InvoiceRecord | null> {
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, order.id), inArray(invoices.kind, ORDER_INVOICE_KINDS)));
  if (existing) return existing;
  const seller = await sellerForInvoices(tx);
  if (!seller) return null;
  // A booking's deposit and balance are invoiced as such, dated by its session (decision 0186).
  const deposit = order.kind === "booking_deposit";
  const balance = order.kind === "booking_balance";
  const startsAt = deposit || balance ? order.rulesSnapshot.startsAt : null;
  const lines = withShortfall(await invoiceLines(tx, order, seller), await receivedFor(tx, order));
  const final = balance
    ? await balanceInvoiceLines(tx, order, lines, seller)
    : { lines, note: null };
  const terms = await paymentTerms(tx, order);
  const bookingId = order.rulesSnapshot.bookingId;
  return issueInvoice(tx, {
    kind: deposit ? "deposit" : balance ? "final" : "sale",
    orderId: order.id,
    // The booking's page lists its documents (invoicesOfBooking); the purge of the booking keeps them.
    bookingId: (deposit || balance) && typeof bookingId === "string" ? bookingId : null,
    serviceDate: typeof startsAt === "string" ? isoDayInParis(new Date(startsAt)) : null,
    seller,
    buyer: { name: order.buyerName, email: order.buyerEmail, address: null },
    lines: final.lines,
    paymentTerms: final.note ? `${final.note} ${terms}` : terms,
  });
}

/**
 * What a refund gives back of the invoiced amount: refunds first give back what was paid beyond the
 * invoice (a payment made twice), then credit the invoice, never beyond it.
 */
export function creditDue(input: {
  invoicedCents: number;
  paidCents: number;
  refundedCents: number;
  creditedCents: number;
}): number {
  const received = input.paidCents - input.refundedCents;
  const owed = Math.max(0, input.invoicedCents - Math.max(0, received));
  return Math.max(0, Math.min(owed, input.invoicedCents) - input.creditedCents);
}

/**
 * Issues the credit note of a refund done (`succeeded` or given back offline) in `tx`, for what it gives
 * back of the order's invoice; null when the order has no invoice yet, when it gives back nothing
 * invoiced, or when the refund has its credit note.
 */
export async function creditRefund(
  tx: Executor,
  order: OrderRecord,
  refund: RefundRecord,
): Promise<InvoiceRecord | null> {
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, order.id), inArray(invoices.kind, ORDER_INVOICE_KINDS)));
  if (!invoice) return null;
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.refundId, refund.id), eq(invoices.kind, "credit_note")));
  if (existing) return existing;
  const standing = await standingOf(tx, invoice);
  const totals = await tx.execute<{ paid: number; refunded: number }>(sql`
    select
      (select coalesce(sum(amount_cents), 0) from payment_attempts
        where order_id = ${order.id} and status = 'succeeded')::int as paid,
      (select coalesce(sum(r.amount_cents), 0) from refunds r
        join payment_attempts a on a.id = r.attempt_id and a.status = 'succeeded'
        where r.order_id = ${order.id} and r.status in ('succeeded', 'refunded_offline')
          and r.completed_at <= ${refund.completedAt ?? new Date()})::int as refunded`);
  const { paid = 0, refunded = 0 } = totals.rows[0] ?? {};
  const amount = creditDue({
    invoicedCents: invoice.ttcCents,
    paidCents: paid,
    refundedCents: refunded,
    creditedCents: invoice.ttcCents - standing.reduce((sum, share) => sum + share.ttcCents, 0),
  });
  if (amount <= 0) return null;
  const seller = await sellerForInvoices(tx);
  if (!seller) return null;
  return issueInvoice(tx, {
    kind: "credit_note",
    orderId: order.id,
    refundId: refund.id,
    bookingId: invoice.bookingId,
    creditedInvoiceId: invoice.id,
    serviceDate: invoice.serviceDate,
    seller: creditNoteSeller(seller, invoice.seller),
    buyer: invoice.buyer,
    ...creditNoteOf(standing, amount, `Remboursement — facture ${invoice.number}`),
    paymentTerms: `Remboursé le ${formatDateFr(refund.completedAt ?? new Date())}.`,
  });
}

/**
 * The invoices and credit notes that the seller's incomplete identity held back, issued now in the order
 * of their payments and refunds, each in its own transaction under its order's lock, then those of the
 * vouchers' uses. Each step under the catch-up's lock (catchUpStep): a catch-up running at once on another
 * server waits for it, never the reverse of its locks. Answers how many.
 */
export async function issueMissingInvoices(): Promise<number> {
  const unpaidOnes = await db()
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(
      invoices,
      and(eq(invoices.orderId, orders.id), inArray(invoices.kind, ORDER_INVOICE_KINDS)),
    )
    .where(and(inArray(orders.status, ["paid", "refunded"]), isNull(invoices.id)))
    .orderBy(asc(orders.paidAt));
  const uncredited = await db()
    .select({ id: refunds.id, orderId: refunds.orderId })
    .from(refunds)
    .leftJoin(invoices, and(eq(invoices.refundId, refunds.id), eq(invoices.kind, "credit_note")))
    .where(and(inArray(refunds.status, ["succeeded", "refunded_offline"]), isNull(invoices.id)))
    .orderBy(asc(refunds.completedAt));
  let issued = 0;
  for (const { id } of unpaidOnes) {
    const made = await catchUpStep(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
      if (!order || (order.status !== "paid" && order.status !== "refunded")) return null;
      return invoicePaidOrder(tx, order);
    });
    if (!made) break; // The identity is still incomplete: nothing else can be issued.
    issued += 1;
  }
  for (const { id, orderId } of uncredited) {
    const made = await catchUpStep(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      const [refund] = await tx.select().from(refunds).where(eq(refunds.id, id));
      if (!order || !refund) return null;
      return creditRefund(tx, order, refund);
    });
    if (made) issued += 1;
  }
  // The uses of multi-purpose vouchers held back the same way (decision 0198), after the sales they spend.
  issued += await issueHeldUseInvoices();
  if (issued > 0) log.info("missing_invoices_issued", { issued });
  return issued;
}

/** How many paid orders wait for their invoice (the seller's identity incomplete). */
export async function ordersWithoutInvoice(): Promise<number> {
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .leftJoin(
      invoices,
      and(eq(invoices.orderId, orders.id), inArray(invoices.kind, ORDER_INVOICE_KINDS)),
    )
    .where(and(inArray(orders.status, ["paid", "refunded"]), isNull(invoices.id)));
  return row?.count ?? 0;
}

/** An order's invoices and credit notes, the newest last. */
export async function invoicesOfOrder(orderId: string): Promise<InvoiceRecord[]> {
  return (
    db()
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, orderId))
      // At one instant, an invoice before its credit note (F before A): a credit note is never dated earlier.
      .orderBy(asc(invoices.issuedAt), desc(invoices.series), asc(invoices.sequence))
  );
}

/** An invoice by its number, or null. */
export async function invoiceByNumber(number: string): Promise<InvoiceRecord | null> {
  const [invoice] = await db().select().from(invoices).where(eq(invoices.number, number));
  return invoice ?? null;
}

/** The invoices list's order: newest first, by issue time then number. */
export const INVOICE_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: invoices.issuedAt, type: "timestamptz" },
    { expression: invoices.id, type: "uuid" },
  ],
  direction: "desc",
};

export type InvoiceListFilter = {
  /** What the owner typed in the list's search box (trimmed and bounded by the loader); empty: none. */
  search: string;
};

/**
 * The invoices and credit notes a search finds: their number however it is typed (readInvoiceNumber), or
 * a part of the buyer's name (accents aside) or e-mail, as printed on them.
 */
function invoiceSearch(search: string): SQL {
  const typed = readInvoiceNumber(search);
  const pattern = likePattern(search);
  return or(
    typed
      ? and(
          typed.series ? eq(invoices.series, typed.series) : undefined,
          typed.year === null ? undefined : eq(invoices.year, typed.year),
          eq(invoices.sequence, typed.sequence),
        )
      : undefined,
    sql`f_unaccent(${invoices.buyer} ->> 'name') ilike f_unaccent(${pattern})`,
    sql`${invoices.buyer} ->> 'email' ilike ${pattern}`,
  ) as SQL;
}

/** A page of the invoices and credit notes a filter keeps, newest first, and how many it keeps in all. */
export async function invoicePage(filter: InvoiceListFilter, position: PagePosition) {
  const where = filter.search ? invoiceSearch(filter.search) : undefined;
  const [page, [total]] = await Promise.all([
    keysetPage(INVOICE_LIST_ORDER, position, ({ where: after, orderBy, limit }) =>
      db()
        .select({
          id: invoices.id,
          number: invoices.number,
          kind: invoices.kind,
          issuedAt: invoices.issuedAt,
          buyer: invoices.buyer,
          orderId: invoices.orderId,
          ttcCents: invoices.ttcCents,
          cursor: cursorColumn(INVOICE_LIST_ORDER),
        })
        .from(invoices)
        .where(and(where, after))
        .orderBy(...orderBy)
        .limit(limit),
    ),
    db()
      .select({ value: sql<number>`count(*)::int` })
      .from(invoices)
      .where(where),
  ]);
  return { ...page, matching: total?.value ?? 0 };
}

/** An invoice's PDF and its file name (« facture-F-2027-000123.pdf », « avoir-A-… »). */
export async function invoicePdf(
  invoice: InvoiceRecord,
): Promise<{ bytes: Uint8Array; filename: string }> {
  const credited = invoice.creditedInvoiceId
    ? await db()
        .select({ number: invoices.number })
        .from(invoices)
        .where(eq(invoices.id, invoice.creditedInvoiceId))
    : [];
  // Loaded on first use: pdf-lib and fontkit cost every start of the server about 0.2 s (decision 0190).
  const { renderInvoicePdf } = await import("./invoice-pdf.server");
  const bytes = await renderInvoicePdf({ invoice, creditedNumber: credited[0]?.number ?? null });
  const prefix = invoice.kind === "credit_note" ? "avoir" : "facture";
  return { bytes, filename: `${prefix}-${invoice.number}.pdf` };
}

/** A booking's invoices and credit notes, oldest first, as its admin page lists them. */
export async function invoicesOfBooking(bookingId: string) {
  return (
    db()
      .select({
        number: invoices.number,
        kind: invoices.kind,
        issuedAt: invoices.issuedAt,
        ttcCents: invoices.ttcCents,
      })
      .from(invoices)
      .where(eq(invoices.bookingId, bookingId))
      // At one instant, an invoice before its credit note (F before A): a credit note is never dated earlier.
      .orderBy(asc(invoices.issuedAt), desc(invoices.series), asc(invoices.sequence))
  );
}
