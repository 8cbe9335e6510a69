import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { balanceOrderKey, DEPOSIT_NATURE_LABELS } from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { formatDateFr, isoDayInParis } from "~/lib/dates";
import { voucherDiscountLabel } from "~/lib/invoices/final-invoice";
import { creditNoteOf, type InvoiceSeller, type VatShare } from "~/lib/invoices/model";
import { creditNoteSeller } from "~/lib/invoices/seller";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { refundedOfPrice } from "~/lib/payments/model";
import { db } from "../db/client.server";
import { bookings, invoices, orders, sessionTypes, voucherUses, vouchers } from "../db/schema";
import type { Executor } from "../jobs/queue.server";
import { now } from "../clock.server";
import { catchUpStep } from "./catch-up.server";
import { issueInvoice, standingOf, type InvoiceRecord } from "./issue.server";
import { sellerForInvoices } from "./seller.server";

/*
 * A multi-purpose voucher (an amount, decision 0167) bears no TVA when it is sold: what it will pay for is
 * not known yet, and its TVA is due when it is used (CGI art. 256 ter). Each use the owner records at the
 * studio is therefore invoiced, in the use's own transaction, to the voucher's holder, at the normal rate
 * of what the studio sells (decision 0198). Under the franchise (293 B) no TVA is due at the use and the
 * sale's invoice already named the sum: no invoice. While the seller's identity is incomplete the use is
 * marked `invoice_pending`, and the catch-up of the held invoices issues it (or finds none due) later.
 */

/** The rate of a multi-purpose voucher's use: the sessions and prints it pays for are at 20 %. */
export const VOUCHER_USE_VAT_RATE = 2000;

type VoucherRecord = typeof vouchers.$inferSelect;
type VoucherUseRecord = typeof voucherUses.$inferSelect;

const setPending = (tx: Executor, useId: string, pending: boolean) =>
  tx.update(voucherUses).set({ invoicePending: pending }).where(eq(voucherUses.id, useId));

/** The invoice of a use, if it has one. */
export async function invoiceOfUse(tx: Executor, useId: string): Promise<InvoiceRecord | null> {
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.voucherUseId, useId));
  return invoice ?? null;
}

/**
 * The invoices a booking's client gets from her booking's page, and their credit notes, oldest first: those
 * of the uses that paid its deposit (decision 0199) or part of its balance (decision 0201), made out to her
 * with no order of hers, and the final invoice of the balance paid at the studio (its order's, keyed by the
 * booking), which only the core's « Paiement reçu » e-mail linked (decision 0201, amended). Never the
 * deposit order's invoice, which its own page serves, nor another booking's.
 */
export async function clientInvoicesOfBooking(bookingId: string): Promise<InvoiceRecord[]> {
  const uses = db()
    .select({ id: voucherUses.id })
    .from(voucherUses)
    .where(or(eq(voucherUses.bookingId, bookingId), eq(voucherUses.balanceOfBookingId, bookingId)));
  const useInvoices = db()
    .select({ id: invoices.id })
    .from(invoices)
    .where(inArray(invoices.voucherUseId, uses));
  const balanceOrder = db()
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.idempotencyKey, balanceOrderKey(bookingId)),
        eq(orders.kind, "booking_balance"),
      ),
    );
  return (
    db()
      .select()
      .from(invoices)
      .where(
        or(
          inArray(invoices.voucherUseId, uses),
          inArray(invoices.creditedInvoiceId, useInvoices),
          inArray(invoices.orderId, balanceOrder),
        ),
      )
      // At one instant, an invoice before its credit note (F before A): a credit note is never dated earlier.
      .orderBy(asc(invoices.issuedAt), desc(invoices.series), asc(invoices.sequence))
  );
}

/** The invoice of the use that pays a booking's deposit and stands (not given back); null for none. */
export async function invoiceOfDepositUse(bookingId: string): Promise<InvoiceRecord | null> {
  const [row] = await db()
    .select({ invoice: invoices })
    .from(invoices)
    .innerJoin(voucherUses, eq(voucherUses.id, invoices.voucherUseId))
    .where(and(eq(voucherUses.bookingId, bookingId), isNull(voucherUses.cancelledAt)))
    .orderBy(desc(voucherUses.at))
    .limit(1);
  return row?.invoice ?? null;
}

