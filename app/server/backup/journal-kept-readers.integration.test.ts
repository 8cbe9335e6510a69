import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseAccountingCsv as parse } from "../../../tests/support/accounting-csv";
import { useBackupScratch } from "../../../tests/support/backup-scratch";
import { useAppDatabase } from "../../../tests/support/database";
import {
  journalRowsOf,
  placeCardOrder,
  placeOrder,
  reportCardPaid,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import { subjectToVat } from "../../../tests/support/seller";
import { paymentsReceived, receiptsBook } from "../accounting/exports.server";
import { setClockForTests } from "../clock.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { moneyJournal, orders } from "../db/schema";
import { closePastDays, verifyJournal } from "../payments/journal.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";

// A restore keeps the journal's rows written after the backup (decision 0207, amended), and erases the
// orders they belong to: what reads the journal must still count them, and say why their client is unknown.

useAppDatabase({ jobs: true });
usePaymentsInMemory();

const { backUp, restore } = useBackupScratch("journal-kept-readers");
afterEach(() => setClockForTests(null));

describe("what reads the journal, with rows kept whose order the restore erased", () => {
  it("the accountant's files and the day's closure count the payment and the refund", async () => {
    await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
    setClockForTests(new Date("2027-04-14T09:00:00Z"));
    const backup = await backUp();
    const order = await placeOrder("studio", 12_000, {
      buyer: { name: "Marc Dubois", email: "marc@example.test" },
    });
    await markPaidOffline(order.orderId, "cash");
    const refund = await requestRefund(order.orderId, 2_500, "Geste commercial");
    await markRefundedOffline(refund.id);

    await restore(backup.file);
    expect(await db().select().from(orders).where(eq(orders.id, order.orderId))).toEqual([]);
    const period = { from: "2027-04-14", to: "2027-04-14" };

    const received = await paymentsReceived(period);
    expect(received.totalCents).toBe(12_000 - 2_500);
    const receivedRows = parse(received.csv).slice(1);
    expect(receivedRows.map((row) => row[2])).toEqual(["Encaissement", "Remboursement"]);
    // The client is not known any more: the row says why its cell is not the buyer's name.
    expect(receivedRows.map((row) => row[3])).toEqual([
      "Commande absente du site (restauration d'une sauvegarde)",
      "Commande absente du site (restauration d'une sauvegarde)",
    ]);

    const book = await receiptsBook(period);
    expect(book.totalCents).toBe(12_000 - 2_500);
    expect(
      parse(book.csv)
        .slice(1)
        .map((row) => row[2]),
    ).toEqual([
      "Commande absente du site (restauration d'une sauvegarde)",
      "Commande absente du site (restauration d'une sauvegarde)",
    ]);

    setClockForTests(new Date("2027-04-15T09:00:00Z"));
    expect(await closePastDays()).toEqual(["2027-04-14"]);
    const [closure] = await db()
      .select()
      .from(moneyJournal)
      .where(eq(moneyJournal.kind, "closure"));
    expect(closure?.details).toMatchObject({
      count: 2,
      totals: { payment: 12_000, refund: -2_500 },
    });
    expect(await verifyJournal()).toMatchObject({ ok: true, rows: 3 });
  });
});

describe("a card payment kept in the journal, applied again after the restore", () => {
  it("is not journaled twice: the accountant's files count it once", async () => {
    setClockForTests(new Date("2027-05-03T09:00:00Z"));
    // Ordered before the backup, paid after it: the restored order waits for its payment again, which
    // the provider's webhook or the reconciliation job then reports.
    const order = await placeCardOrder(15_000);
    const backup = await backUp();
    await reportCardPaid(order.orderId, 15_000);
    expect(await journalRowsOf(order.orderId)).toHaveLength(1);

    await restore(backup.file);
    expect(await reportCardPaid(order.orderId, 15_000)).toMatchObject({ orderStatus: "paid" });
    const rows = await journalRowsOf(order.orderId);
    expect(rows.map((row) => [row.kind, row.amountCents, row.attemptId])).toEqual([
      ["payment", 15_000, order.attemptId],
    ]);
    const received = await paymentsReceived({ from: "2027-05-03", to: "2027-05-03" });
    expect(received.totalCents).toBe(15_000);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });
});

describe("a studio payment kept in the journal, marked again by the owner after the restore", () => {
  it("is journaled once when its order was placed before the backup", async () => {
    setClockForTests(new Date("2027-05-04T09:00:00Z"));
    const order = await placeOrder("studio", 9_000);
    const backup = await backUp();
    await markPaidOffline(order.orderId, "cash");

    await restore(backup.file);
    await markPaidOffline(order.orderId, "cash");
    expect((await journalRowsOf(order.orderId)).map((row) => row.kind)).toEqual(["payment"]);
  });
});
