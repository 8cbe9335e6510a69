import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { invoiceSellerForTests } from "../../../tests/support/seller";
import { paidAmountVoucher } from "../../../tests/support/vouchers";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { issueInvoice, type InvoiceDraft } from "../invoices/issue.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { voucherOrderKind } from "../vouchers/order-kind.server";
import { useAmountVoucher } from "../vouchers/redemption.server";
import { erasedSince } from "./since-backup.server";

// The money a restore of a backup takes off the site (decision 0207): the payments received since, the
// invoices and credit notes issued since (by number), the vouchers sold and used since. The owner reads
// it before she types the word, as she reads the bookings and galleries it erases.

useAppDatabase({ jobs: true });

beforeAll(() => provideOrderKinds([voucherOrderKind]));
afterEach(() => setClockForTests(null));

const draft = (buyer: string): InvoiceDraft => ({
  kind: "sale",
  seller: invoiceSellerForTests,
  buyer: { name: buyer, email: "client@example.test", address: null },
  lines: [{ label: "Tirage 30 × 40", quantity: 1, unitPriceCents: 4_500, vatRate: null }],
  paymentTerms: "Payé par carte",
});

describe("the money a restore of a backup takes off the site", () => {
  it("counts the payments, documents, vouchers sold and voucher uses since the backup", async () => {
    const backupAt = new Date("2027-03-10T02:00:00Z");
    setClockForTests(new Date("2027-03-09T10:00:00Z"));
    const before = await paidAmountVoucher(100);
    const earlier = await db().transaction((tx) => issueInvoice(tx, draft("Avant Sauvegarde")));

    setClockForTests(new Date("2027-03-10T09:00:00Z"));
    await paidAmountVoucher(50);
    expect(await useAmountVoucher({ code: before.code, amountCents: 3_000 })).toMatchObject({
      ok: true,
    });
    const later = await db().transaction((tx) => issueInvoice(tx, draft("Marc Dubois")));

    const { money } = await erasedSince(backupAt);
    expect(money).toMatchObject({
      payments: 1,
      paymentsCents: 5_000,
      vouchersSold: 1,
      voucherUses: 1,
    });
    expect(money.documents).toContain(later.number);
    expect(money.documents).not.toContain(earlier.number);
    expect(money.documentCount).toBe(money.documents.length);
  });
});