/**
 * Issues the invoice of a use of a multi-purpose voucher in `tx`: a use just made, or one held back (the
 * catch-up's, locked): neither has an invoice yet, and the unique index on the use refuses a second.
 * Null when none is due (a single-purpose voucher, a use given back, the franchise) or when the seller's
 * identity is incomplete (the use is then marked pending). `seller`: as the caller already read it.
 */
export async function invoiceVoucherUse(
  tx: Executor,
  voucher: VoucherRecord,
  use: VoucherUseRecord,
  seller?: InvoiceSeller | null,
): Promise<InvoiceRecord | null> {
  if (voucher.vatMode !== "multi" || use.cancelledAt) {
    // Given back before its invoice could be issued: none is due any more.
    if (use.invoicePending) await setPending(tx, use.id, false);
    return null;
  }
  const issuer = seller === undefined ? await sellerForInvoices(tx) : seller;
  if (use.invoicePending !== (issuer === null)) await setPending(tx, use.id, issuer === null);
  if (issuer === null || issuer.vatMention !== null) return null;
  const code = formatVoucherCode(voucher.code ?? "");
  // The voucher's order's row before its uses are counted, as a use locks it before it takes from the
  // voucher: a use being made at this moment (or a refund) is counted once it commits, never computed
  // from the same uses as this one (their shares would then drift by a cent, decision 0203 amended).
  if (voucher.orderId) await lockOrderRow(tx, voucher.orderId);
  // Sold for less than its value (a held payment accepted short, decision 0172): TVA on what was paid.
  const discount =
    use.amountCents - (voucher.orderId ? await paidShareOfUse(tx, voucher, use) : use.amountCents);
  if (discount >= use.amountCents) {
    // Nothing of it was paid for (a cent's use of a voucher sold at a fraction): no TVA to invoice.
    if (use.invoicePending) await setPending(tx, use.id, false);
    return null;
  }
  const paid = use.bookingId
    ? await bookingPaidBy(tx, use.bookingId, "deposit")
    : use.balanceOfBookingId
      ? await bookingPaidBy(tx, use.balanceOfBookingId, "balance")
      : null;
  const invoice = await issueInvoice(tx, {
    kind: "voucher_use",
    voucherUseId: use.id,
    bookingId: paid?.bookingId ?? null,
    serviceDate: paid?.serviceDate ?? isoDayInParis(use.at),
    seller: issuer,
    buyer: paid?.buyer ?? {
      name: voucher.recipientName,
      email: voucher.recipientEmail ?? "",
      address: null,
    },
    lines: [
      {
        label: paid
          ? `${paid.label} (réglé par le bon cadeau ${code})`
          : `Prestations photographiques réglées par le bon cadeau ${code}`,
        quantity: 1,
        unitPriceCents: use.amountCents,
        vatRate: VOUCHER_USE_VAT_RATE,
      },
      ...(discount > 0
        ? [
            {
              label: voucherDiscountLabel(code),
              quantity: 1,
              unitPriceCents: -discount,
              vatRate: VOUCHER_USE_VAT_RATE,
            },
          ]
        : []),
    ],
    paymentTerms: `Réglée par le bon cadeau ${code} le ${formatDateFr(use.at)} (bon à usages multiples : TVA due à son utilisation).`,
  });
  // Held back while the identity was incomplete, it may come after a refund of the voucher's order beyond
  // its balance, which could credit nothing of it then: what stands of the uses is brought down now to
  // what the studio keeps, as that refund would have done (decision 0200, amended). Nothing otherwise.
  const kept = voucher.orderId ? await keptAfterRefunds(tx, voucher.orderId) : null;
  if (kept !== null) await creditUsesRefunded(tx, voucher.id, kept);
  return invoice;
}

/** `cents × numerator / denominator`, rounded to the nearest cent (half up). */
const prorata = (cents: number, numerator: number, denominator: number) =>
  denominator <= 0 ? 0 : Math.floor((2 * cents * numerator + denominator) / (2 * denominator));

