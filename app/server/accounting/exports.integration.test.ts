import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { isoDayInParis } from "~/lib/dates";
import { formatVoucherCode, generateVoucherCode } from "~/lib/vouchers/code";
import { parseAccountingCsv as parse } from "../../../tests/support/accounting-csv";
import { useAppDatabase } from "../../../tests/support/database";
import { subjectToVat } from "../../../tests/support/seller";
import { placeCardOrder, placeOrder, usePaymentsInMemory } from "../../../tests/support/payments";
import { setClockForTests } from "../clock.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { vouchers, voucherUses } from "../db/schema";
import { applyPaymentStatus } from "../payments/apply-payment.server";
import { refundHeldPayment } from "../payments/held-payments.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";
import { extendVoucher } from "../vouchers/lifecycle.server";
import { lowerVoucherBalance } from "../vouchers/order-kind.server";
import {
  paymentsReceived,
  receiptsBook,
  salesJournal,
  vouchersOutstanding,
} from "./exports.server";

// The accountant's files (decision 0182) on a real PostgreSQL: each file's amount column, read back from
// the CSV as a spreadsheet would, sums to what the money journal and the invoices hold for the period.

useAppDatabase({ jobs: true });
usePaymentsInMemory();
afterEach(() => setClockForTests(null));

const today = isoDayInParis(new Date());
const period = { from: today, to: today };

/** The sum of a column of French decimal amounts, in cents. */
const columnCents = (rows: string[][], header: string) => {
  const index = rows[0]?.indexOf(header) ?? -1;
  expect(index).toBeGreaterThanOrEqual(0);
  return rows
    .slice(1)
    .reduce(
      (total, row) => total + Math.round(Number((row[index] ?? "").replace(",", ".")) * 100),
      0,
    );
};

/** An amount voucher of `valueCents`, issued at `issuedAt`, valid until `expiresOn`. */
async function insert(valueCents: number, issuedAt: Date, expiresOn: string) {
  const order = await placeOrder("studio", valueCents);
  const [voucher] = await db()
    .insert(vouchers)
    .values({
      orderId: order.orderId,
      code: generateVoucherCode(),
      kind: "amount",
      label: `${valueCents / 100} €`,
      valueCents,
      balanceCents: valueCents,
      status: "active",
      recipientName: "Léa",
      buyerName: "Zoé",
      sendTo: "buyer",
      vatMode: "multi",
      issuedAt,
      expiresOn,
    })
    .returning();
  if (!voucher) throw new Error("no voucher");
  return voucher;
}

