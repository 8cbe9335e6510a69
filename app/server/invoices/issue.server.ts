import { and, desc, eq, sql } from "drizzle-orm";
import { isoDayInParis } from "~/lib/dates";
import {
  invoiceNumber,
  invoiceTotals,
  seriesOf,
  standingByRate,
  type InvoiceBuyer,
  type InvoiceKind,
  type InvoiceLineInput,
  type InvoiceSeller,
  type InvoiceSeries,
  type InvoiceTotals,
} from "~/lib/invoices/model";
import { now } from "../clock.server";
import { invoiceCounters, invoices } from "../db/schema";
import type { Executor } from "../jobs/queue.server";

export type InvoiceRecord = typeof invoices.$inferSelect;

/** What an invoice is issued from; its number, year and totals are the issue's own work. */
export type InvoiceDraft = {
  kind: InvoiceKind;
  orderId?: string | null;
  refundId?: string | null;
  bookingId?: string | null;
  /** The use of a multi-purpose voucher a `voucher_use` invoice bills (required for one, refused else). */
  voucherUseId?: string | null;
  /** A credit note's invoice (required for one, refused for any other kind by the table). */
  creditedInvoiceId?: string | null;
  serviceDate?: string | null;
  seller: InvoiceSeller;
  buyer: InvoiceBuyer;
  /** TTC prices; a credit note's are negative (it gives back). */
  lines: readonly InvoiceLineInput[];
  /**
   * Its shares by rate when not rounded from its lines: a credit note closing a rate gives back what
   * stands of its HT (creditNoteOf). Each rate's TTC must be its lines'.
   */
  totals?: InvoiceTotals;
  paymentTerms: string;
};

/** The first key of the series' advisory locks: no other lock of the site uses it. */
const INVOICE_SERIES_LOCK_SPACE = 0x0f_ac_01;

/**
 * The series' locks in the one order every transaction takes them (decision 0177, amended 2026-12-02):
 * the invoices' `F`, then the credit notes' `A`. A credit note takes `F` first, so that a transaction that
 * issues both, in either order, never holds `A` while it waits for `F`: two of them in opposite orders
 * (an invoice then a credit note, a credit note then an invoice) would otherwise each hold what the other
 * waits for, and PostgreSQL would abort one (40P01), losing its payment or its refund.
 */
const SERIES_LOCK_ORDER: readonly InvoiceSeries[] = ["F", "A"];

/** The series whose locks an issue in `series` takes, in SERIES_LOCK_ORDER: it and those before it. */
const seriesLocksFor = (series: InvoiceSeries): InvoiceSeries[] =>
  SERIES_LOCK_ORDER.slice(0, SERIES_LOCK_ORDER.indexOf(series) + 1);

/**
 * Issues an invoice or a credit note in the caller's transaction (decision 0177): its number is the next of
 * its series and Paris year, taken from the counter row by an upsert that holds the row's lock until the
 * transaction ends, so two issues never share a number and a transaction rolled back gives its number back
 * (PostgreSQL's sequences would leave a gap). Its time is read once the series' lock is held (until the
 * transaction ends), and never before the series' last invoice: a later number never bears an earlier date.
 * The row is immutable from then on.
 */
export async function issueInvoice(tx: Executor, draft: InvoiceDraft): Promise<InvoiceRecord> {
  if (draft.lines.length === 0) throw new Error("issueInvoice: an invoice has at least one line");
  // An invoice bills and a credit note gives back: a line may be negative (a final invoice deducts its
  // deposit's invoice), never the document's total.
  const fromLines = invoiceTotals(draft.lines);
  const totals = draft.totals ?? fromLines;
  const ttcByRate = (shares: InvoiceTotals["byRate"]) =>
    JSON.stringify(shares.map((share) => [share.vatRate, share.ttcCents]));
  if (ttcByRate(totals.byRate) !== ttcByRate(fromLines.byRate)) {
    throw new Error("issueInvoice: its shares by rate are not its lines'");
  }
  if (draft.kind === "credit_note" ? totals.ttcCents >= 0 : totals.ttcCents <= 0) {
    throw new Error(`issueInvoice: a ${draft.kind} of ${totals.ttcCents} cents in all`);
  }
  const series = seriesOf(draft.kind);
  // The series first, then the time (decision 0177, amended 2026-12-01): an issue read its time before
  // waiting for the counter, and one that read it later but got the counter first took the lower number
  // with the later date; across 31 December it even numbered in the old year after the new one began.
  for (const each of seriesLocksFor(series)) {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${INVOICE_SERIES_LOCK_SPACE}::int, ascii(${each}))`,
    );
  }
  // Never before the invoice a credit note corrects, nor before the series' last invoice of the year,
  // should this server's clock step back or be behind the other server's.
  const earliest = async (query: Promise<{ issuedAt: Date }[]>, time: Date) => {
    const [row] = await query;
    return row && row.issuedAt > time ? row.issuedAt : time;
  };
  const read = draft.creditedInvoiceId
    ? await earliest(
        tx
          .select({ issuedAt: invoices.issuedAt })
          .from(invoices)
          .where(eq(invoices.id, draft.creditedInvoiceId)),
        now(),
      )
    : now();
  const year = Number(isoDayInParis(read).slice(0, 4));
  const issuedAt = await earliest(
    tx
      .select({ issuedAt: invoices.issuedAt })
      .from(invoices)
      .where(and(eq(invoices.series, series), eq(invoices.year, year)))
      .orderBy(desc(invoices.sequence))
      .limit(1),
    read,
  );
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ series, year, last: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.series, invoiceCounters.year],
      set: { last: sql`${invoiceCounters.last} + 1` },
    })
    .returning({ last: invoiceCounters.last });
  if (!counter) throw new Error("issueInvoice: no counter row");
  const [invoice] = await tx
    .insert(invoices)
    .values({
      series,
      year,
      sequence: counter.last,
      number: invoiceNumber(series, year, counter.last),
      kind: draft.kind,
      orderId: draft.orderId ?? null,
      refundId: draft.refundId ?? null,
      bookingId: draft.bookingId ?? null,
      voucherUseId: draft.voucherUseId ?? null,
      creditedInvoiceId: draft.creditedInvoiceId ?? null,
      issuedAt,
      serviceDate: draft.serviceDate ?? null,
      seller: draft.seller,
      buyer: draft.buyer,
      lines: [...draft.lines],
      htCents: totals.htCents,
      vatCents: totals.vatCents,
      ttcCents: totals.ttcCents,
      vatBreakdown: totals.byRate,
      paymentTerms: draft.paymentTerms,
    })
    .returning();
  if (!invoice) throw new Error("issueInvoice: no row inserted");
  return invoice;
}

/** An invoice by its id, or null. */
export async function invoiceById(tx: Executor, id: string): Promise<InvoiceRecord | null> {
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id));
  return invoice ?? null;
}

/** What stands of an invoice at each TVA rate once the credit notes referring to it are counted. */
export async function standingOf(tx: Executor, invoice: InvoiceRecord) {
  const notes = await tx
    .select({ byRate: invoices.vatBreakdown })
    .from(invoices)
    .where(eq(invoices.creditedInvoiceId, invoice.id));
  return standingByRate(
    invoice.vatBreakdown,
    notes.map((note) => note.byRate),
  );
}