/**
 * What was paid for the part of a multi-purpose voucher's value that a use spends: the TVA's base of the
 * use (directive 2006/112 art. 73a, CGI art. 266: the consideration paid for the voucher, not its face).
 * The use's whole amount when the voucher was paid at its price (or above); when the owner accepted a
 * payment of less (decision 0172), its share of what was received, counted over the voucher's uses
 * invoiced so far and not given back so that their shares add up to what was received, to the cent
 * (decision 0203). Refunds are not counted here: creditUsesRefunded brings the uses down afterwards.
 */
async function paidShareOfUse(
  tx: Executor,
  voucher: VoucherRecord,
  use: VoucherUseRecord,
): Promise<number> {
  const [row] = await tx
    .select({
      priceCents: orders.amountCents,
      paidCents: sql<number>`(select coalesce(sum(amount_cents), 0) from payment_attempts
        where order_id = ${voucher.orderId} and status = 'succeeded')::int`,
      billedCents: sql<number>`(select coalesce(sum(u.amount_cents), 0) from voucher_uses u
        where u.voucher_id = ${voucher.id} and u.id <> ${use.id} and u.cancelled_at is null
          and exists (select 1 from invoices i where i.voucher_use_id = u.id))::int`,
    })
    .from(orders)
    .where(eq(orders.id, voucher.orderId));
  if (!row || row.paidCents <= 0 || row.paidCents >= row.priceCents) return use.amountCents;
  const face = voucher.valueCents;
  const upTo = (usedCents: number) => prorata(row.paidCents, Math.min(usedCents, face), face);
  const share = upTo(row.billedCents + use.amountCents) - upTo(row.billedCents);
  return Math.max(0, Math.min(use.amountCents, share));
}

/** A voucher's order's row, locked until the transaction ends (again: free); null for none. */
async function lockOrderRow(tx: Executor, orderId: string) {
  const [order] = await tx
    .select({ amountCents: orders.amountCents })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for("update");
  return order ?? null;
}

/**
 * What the studio keeps of a voucher's price (or of what was received for it, when less) once the refunds
 * of its order done so far are counted, as the voucher's kind counts them when each is done (onRefunded);
 * null when none was done. Its order's row
 * locked (after the use's, as a use given back takes them; invoiceVoucherUse took it already): a refund
 * done at the same moment is seen.
 */
async function keptAfterRefunds(tx: Executor, orderId: string): Promise<number | null> {
  const order = await lockOrderRow(tx, orderId);
  if (!order) return null;
  const [totals] = await tx
    .select({
      paid: sql<number>`(select coalesce(sum(amount_cents), 0) from payment_attempts
        where order_id = ${orderId} and status = 'succeeded')::int`,
      done: sql<number>`(select coalesce(sum(r.amount_cents), 0) from refunds r
        join payment_attempts a on a.id = r.attempt_id and a.status = 'succeeded'
        where r.order_id = ${orderId} and r.status in ('succeeded', 'refunded_offline'))::int`,
    })
    .from(sql`(select 1) as one`);
  if (!totals || totals.done === 0) return null;
  const taken = refundedOfPrice({
    priceCents: order.amountCents,
    paidCents: totals.paid,
    refundedCents: totals.done,
  });
  // As keptOfPrice (vouchers/order-kind.server.ts), which imports this module.
  return Math.max(0, Math.min(order.amountCents, totals.paid) - taken);
}

/**
 * What a booking's use of an amount voucher paid, as its invoice names it: the deposit (decision 0199,
 * « Arrhes : Séance Portrait du samedi 12 décembre 2026 à 14 h 30 ») or the balance paid at the studio
 * (decision 0201, « Solde : … »), the session's day and the client who booked. Null once the booking is
 * gone (purged: the use's own words then), or for a deposit without its rules (a session voucher's, which
 * is not invoiced here).
 */
