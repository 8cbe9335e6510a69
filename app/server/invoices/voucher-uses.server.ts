import { and, asc, count, eq, type SQL } from "drizzle-orm";
import { DEPOSIT_NATURE_LABELS } from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { formatDateFr, isoDayInParis } from "~/lib/dates";
import { creditNoteOf, standingByRate, type InvoiceSeller } from "~/lib/invoices/model";
import { creditNoteSeller } from "~/lib/invoices/seller";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { db } from "../db/client.server";
import { bookings, invoices, sessionTypes, voucherUses, vouchers } from "../db/schema";
import type { Executor } from "../jobs/queue.server";
import { issueInvoice, type InvoiceRecord } from "./issue.server";
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
  const deposit = use.bookingId ? await depositPaidBy(tx, use.bookingId) : null;
  return issueInvoice(tx, {
    kind: "voucher_use",
    voucherUseId: use.id,
    bookingId: deposit ? use.bookingId : null,
    serviceDate: deposit?.serviceDate ?? isoDayInParis(use.at),
    seller: issuer,
    buyer: deposit?.buyer ?? {
      name: voucher.recipientName,
      email: voucher.recipientEmail ?? "",
      address: null,
    },
    lines: [
      {
        label: deposit
          ? `${deposit.label} (réglé par le bon cadeau ${code})`
          : `Prestations photographiques réglées par le bon cadeau ${code}`,
        quantity: 1,
        unitPriceCents: use.amountCents,
        vatRate: VOUCHER_USE_VAT_RATE,
      },
    ],
    paymentTerms: `Réglée par le bon cadeau ${code} le ${formatDateFr(use.at)} (bon à usages multiples : TVA due à son utilisation).`,
  });
}

/**
 * The deposit of a booking an amount voucher paid (decision 0199), as its invoice names it: « Arrhes :
 * Séance Portrait du samedi 12 décembre 2026 à 14 h 30 », the session's day and the client who booked;
 * null for a booking without the rules of a deposit (a session voucher's, which is not invoiced here).
 */
async function depositPaidBy(tx: Executor, bookingId: string) {
  const [row] = await tx
    .select({ booking: bookings, typeName: sessionTypes.name })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .where(eq(bookings.id, bookingId));
  const rules = row?.booking.depositRules;
  if (!row || !rules) return null;
  const { booking } = row;
  return {
    label: `${DEPOSIT_NATURE_LABELS[rules.nature]} : ${row.typeName} du ${instantLabelFr(booking.startsAt)}`,
    serviceDate: isoDayInParis(booking.startsAt),
    buyer: { name: booking.clientName, email: booking.clientEmail, address: null },
  };
}

/**
 * A use given back (its booking cancelled in time, decision 0199): the credit note of its invoice, for
 * all of it, in `tx`; null when the use had none (franchise, single-purpose) or it was credited already.
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
  const [credited] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.creditedInvoiceId, invoice.id));
  if (credited) return null;
  const seller = (await sellerForInvoices(tx)) ?? invoice.seller;
  const at = use.cancelledAt ?? new Date();
  return issueInvoice(tx, {
    kind: "credit_note",
    bookingId: invoice.bookingId,
    creditedInvoiceId: invoice.id,
    serviceDate: invoice.serviceDate,
    seller: creditNoteSeller(seller, invoice.seller),
    buyer: invoice.buyer,
    ...creditNoteOf(
      standingByRate(invoice.vatBreakdown, []),
      invoice.ttcCents,
      `Somme rendue sur le bon cadeau — facture ${invoice.number}`,
    ),
    paymentTerms: `Rendue sur le bon cadeau le ${formatDateFr(at)}.`,
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
 * The held-back invoice of the use that paid a booking's deposit (decision 0199), issued in `tx` before
 * the booking's final invoice deducts it, so that it comes first in the numbers; null when none is held.
 */
export async function issueHeldUseInvoiceOfBooking(
  tx: Executor,
  bookingId: string,
): Promise<InvoiceRecord | null> {
  const held = await lockHeldUse(tx, eq(voucherUses.bookingId, bookingId));
  return held ? invoiceVoucherUse(tx, held.voucher, held.use) : null;
}

/**
 * The uses whose invoice the seller's incomplete identity held back, invoiced now in the order they were
 * made, each in its own transaction with its row locked; stops while the identity is still incomplete.
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
    const outcome = await db().transaction(async (tx) => {
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
