import { asc, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { lockWaiters, useAppDatabase } from "../../../tests/support/database";
import type { InvoiceKind } from "~/lib/invoices/model";
import { invoiceSellerForTests } from "../../../tests/support/seller";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { invoices } from "../db/schema";
import { issueInvoice, type InvoiceDraft, type InvoiceRecord } from "./issue.server";

// Invoices on a real PostgreSQL (decision 0177): numbered 1..N in each series and year under concurrency,
// whatever transactions roll back, and immutable once issued.

useAppDatabase();

afterEach(() => setClockForTests(null));

const seller = invoiceSellerForTests;

const draft = (kind: InvoiceKind, extra: Partial<InvoiceDraft> = {}): InvoiceDraft => ({
  kind,
  seller,
  buyer: { name: "Léa Martin", email: "lea@example.test", address: null },
  lines: [
    {
      label: kind === "credit_note" ? "Remboursement de l'acompte" : "Acompte séance portrait",
      quantity: 1,
      unitPriceCents: kind === "credit_note" ? -3_000 : 3_000,
      vatRate: null,
    },
  ],
  paymentTerms: "Payé par carte",
  ...extra,
});

/** The sequences issued in `series` and `year`, in order. */
async function sequences(series: "F" | "A", year: number): Promise<number[]> {
  const rows = await db()
    .select({ sequence: invoices.sequence })
    .from(invoices)
    .where(sql`${invoices.series} = ${series} and ${invoices.year} = ${year}`)
    .orderBy(asc(invoices.sequence));
  return rows.map((row) => row.sequence);
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

class ForcedRollback extends Error {}

describe("issuing invoices", () => {
  it("numbers 50 invoices issued at once 1..N in each series, none lost to the transactions rolled back", async () => {
    setClockForTests(new Date("2031-03-10T10:00:00Z"));
    const first = await db().transaction((tx) => issueInvoice(tx, draft("deposit")));
    expect(first.number).toBe("F-2031-000001");

    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        db().transaction(async (tx) => {
          const kind: InvoiceKind = index % 5 === 0 ? "credit_note" : "deposit";
          const invoice = await issueInvoice(
            tx,
            draft(kind, kind === "credit_note" ? { creditedInvoiceId: first.id } : {}),
          );
          // One transaction in three fails after taking its number: the number must come back.
          if (index % 3 === 1) throw new ForcedRollback(invoice.number);
          return invoice;
        }),
      ),
    );
    const committed = outcomes.flatMap((outcome) =>
      outcome.status === "fulfilled" ? [outcome.value] : [],
    );
    const rolledBack = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(rolledBack).toHaveLength(17);
    for (const outcome of rolledBack) {
      expect(outcome.status === "rejected" && outcome.reason).toBeInstanceOf(ForcedRollback);
    }
    const committedCredit = committed.filter((invoice) => invoice.kind === "credit_note").length;
    expect(await sequences("F", 2031)).toEqual(range(1 + committed.length - committedCredit));
    expect(await sequences("A", 2031)).toEqual(range(committedCredit));
    expect(new Set(committed.map((invoice) => invoice.number)).size).toBe(committed.length);
    for (const invoice of committed) {
      expect(invoice.number).toBe(
        `${invoice.series}-2031-${String(invoice.sequence).padStart(6, "0")}`,
      );
    }
  });

  it("starts each Paris year again at 1: the last night of December in Paris is already next year", async () => {
    setClockForTests(new Date("2032-12-31T22:59:00Z"));
    const december = await db().transaction((tx) => issueInvoice(tx, draft("sale")));
    setClockForTests(new Date("2032-12-31T23:01:00Z"));
    const january = await db().transaction((tx) => issueInvoice(tx, draft("sale")));
    expect([december.number, january.number]).toEqual(["F-2032-000001", "F-2033-000001"]);
  });

  /**
   * A transaction holding the series (it issued `before`'s invoice) while another issue, started at
   * `waiterStarts`, waits behind it; the clock then turns to `holderIssuesAgain`, when the holder issues a
   * second invoice and commits. No timing: the waiter is seen waiting on its lock in pg_stat_activity.
   */
  async function issueWhileOneWaits(times: {
    before: string;
    waiterStarts: string;
    holderIssuesAgain: string;
  }) {
    setClockForTests(new Date(times.before));
    const [held, waiting] = await db().transaction(async (tx) => {
      const first = await issueInvoice(tx, draft("sale"));
      setClockForTests(new Date(times.waiterStarts));
      const waiter = db().transaction((other) => issueInvoice(other, draft("sale")));
      await expect.poll(() => lockWaiters(tx)).toBe(1);
      setClockForTests(new Date(times.holderIssuesAgain));
      const second = await issueInvoice(tx, draft("sale"));
      return [[first, second], waiter] as const;
    });
    return [...held, await waiting];
  }

  it("never dates a later number earlier: an issue that waited for the series reads its time once it has it", async () => {
    // 1 December 23:59:59.999 in Paris when the waiter starts; 2 December when the holder issues again.
    const issued = await issueWhileOneWaits({
      before: "2037-12-01T22:59:59.000Z",
      waiterStarts: "2037-12-01T22:59:59.999Z",
      holderIssuesAgain: "2037-12-01T23:00:00.001Z",
    });
    expect(issued.map((invoice) => invoice.number)).toEqual([
      "F-2037-000001",
      "F-2037-000002",
      "F-2037-000003",
    ]);
    const dates = issued.map((invoice) => invoice.issuedAt.toISOString());
    expect(dates).toEqual([...dates].sort());
    expect(dates[2]).toBe("2037-12-01T23:00:00.001Z");
  });

  it("numbers in the new year an issue that waited across midnight of 31 December in Paris", async () => {
    const issued = await issueWhileOneWaits({
      before: "2038-12-31T22:59:59.000Z",
      waiterStarts: "2038-12-31T22:59:59.999Z",
      holderIssuesAgain: "2038-12-31T23:00:00.001Z",
    });
    // Not F-2038-000002, dated 31 December, once 2039's first invoice was issued.
    expect(issued.map((invoice) => invoice.number)).toEqual([
      "F-2038-000001",
      "F-2039-000001",
      "F-2039-000002",
    ]);
    expect(issued[2]?.issuedAt.toISOString()).toBe("2038-12-31T23:00:00.001Z");
  });

  it("never issues before the series' last invoice or the invoice credited, should the clock step back", async () => {
    setClockForTests(new Date("2040-06-10T10:00:00.000Z"));
    const later = await db().transaction((tx) => issueInvoice(tx, draft("sale")));
    setClockForTests(new Date("2040-06-10T09:59:58.000Z"));
    const next = await db().transaction((tx) => issueInvoice(tx, draft("sale")));
    expect(next.number).toBe("F-2040-000002");
    expect(next.issuedAt).toEqual(later.issuedAt);
    // Nor a credit note before the invoice it corrects (the other series' clock).
    setClockForTests(new Date("2040-06-10T09:59:00.000Z"));
    const note = await db().transaction((tx) =>
      issueInvoice(tx, draft("credit_note", { creditedInvoiceId: later.id })),
    );
    expect([note.number, note.issuedAt]).toEqual(["A-2040-000001", later.issuedAt]);
  });

  it("takes the two series in one order: an invoice then a credit note, and a credit note then an invoice, at once, both commit", async () => {
    setClockForTests(new Date("2041-04-02T10:00:00.000Z"));
    const credited = await db().transaction((tx) => issueInvoice(tx, draft("sale")));
    const note = () => draft("credit_note", { creditedInvoiceId: credited.id });
    let reverseNoteIssued = false;
    const reverse: Promise<InvoiceRecord[]>[] = [];
    const forward = db().transaction(async (tx) => {
      const invoice = await issueInvoice(tx, draft("sale"));
      // The other way round at once: a credit note first, then an invoice.
      const other = db().transaction(async (otherTx) => {
        const first = await issueInvoice(otherTx, note());
        reverseNoteIssued = true;
        return [first, await issueInvoice(otherTx, draft("sale"))];
      });
      other.catch(() => undefined); // Its outcome is read below, once this one ends.
      reverse.push(other);
      // It holds its credit note's series, or waits for a lock this transaction holds.
      await expect.poll(async () => reverseNoteIssued || (await lockWaiters(tx)) === 1).toBe(true);
      return [invoice, await issueInvoice(tx, note())];
    });
    const outcomes = [
      ...(await Promise.allSettled([forward])),
      ...(await Promise.allSettled(reverse)),
    ];
    // PostgreSQL broke a deadlock (40P01) by aborting one: a payment or a refund lost.
    const failures = outcomes.flatMap((outcome) =>
      outcome.status === "rejected"
        ? [String((outcome.reason as { cause?: { code?: string } }).cause?.code ?? outcome.reason)]
        : [],
    );
    expect(failures).toEqual([]);
    const numbers = outcomes.map((outcome) =>
      outcome.status === "fulfilled" ? outcome.value.map((issued) => issued.number) : [],
    );
    expect(numbers).toEqual([
      ["F-2041-000002", "A-2041-000001"],
      ["A-2041-000002", "F-2041-000003"],
    ]);
  });

  it("keeps its totals, seller and buyer as issued, and refuses UPDATE, DELETE and TRUNCATE", async () => {
    setClockForTests(new Date("2034-05-02T08:00:00Z"));
    const invoice = await db().transaction((tx) =>
      issueInvoice(
        tx,
        draft("sale", {
          lines: [
            { label: "Séance portrait", quantity: 1, unitPriceCents: 15_000, vatRate: 2000 },
            { label: "Tirage 20×30 « été »", quantity: 3, unitPriceCents: 999, vatRate: 2000 },
          ],
        }),
      ),
    );
    expect(invoice).toMatchObject({
      htCents: 14_998,
      vatCents: 2_999,
      ttcCents: 17_997,
      seller,
      buyer: { name: "Léa Martin" },
    });
    for (const statement of [
      sql`update invoices set ttc_cents = 1 where id = ${invoice.id}`,
      sql`update invoices set buyer = '{}' where false`,
      sql`delete from invoices where id = ${invoice.id}`,
      sql`truncate invoices cascade`,
    ]) {
      await expect(db().execute(statement)).rejects.toMatchObject({
        cause: expect.objectContaining({
          code: "23001",
          message: expect.stringMatching(/immutable/),
        }),
      });
    }
    const [kept] = await db()
      .select()
      .from(invoices)
      .where(sql`${invoices.id} = ${invoice.id}`);
    expect(kept).toEqual(invoice);
  });

  it("refuses a credit note that corrects no invoice, and an invoice that claims to correct one", async () => {
    setClockForTests(new Date("2035-01-15T09:00:00Z"));
    const sale = await db().transaction((tx) => issueInvoice(tx, draft("sale")));
    await expect(
      db().transaction((tx) => issueInvoice(tx, draft("credit_note"))),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "23514" }) });
    await expect(
      db().transaction((tx) => issueInvoice(tx, draft("sale", { creditedInvoiceId: sale.id }))),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "23514" }) });
    // Neither refusal used a number.
    expect(await sequences("A", 2035)).toEqual([]);
    expect(await sequences("F", 2035)).toEqual([1]);
  });

  it("takes negative lines (a final invoice's deduction) but refuses a total of the wrong sign", async () => {
    setClockForTests(new Date("2036-03-10T09:00:00Z"));
    const lines = (cents: number) => [
      { label: "Séance portrait", quantity: 1, unitPriceCents: 12_000, vatRate: null },
      { label: "Arrhes déjà facturées", quantity: 1, unitPriceCents: cents, vatRate: null },
    ];
    const final = await db().transaction((tx) =>
      issueInvoice(tx, draft("final", { lines: lines(-3_000) })),
    );
    expect(final.ttcCents).toBe(9_000);
    for (const refused of [
      draft("final", { lines: lines(-12_000) }),
      draft("sale", { lines: lines(-15_000) }),
      draft("credit_note", { creditedInvoiceId: final.id, lines: lines(0) }),
    ]) {
      await expect(db().transaction((tx) => issueInvoice(tx, refused))).rejects.toThrow(
        /cents in all/,
      );
    }
    expect(await sequences("F", 2036)).toEqual([1]);
    expect(await sequences("A", 2036)).toEqual([]);
  });
});
