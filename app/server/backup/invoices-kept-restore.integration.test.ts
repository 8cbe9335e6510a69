import { asc, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useBackupScratch } from "../../../tests/support/backup-scratch";
import { createTestDatabase, useAppDatabase } from "../../../tests/support/database";
import {
  placeCardOrder,
  placeOrder,
  reportCardPaid,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import { invoiceSellerForTests, subjectToVat } from "../../../tests/support/seller";
import { setClockForTests } from "../clock.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { invoices } from "../db/schema";
import { issueInvoice } from "../invoices/issue.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";

// Invoices and credit notes issued after a backup are legal records (one continuous series, kept 10
// years): a restore of that backup keeps them (decision 0207, amended), and a payment reported again
// after it issues no second invoice for the sale.

useAppDatabase({ jobs: true });
usePaymentsInMemory();

const { backUp, restore } = useBackupScratch("invoices-kept-restore");
beforeAll(async () => {
  await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
});
afterEach(() => setClockForTests(null));

const everyInvoice = () => db().select().from(invoices).orderBy(asc(invoices.number));

describe("invoices issued after a backup, once it is restored", () => {
  it("are kept, numbers and contents unchanged, even when their order and refund are erased", async () => {
    setClockForTests(new Date("2027-06-01T09:00:00Z"));
    const backup = await backUp();
    const order = await placeOrder("studio", 12_000);
    await markPaidOffline(order.orderId, "cash");
    const refund = await requestRefund(order.orderId, 2_500, "Geste commercial");
    await markRefundedOffline(refund.id);
    const issued = await everyInvoice();
    expect(issued.map((invoice) => invoice.kind).sort()).toEqual(["credit_note", "sale"]);

    await restore(backup.file);
    const kept = await everyInvoice();
    // The links to the erased order and refund go; what the document says stays.
    expect(kept).toEqual(issued.map((invoice) => ({ ...invoice, orderId: null, refundId: null })));
    const next = await db().transaction((tx) =>
      issueInvoice(tx, {
        kind: "sale",
        seller: invoiceSellerForTests,
        buyer: { name: "Chloé Bernard", email: "chloe@example.test", address: null },
        lines: [{ label: "Tirage", quantity: 1, unitPriceCents: 4_500, vatRate: null }],
        paymentTerms: "Payé au studio",
      }),
    );
    expect(kept.map((invoice) => invoice.number)).not.toContain(next.number);
  });

  it("issue no second invoice for a sale whose payment is reported again after the restore", async () => {
    setClockForTests(new Date("2027-06-02T09:00:00Z"));
    const order = await placeCardOrder(15_000);
    const backup = await backUp();
    await reportCardPaid(order.orderId, 15_000);
    const [sold] = await db().select().from(invoices).where(eq(invoices.orderId, order.orderId));
    expect(sold).toBeDefined();

    await restore(backup.file);
    expect(await reportCardPaid(order.orderId, 15_000)).toMatchObject({ orderStatus: "paid" });
    expect(await db().select().from(invoices).where(eq(invoices.orderId, order.orderId))).toEqual([
      sold,
    ]);
  });

  it("are the archive's alone when the archive is another site's", async () => {
    const other = await createTestDatabase();
    try {
      const draft = (buyer: string) => ({
        kind: "sale" as const,
        seller: invoiceSellerForTests,
        buyer: { name: buyer, email: "client@example.test", address: null },
        lines: [{ label: "Tirage", quantity: 1, unitPriceCents: 4_500, vatRate: null }],
        paymentTerms: "Payé au studio",
      });
      await other.db.transaction((tx) => issueInvoice(tx, draft("Léa Martin")));
      const backup = await backUp(other.db);
      const archived = await other.db.select().from(invoices).orderBy(asc(invoices.number));
      await db().transaction((tx) => issueInvoice(tx, draft("Marc Dubois")));

      await restore(backup.file);
      expect(await everyInvoice()).toEqual(archived);
    } finally {
      await other.close();
    }
  });
});
