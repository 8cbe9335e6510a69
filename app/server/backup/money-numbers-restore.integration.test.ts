import { afterEach, describe, expect, it } from "vitest";
import { useBackupScratch } from "../../../tests/support/backup-scratch";
import { useAppDatabase } from "../../../tests/support/database";
import { invoiceSellerForTests } from "../../../tests/support/seller";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { issueInvoice, type InvoiceDraft } from "../invoices/issue.server";
import { appendJournal, verifyJournal } from "../payments/journal.server";

// A number handed out after a backup was handed to someone: an invoice's, a credit note's (CGI art. 242
// nonies A: one continuous series, each number once) or the money journal's. The owner restoring last
// night's backup (to undo a mistake) must never see the site hand it out again to someone else.

useAppDatabase();

const { backUp, restore } = useBackupScratch("money-numbers-restore");
afterEach(() => setClockForTests(null));

const draft = (buyer: string, extra: Partial<InvoiceDraft> = {}): InvoiceDraft => ({
  kind: "sale",
  seller: invoiceSellerForTests,
  buyer: { name: buyer, email: "client@example.test", address: null },
  lines: [{ label: "Bon cadeau 80 €", quantity: 1, unitPriceCents: 8_000, vatRate: null }],
  paymentTerms: "Payé par carte",
  ...extra,
});
const issue = (value: InvoiceDraft) => db().transaction((tx) => issueInvoice(tx, value));

describe("numbers handed out after a backup, once it is restored", () => {
  it("never gives an invoice's or a credit note's number again", async () => {
    setClockForTests(new Date("2027-03-10T10:00:00Z"));
    await issue(draft("Léa Martin"));
    const backup = await backUp();
    const sold = await issue(draft("Marc Dubois"));
    const credit = await issue(
      draft("Marc Dubois", {
        kind: "credit_note",
        creditedInvoiceId: sold.id,
        lines: [{ label: "Remboursement", quantity: 1, unitPriceCents: -8_000, vatRate: null }],
      }),
    );
    expect([sold.number, credit.number]).toEqual(["F-2027-000002", "A-2027-000001"]);

    await restore(backup.file);
    const next = await issue(draft("Chloé Bernard"));
    const nextCredit = await issue(
      draft("Chloé Bernard", {
        kind: "credit_note",
        creditedInvoiceId: next.id,
        lines: [{ label: "Remboursement", quantity: 1, unitPriceCents: -8_000, vatRate: null }],
      }),
    );
    expect(next.number).not.toBe(sold.number);
    expect(nextCredit.number).not.toBe(credit.number);
  });

  it("never gives a journal row's number again", async () => {
    const append = (amountCents: number) =>
      db().transaction((tx) =>
        appendJournal(tx, { kind: "payment", amountCents, method: "cash", details: {} }),
      );
    await append(1_000);
    const backup = await backUp();
    const after = await append(2_000);

    await restore(backup.file);
    const next = await append(3_000);
    expect(next.seq).toBeGreaterThan(after.seq);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });
});