async function bookingPaidBy(tx: Executor, bookingId: string, paid: "deposit" | "balance") {
  const [row] = await tx
    .select({ booking: bookings, typeName: sessionTypes.name })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .where(eq(bookings.id, bookingId));
  if (!row) return null;
  const { booking } = row;
  const rules = booking.depositRules;
  if (paid === "deposit" && !rules) return null;
  const what = paid === "deposit" && rules ? DEPOSIT_NATURE_LABELS[rules.nature] : "Solde";
  return {
    bookingId,
    label: `${what} : ${row.typeName} du ${instantLabelFr(booking.startsAt)}`,
    serviceDate: isoDayInParis(booking.startsAt),
    buyer: { name: booking.clientName, email: booking.clientEmail, address: null },
  };
}

/**
 * A use given back (its booking cancelled in time, decision 0199): the credit note of what stands of its
 * invoice, in `tx` (all of it, less what a refund of the voucher's order already credited:
 * creditUsesRefunded); null when the use had none (franchise, single-purpose) or nothing of it stands.
 */
export async function creditVoucherUse(
  tx: Executor,
  use: VoucherUseRecord,
): Promise<InvoiceRecord | null> {
  const invoice = await invoiceOfUse(tx, use.id);
  if (!invoice) {
    // Held back while the identity was incomplete, then given back: nothing to invoice, nothing to credit.
    if (use.invoicePending) await setPending(tx, use.id, false);
    return null;
  }
  const standing = await standingOf(tx, invoice);
  if (ttcOf(standing) <= 0) return null;
  const at = use.cancelledAt ?? new Date();
  return creditUseInvoice(tx, invoice, standing, ttcOf(standing), {
    label: "Somme rendue sur le bon cadeau",
    terms: `Rendue sur le bon cadeau le ${formatDateFr(at)}.`,
  });
}

/**
 * A refund of a multi-purpose voucher's order done (decision 0198, amended): money given back beyond
 * what was left on the voucher is money of uses already invoiced, and a price given back lowers the
 * TVA's base (CGI art. 272). What stands of the uses' invoices is brought down to what the studio keeps
 * of the voucher's price (`keptCents`) less what it still owes on the voucher, by credit notes of the
 * owner's uses at the studio first, then those of a booking's deposit or balance (whose booking's final
 * invoice deducts what stands of them), the latest first. In the refund's transaction, under its order's
 * lock; a second pass issues nothing. Answers the credit notes issued.
 */
export async function creditUsesRefunded(
  tx: Executor,
  voucherId: string,
  keptCents: number,
): Promise<InvoiceRecord[]> {
  const [voucher] = await tx.select().from(vouchers).where(eq(vouchers.id, voucherId));
  if (!voucher || voucher.vatMode !== "multi") return [];
  const owed =
    voucher.status === "active" || voucher.status === "expired" ? voucher.balanceCents : 0;
  const rows = await tx
    .select({ invoice: invoices })
    .from(invoices)
    .innerJoin(voucherUses, eq(voucherUses.id, invoices.voucherUseId))
    .where(eq(voucherUses.voucherId, voucherId))
    .orderBy(
      sql`${voucherUses.bookingId} is not null or ${voucherUses.balanceOfBookingId} is not null`,
      desc(voucherUses.at),
    );
  const uses = [];
  for (const { invoice } of rows) uses.push({ invoice, standing: await standingOf(tx, invoice) });
  // What is kept is shared, at what each euro of the voucher's value was paid, between the uses invoiced and
  // what is still owed on it or not yet invoiced (decision 0203): all of it to the uses once nothing else is
  // left; their face once a voucher paid at its price is refunded within what is left (kept = face then).
  const [faces] = await tx
    .select({
      billed: sql<number>`coalesce(sum(${voucherUses.amountCents}) filter (where exists (select 1
        from invoices i where i.voucher_use_id = voucher_uses.id)), 0)::int`,
      all: sql<number>`coalesce(sum(${voucherUses.amountCents}), 0)::int`,
    })
    .from(voucherUses)
    .where(and(eq(voucherUses.voucherId, voucherId), isNull(voucherUses.cancelledAt)));
  const target = prorata(keptCents, faces?.billed ?? 0, (faces?.all ?? 0) + owed);
  let excess = uses.reduce((sum, { standing }) => sum + ttcOf(standing), 0) - target;
  const issued: InvoiceRecord[] = [];
  const terms = `Remboursé le ${formatDateFr(now())}.`;
  for (const { invoice, standing } of uses) {
    const amount = Math.min(excess, ttcOf(standing));
    if (amount <= 0) continue;
    issued.push(
      await creditUseInvoice(tx, invoice, standing, amount, {
        label: "Remboursement du bon cadeau",
        terms,
      }),
    );
    excess -= amount;
  }
  return issued;
}