describe("the accountant's files", () => {
  it("sum to the money journal and the invoices of the period", async () => {
    await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
    const paid = [];
    for (const [cents, means, vatRate] of [
      [12_000, "cash", 2000],
      [7_550, "cheque", null],
      [30_001, "transfer", 2000],
    ] as const) {
      const order = await placeOrder("studio", cents, {
        lines: [{ label: `Bon cadeau ${cents}`, quantity: 1, unitPriceCents: cents, vatRate }],
      });
      await markPaidOffline(order.orderId, means);
      paid.push(order.orderId);
    }
    const refund = await requestRefund(paid[0] ?? "", 2_500, "Geste commercial");
    await markRefundedOffline(refund.id);

    const journal = await db().execute<{ total: number; count: number }>(sql`
      select coalesce(sum(amount_cents), 0)::int as total, count(*)::int as count from money_journal
      where kind in ('payment', 'refund') and (at at time zone 'Europe/Paris')::date = ${today}::date`);
    const invoiced = await db().execute<{ total: number }>(sql`
      select coalesce(sum(ttc_cents), 0)::int as total from invoices
      where (issued_at at time zone 'Europe/Paris')::date = ${today}::date`);
    const journalTotal = journal.rows[0]?.total ?? Number.NaN;
    expect(journalTotal).toBe(12_000 + 7_550 + 30_001 - 2_500);

    const book = await receiptsBook(period);
    const bookRows = parse(book.csv);
    expect(bookRows[0]).toEqual([
      "Date",
      "Pièce",
      "Client",
      "Nature",
      "Montant TTC (€)",
      "Mode de règlement",
      "Référence",
    ]);
    expect(bookRows).toHaveLength((journal.rows[0]?.count ?? 0) + 1);
    expect(columnCents(bookRows, "Montant TTC (€)")).toBe(journalTotal);
    expect(book.totalCents).toBe(journalTotal);
    // Each receipt names its invoice, each refund its credit note.
    expect(bookRows.slice(1).map((row) => row[1]?.slice(0, 2))).toEqual(["F-", "F-", "F-", "A-"]);
    expect(bookRows.at(-1)?.[3]).toBe("Remboursement — Bon cadeau 12000");

    const received = parse((await paymentsReceived(period)).csv);
    expect(columnCents(received, "Montant (€)")).toBe(journalTotal);

    const sales = await salesJournal(period);
    const salesRows = parse(sales.csv);
    expect(columnCents(salesRows, "Montant TTC (€)")).toBe(invoiced.rows[0]?.total);
    expect(columnCents(salesRows, "Montant TTC (€)")).toBe(
      columnCents(salesRows, "Montant HT (€)") + columnCents(salesRows, "TVA (€)"),
    );
    // The 120 € at 20 %: 100 € HT, 20 € TVA; its credit note of 25 € at the same rate.
    expect(salesRows).toContainEqual([
      expect.any(String),
      expect.stringMatching(/^F-/),
      "Facture",
      "Camille Martin",
      "20 %",
      "100,00",
      "20,00",
      "120,00",
      "",
    ]);
    expect(salesRows.find((row) => row[2] === "Avoir")?.slice(4)).toEqual([
      "20 %",
      "-20,83",
      "-4,17",
      "-25,00",
      expect.stringMatching(/^F-/),
    ]);
  });

  it("put each payment and refund in the month of its Paris day, a refund after its month's invoice", async () => {
    await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
    const paidAt = async (iso: string, cents: number) => {
      setClockForTests(new Date(iso));
      const order = await placeOrder("studio", cents, {
        lines: [{ label: `Séance ${cents}`, quantity: 1, unitPriceCents: cents, vatRate: 2000 }],
      });
      await markPaidOffline(order.orderId, "cash");
      return order.orderId;
    };
    // 31 December at 23:30 UTC, New Year's Day in Paris; 31 January at 23:59 in Paris; 31 January at
    // 23:30 UTC, 1 February in Paris.
    await paidAt("2031-12-31T23:30:00Z", 4_000);
    const january = await paidAt("2032-01-31T22:59:00Z", 1_000);
    await paidAt("2032-01-31T23:30:00Z", 2_000);
    // 4 € of January's 10 € given back in February.
    setClockForTests(new Date("2032-02-10T10:00:00Z"));
    await markRefundedOffline((await requestRefund(january, 400, "Geste commercial")).id);

    const files = async (from: string, to: string) => {
      const period = { from, to };
      const [book, sales, received] = await Promise.all([
        receiptsBook(period),
        salesJournal(period),
        paymentsReceived(period),
      ]);
      return {
        book: parse(book.csv)
          .slice(1)
          .map((row) => [row[0], row[1]?.slice(0, 1), row[4]]),
        sales: parse(sales.csv)
          .slice(1)
          .map((row) => [row[0], row[2], row[7], row[8]?.slice(0, 1) ?? ""]),
        totals: [book.totalCents, sales.totalCents, received.totalCents],
      };
    };
    expect(await files("2031-12-01", "2031-12-31")).toEqual({
      book: [],
      sales: [],
      totals: [0, 0, 0],
    });
    expect(await files("2032-01-01", "2032-01-31")).toEqual({
      book: [
        ["01/01/2032", "F", "40,00"],
        ["31/01/2032", "F", "10,00"],
      ],
      sales: [
        ["01/01/2032", "Facture", "40,00", ""],
        ["31/01/2032", "Facture", "10,00", ""],
      ],
      totals: [5_000, 5_000, 5_000],
    });
    expect(await files("2032-02-01", "2032-02-29")).toEqual({
      book: [
        ["01/02/2032", "F", "20,00"],
        ["10/02/2032", "A", "-4,00"],
      ],
      sales: [
        ["01/02/2032", "Facture", "20,00", ""],
        ["10/02/2032", "Avoir", "-4,00", "F"],
      ],
      totals: [1_600, 1_600, 1_600],
    });
  });

  it("leave a payment in another currency, given back, out of the euro columns, saying its currency", async () => {
    setClockForTests(new Date("2031-05-12T10:00:00Z"));
    const day = { from: "2031-05-12", to: "2031-05-12" };
    const cash = await placeOrder("studio", 5_000);
    await markPaidOffline(cash.orderId, "cash");
    // 200 US dollars reported for a 150 € order: held (decision 0172), then given back whole.
    const placed = await placeCardOrder(15_000);
    const held = await applyPaymentStatus({
      provider: "stripe",
      providerReference: placed.reference,
      status: "succeeded",
      amountCents: 20_000,
      currency: "usd",
      paymentReference: `pi_${placed.reference}`,
      source: "webhook",
    });
    expect(held.outcome).toBe("held");
    await refundHeldPayment(placed.orderId, placed.attemptId, "Devise erronée");

    // The journal says the dollars' currency on both of their rows; its euros are the 50 € alone.
    const journal = await db().execute<{ currency: string | null; cents: number }>(sql`
      select details->>'currency' as currency, amount_cents::int as cents from money_journal
      where kind in ('payment', 'refund') and (at at time zone 'Europe/Paris')::date = ${day.from}::date
      order by seq`);
    expect(journal.rows).toEqual([
      { currency: null, cents: 5_000 },
      { currency: "USD", cents: 20_000 },
      { currency: "USD", cents: -20_000 },
    ]);
    const euros = 5_000;

    const book = await receiptsBook(day);
    const bookRows = parse(book.csv);
    expect(bookRows.slice(1).map((row) => [row[3], row[4]])).toEqual([
      ["Bon cadeau séance portrait", "50,00"],
      ["Bon cadeau séance portrait (200,00 USD, non converti en euros)", ""],
      ["Remboursement — Bon cadeau séance portrait (200,00 USD, non converti en euros)", ""],
    ]);
    expect(columnCents(bookRows, "Montant TTC (€)")).toBe(euros);
    expect(book.totalCents).toBe(euros);

    const received = await paymentsReceived(day);
    const receivedRows = parse(received.csv);
    expect(receivedRows.slice(1).map((row) => [row[2], row[4]])).toEqual([
      ["Encaissement", "50,00"],
      ["Encaissement (200,00 USD, non converti en euros)", ""],
      ["Remboursement (200,00 USD, non converti en euros)", ""],
    ]);
    expect(columnCents(receivedRows, "Montant (€)")).toBe(euros);
    expect(received.totalCents).toBe(euros);
  });

  it("give a transfer's reference only to money that came or went by that transfer", async () => {
    setClockForTests(new Date("2031-06-03T10:00:00Z"));
    const day = { from: "2031-06-03", to: "2031-06-03" };
    // Ordered to be paid by transfer, then paid in cash at the studio; another paid by its transfer.
    const inCash = await placeOrder("transfer", 4_000);
    await markPaidOffline(inCash.orderId, "cash");
    const byTransfer = await placeOrder("transfer", 6_000);
    await markPaidOffline(byTransfer.orderId, "transfer");
    const references = await db().execute<{ reference: string }>(sql`
      select transfer_reference as reference from orders
      where id in (${inCash.orderId}, ${byTransfer.orderId}) order by amount_cents`);
    const [cashOrderReference, transferReference] = references.rows.map((row) => row.reference);
    expect(cashOrderReference).toMatch(/^[A-Z]{2}-/);

    const received = parse((await paymentsReceived(day)).csv);
    expect(received.slice(1).map((row) => [row[5], row[7]])).toEqual([
      ["Espèces", ""],
      ["Virement", transferReference],
    ]);
    const book = parse((await receiptsBook(day)).csv);
    expect(book.slice(1).map((row) => [row[5], row[6]])).toEqual([
      ["Espèces", ""],
      ["Virement", transferReference],
    ]);
  });

  it("keep a transfer's incoming reference off the refund of the money it brought", async () => {
    setClockForTests(new Date("2031-07-03T10:00:00Z"));
    const day = { from: "2031-07-03", to: "2031-07-03" };
    const order = await placeOrder("transfer", 6_000);
    await markPaidOffline(order.orderId, "transfer");
    // 20 € of it given back by the owner, by a transfer from her bank.
    await markRefundedOffline((await requestRefund(order.orderId, 2_000, "Geste commercial")).id);
    const [reference] = (
      await db().execute<{ reference: string }>(
        sql`select transfer_reference as reference from orders where id = ${order.orderId}`,
      )
    ).rows.map((row) => row.reference);
    expect(reference).toMatch(/^[A-Z]{2}-/);

    const received = parse((await paymentsReceived(day)).csv);
    expect(received.slice(1).map((row) => [row[2], row[4], row[5], row[7]])).toEqual([
      ["Encaissement", "60,00", "Virement", reference],
      ["Remboursement", "-20,00", "Virement", ""],
    ]);
    const book = parse((await receiptsBook(day)).csv);
    expect(book.slice(1).map((row) => [row[4], row[5], row[6]])).toEqual([
      ["60,00", "Virement", reference],
      ["-20,00", "Virement", ""],
    ]);
  });

  it("never write the same time for two payments an hour apart on the autumn change's night", async () => {
    const night = { from: "2031-10-26", to: "2031-10-26" };
    // 02:30 in Paris twice: in summer time (00:30 UTC), then an hour later in winter time (01:30 UTC).
    for (const at of ["2031-10-26T00:30:00Z", "2031-10-26T01:30:00Z", "2031-10-26T09:15:00Z"]) {
      setClockForTests(new Date(at));
      await markPaidOffline((await placeOrder("studio", 1_000)).orderId, "cash");
    }
    const received = parse((await paymentsReceived(night)).csv);
    expect(received[0]?.[1]).toBe("Date et heure (Paris)");
    expect(received.slice(1).map((row) => row[1])).toEqual([
      "26/10/2031 02:30 (UTC+2)",
      "26/10/2031 02:30 (UTC+1)",
      "26/10/2031 10:15",
    ]);
  });

  it("lists the vouchers still to honour at a day, with what was left of each then", async () => {
    const partly = await insert(10_000, new Date("2026-03-01T10:00:00Z"), "2027-03-01");
    await db()
      .insert(voucherUses)
      .values([
        {
          voucherId: partly.id,
          amountCents: 3_000,
          by: "owner",
          at: new Date("2026-04-10T10:00:00Z"),
        },
        {
          voucherId: partly.id,
          amountCents: 2_000,
          by: "owner",
          at: new Date("2026-06-10T10:00:00Z"),
        },
      ]);
    await insert(5_000, new Date("2026-05-01T10:00:00Z"), "2026-05-31");
    const cancelled = await insert(8_000, new Date("2026-02-01T10:00:00Z"), "2027-02-01");
    await db()
      .update(vouchers)
      .set({ status: "cancelled", cancelledAt: new Date("2026-05-15T10:00:00Z") })
      .where(eq(vouchers.id, cancelled.id));

    const atMay = parse((await vouchersOutstanding("2026-05-10")).csv);
    expect(atMay.slice(1).map((row) => [row[1], row[5], row[6]])).toEqual([
      ["Montant", "80,00", "80,00"],
      ["Montant", "100,00", "70,00"],
      ["Montant", "50,00", "50,00"],
    ]);
    expect(atMay[0]?.[6]).toBe("Reste à honorer au 10/05/2026 (€)");
    // In July: the second use taken off, the 50 € voucher past its day, the 80 € one cancelled.
    const atJuly = await vouchersOutstanding("2026-07-01");
    expect(
      parse(atJuly.csv)
        .slice(1)
        .map((row) => row[6]),
    ).toEqual(["50,00"]);
    expect(atJuly.totalCents).toBe(5_000);
    // Before any was issued: nothing.
    expect((await vouchersOutstanding("2026-01-15")).rows).toBe(0);
  });

  it("counts a part of a voucher's order refunded from the day of its refund", async () => {
    const lowered = await insert(10_000, new Date("2026-03-01T10:00:00Z"), "2027-03-01");
    const code = formatVoucherCode(lowered.code ?? "");
    const leftAt = async (day: string) =>
      parse((await vouchersOutstanding(day)).csv).find((row) => row[0] === code)?.[6];
    // 60 € of its 100 € given back on 20 April, late in the evening in Paris.
    setClockForTests(new Date("2026-04-20T21:30:00Z"));
    await db().transaction((tx) =>
      lowerVoucherBalance(tx, lowered.orderId, { refundId: randomUUID(), takenCents: 6_000 }),
    );
    expect(await leftAt("2026-04-19")).toBe("100,00");
    expect(await leftAt("2026-04-20")).toBe("40,00");
  });

  it("keeps a past day's vouchers to honour as they were when a voucher is extended later", async () => {
    // A voucher of 100 € that expired on 31 January, extended on 15 April (back to life), and one of
    // 60 € extended three times, once on the very day asked, late in its evening.
    const revived = await insert(10_000, new Date("2025-12-01T10:00:00Z"), "2026-01-31");
    const thrice = await insert(6_000, new Date("2026-02-01T10:00:00Z"), "2026-04-30");
    const codes = [revived.code, thrice.code].map((code) => formatVoucherCode(code ?? ""));
    /** The file at `day`, made now, and its rows of these two vouchers: code, last day, left. */
    const files = new Map<string, string>();
    const fileAt = async (day: string) => {
      const { csv } = await vouchersOutstanding(day);
      if (!files.has(day)) files.set(day, csv);
      return parse(csv)
        .filter((row) => codes.includes(row[0] ?? ""))
        .map((row) => [codes.indexOf(row[0] ?? ""), row[4], row[6]]);
    };
    const extend = async (at: string, voucherId: string, day: string) => {
      setClockForTests(new Date(at));
      await extendVoucher(voucherId, day);
    };

    expect(await fileAt("2026-01-15")).toEqual([[0, "31/01/2026", "100,00"]]);
    expect(await fileAt("2026-03-31")).toEqual([[1, "30/04/2026", "60,00"]]);
    await extend("2026-04-15T10:00:00Z", revived.id, "2027-06-30");
    await extend("2026-04-20T10:00:00Z", thrice.id, "2026-06-30");
    expect(await fileAt("2026-04-30")).toEqual([
      [0, "30/06/2027", "100,00"],
      [1, "30/06/2026", "60,00"],
    ]);
    // 30 June, 23:30 in Paris: the end of that day is what counts.
    await extend("2026-06-30T21:30:00Z", thrice.id, "2026-12-31");
    expect(await fileAt("2026-06-30")).toEqual([
      [0, "30/06/2027", "100,00"],
      [1, "31/12/2026", "60,00"],
    ]);
    await extend("2026-12-01T10:00:00Z", thrice.id, "2027-03-31");
    expect(await fileAt("2026-12-31")).toEqual([
      [0, "30/06/2027", "100,00"],
      [1, "31/03/2027", "60,00"],
    ]);

    // Made again after every extension, each file is the one made at its time, to the byte.
    for (const [day, csv] of files) {
      expect.soft((await vouchersOutstanding(day)).csv, day).toBe(csv);
    }
    // In the gap: the 100 € voucher was not owed between its old last day and its extension.
    expect(await fileAt("2026-04-14")).toEqual([[1, "30/04/2026", "60,00"]]);
    expect(await fileAt("2026-04-15")).toEqual([
      [0, "30/06/2027", "100,00"],
      [1, "30/04/2026", "60,00"],
    ]);
  });
});