const ttcOf = (standing: readonly VatShare[]) =>
  standing.reduce((sum, share) => sum + share.ttcCents, 0);

/** A credit note of `amountCents` of a use's invoice, of what `standing` of it is left. */
async function creditUseInvoice(
  tx: Executor,
  invoice: InvoiceRecord,
  standing: readonly VatShare[],
  amountCents: number,
  words: { label: string; terms: string },
): Promise<InvoiceRecord> {
  const seller = (await sellerForInvoices(tx)) ?? invoice.seller;
  return issueInvoice(tx, {
    kind: "credit_note",
    bookingId: invoice.bookingId,
    creditedInvoiceId: invoice.id,
    serviceDate: invoice.serviceDate,
    seller: creditNoteSeller(seller, invoice.seller),
    buyer: invoice.buyer,
    ...creditNoteOf(standing, amountCents, `${words.label} — facture ${invoice.number}`),
    paymentTerms: words.terms,
  });
}

/** A use still held back (`invoice_pending`) matching `which`, locked, with its voucher; null for none. */
async function lockHeldUse(tx: Executor, which: SQL) {
  const [held] = await tx
    .select({ use: voucherUses, voucher: vouchers })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .where(and(which, eq(voucherUses.invoicePending, true)))
    .for("update", { of: voucherUses });
  return held ?? null;
}

/**
 * The held-back invoice of the use that paid a booking's deposit (decision 0199), or of the one that paid
 * part of its balance at the studio (`"balance"`, decision 0201), issued in `tx` before the booking's final
 * invoice deducts it, so that it comes first in the numbers; null when none is held.
 */
export async function issueHeldUseInvoiceOfBooking(
  tx: Executor,
  bookingId: string,
  paid: "deposit" | "balance" = "deposit",
): Promise<InvoiceRecord | null> {
  const held = await lockHeldUse(
    tx,
    eq(paid === "deposit" ? voucherUses.bookingId : voucherUses.balanceOfBookingId, bookingId),
  );
  return held ? invoiceVoucherUse(tx, held.voucher, held.use) : null;
}

/**
 * The uses whose invoice the seller's incomplete identity held back, invoiced now in the order they were
 * made, each in its own transaction with its row locked, under the catch-up's lock (catchUpStep); stops
 * while the identity is still incomplete.
 * Answers how many invoices it issued.
 */
export async function issueHeldUseInvoices(): Promise<number> {
  const held = await db()
    .select({ id: voucherUses.id })
    .from(voucherUses)
    .where(eq(voucherUses.invoicePending, true))
    .orderBy(asc(voucherUses.at));
  let issued = 0;
  for (const { id } of held) {
    const outcome = await catchUpStep(async (tx) => {
      const locked = await lockHeldUse(tx, eq(voucherUses.id, id));
      if (!locked) return "done" as const;
      const seller = await sellerForInvoices(tx);
      if (seller === null) return "incomplete" as const;
      const invoice = await invoiceVoucherUse(tx, locked.voucher, locked.use, seller);
      return invoice ? ("issued" as const) : ("done" as const);
    });
    if (outcome === "incomplete") break;
    if (outcome === "issued") issued += 1;
  }
  return issued;
}

/** How many uses of multi-purpose vouchers wait for their invoice (the seller's identity incomplete). */
export async function useInvoicesHeld(): Promise<number> {
  const [row] = await db()
    .select({ value: count() })
    .from(voucherUses)
    .where(eq(voucherUses.invoicePending, true));
  return row?.value ?? 0;
}
