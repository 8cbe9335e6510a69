import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import type { Legal } from "~/content/schemas";
import { parseAccountingCsv } from "../../../tests/support/accounting-csv";
import { completeLegal, subjectToVat } from "../../../tests/support/seller";
import { useAppDatabase } from "../../../tests/support/database";
import { pdfText } from "../../../tests/support/pdf-tools";
import { memoryCardProvider, reportCardPaid } from "../../../tests/support/payments";
import {
  paidAmountVoucher,
  placeVoucherOrder,
  voucherOrderOf,
  voucherRow,
} from "../../../tests/support/vouchers";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { ARRHES_30_OF_120 } from "../../../tests/support/booking-deposits";
import { salesJournal } from "../accounting/exports.server";
import { setClockForTests } from "../clock.server";
import { loadDocument, saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { invoices, paymentAttempts, voucherUses } from "../db/schema";
import { acceptHeldPayment } from "../payments/held-payments.server";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { createBooking } from "../booking/bookings.server";
import { recordBalancePaid } from "../booking/deposits.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";
import { useSessionVoucherAtStudio } from "../vouchers/admin-vouchers.server";
import { useAmountVoucher } from "../vouchers/redemption.server";
import { invoicePdf, issueMissingInvoices } from "./orders.server";
import { useInvoicesHeld } from "./voucher-uses.server";
import { formatVoucherCode } from "~/lib/vouchers/code";

// A multi-purpose voucher's TVA is due when it is used (CGI art. 256 ter, decision 0198): each use the owner
// records is invoiced at 20 % to the voucher's holder, once whatever repeats; none under the franchise;
// held back while the seller's identity is incomplete and issued by the catch-up once it is complete.

useAppDatabase({ jobs: true });
const owner = { id: "", name: "Camille" };
const setLegal = (legal: Legal) => saveDocument("legal", legal, owner, "test");

const card = memoryCardProvider();
beforeAll(() => {
  card.install();
  provideSiteOrderKinds();
});
afterAll(() => card.uninstall());
afterEach(() => setClockForTests(null));

/** A paid amount voucher of `euros`, for Élodie; its id and code. */
const amountVoucher = (euros: number) =>
  paidAmountVoucher(euros, { name: "Élodie Françoise", email: "elodie@example.test" });

const invoicesOfUse = (useId: string) =>
  db().select().from(invoices).where(eq(invoices.voucherUseId, useId));

const pendingOf = async (useId: string) =>
  (await db().select().from(voucherUses).where(eq(voucherUses.id, useId)))[0]?.invoicePending;

describe("the use of an amount voucher", () => {
  it("is invoiced at 20 % to the voucher's holder, once though the owner's form is posted twice at once", async () => {
    setClockForTests(new Date("2027-01-12T10:00:00Z"));
    await setLegal(subjectToVat);
    const voucher = await amountVoucher(100);
    const [sale] = await db().select().from(invoices).where(eq(invoices.orderId, voucher.orderId));
    // Sold, it bore no TVA: that is due at its uses.
    expect(sale).toMatchObject({ kind: "sale", ttcCents: 10_000, vatCents: 0 });

    const key = randomUUID();
    const posts = await Promise.all(
      [1, 2].map(() =>
        useAmountVoucher({ code: voucher.code, amountCents: 3_000, idempotencyKey: key }),
      ),
    );
    const [first, second] = posts;
    if (!first?.ok || !second?.ok) throw new Error("the use was refused");
    expect([first.repeated, second.repeated].sort()).toEqual([false, true]);
    expect(first.invoice?.number).toMatch(/^F-2027-\d{6}$/);
    expect(second.invoice?.number).toBe(first.invoice?.number);
    const issued = await invoicesOfUse(first.use.id);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({
      kind: "voucher_use",
      series: "F",
      orderId: null,
      serviceDate: "2027-01-12",
      ttcCents: 3_000,
      htCents: 2_500,
      vatCents: 500,
      vatBreakdown: [{ vatRate: 2000, htCents: 2_500, vatCents: 500, ttcCents: 3_000 }],
      buyer: { name: "Élodie Françoise", email: "elodie@example.test", address: null },
      seller: { vatNumber: "FR64 443061841", vatMention: null },
    });
    const code = issued[0]?.lines[0]?.label.match(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)?.[0];
    expect(code).toBe(voucher.code);
    expect(issued[0]?.paymentTerms).toBe(
      `Réglée par le bon cadeau ${code} le 12 janvier 2027 (bon à usages multiples : TVA due à son utilisation).`,
    );
    const [useInvoice] = issued;
    if (!useInvoice) throw new Error("no invoice for the use");
    const text = pdfText((await invoicePdf(useInvoice)).bytes);
    expect(text.replace(/\s+/g, " ")).toContain(`Réglée par le bon cadeau ${code}`);

    // The rest spent: a second invoice, the next number.
    const rest = await useAmountVoucher({ code: voucher.code, amountCents: 7_000 });
    if (!rest.ok) throw new Error(rest.message);
    expect(rest.voucher.status).toBe("used");
    expect(rest.invoice).toMatchObject({ ttcCents: 7_000, vatCents: 1_167 });
    expect(rest.invoice?.sequence).toBe((first.invoice?.sequence ?? 0) + 1);

    // The accountant tells the sale (money received, no TVA yet) from the uses (the TVA collected).
    const journal = parseAccountingCsv(
      (await salesJournal({ from: "2027-01-12", to: "2027-01-12" })).csv,
    );
    const typeOf = (number: string | undefined) =>
      journal.filter((row) => row[1] === number).map((row) => [row[2], row[4], row[7]]);
    expect(typeOf(sale?.number)).toEqual([
      ["Vente de bon cadeau (TVA due à son utilisation)", "Sans TVA", "100,00"],
    ]);
    expect(typeOf(first.invoice?.number)).toEqual([
      ["Facture réglée par bon cadeau", "20 %", "30,00"],
    ]);
  });

  it("is not invoiced under the franchise: no TVA is due, the sale's invoice named the sum", async () => {
    await setLegal(completeLegal);
    const voucher = await amountVoucher(80);
    const used = await useAmountVoucher({ code: voucher.code, amountCents: 2_000 });
    if (!used.ok) throw new Error(used.message);
    expect(used.invoice).toBeNull();
    expect(await invoicesOfUse(used.use.id)).toEqual([]);
    expect(await pendingOf(used.use.id)).toBe(false);
  });

  it("is held back while the seller's identity is incomplete, then invoiced once by the catch-up", async () => {
    await setLegal(structuredClone(seedDocuments.legal));
    const voucher = await amountVoucher(60);
    const used = await useAmountVoucher({ code: voucher.code, amountCents: 4_500 });
    if (!used.ok) throw new Error(used.message);
    expect(used.invoice).toBeNull();
    expect(await pendingOf(used.use.id)).toBe(true);
    expect(await useInvoicesHeld()).toBeGreaterThanOrEqual(1);
    await issueMissingInvoices();
    expect(await invoicesOfUse(used.use.id)).toEqual([]);
    expect(await pendingOf(used.use.id)).toBe(true);

    await setLegal(subjectToVat);
    expect(await loadDocument("legal")).toMatchObject({ vatRegime: "assujetti" });
    await issueMissingInvoices();
    await issueMissingInvoices();
    const issued = await invoicesOfUse(used.use.id);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ kind: "voucher_use", ttcCents: 4_500, vatCents: 750 });
    expect(await pendingOf(used.use.id)).toBe(false);
    expect(await useInvoicesHeld()).toBe(0);
  });

  it("held back, then found due none when the seller completes her identity under the franchise", async () => {
    await setLegal(structuredClone(seedDocuments.legal));
    const voucher = await amountVoucher(40);
    const used = await useAmountVoucher({ code: voucher.code, amountCents: 1_000 });
    if (!used.ok) throw new Error(used.message);
    expect(await pendingOf(used.use.id)).toBe(true);
    await setLegal(completeLegal);
    await issueMissingInvoices();
    expect(await invoicesOfUse(used.use.id)).toEqual([]);
    expect(await pendingOf(used.use.id)).toBe(false);
  });
});

/** An amount voucher of `euros` for which the owner accepted a card payment of `paidCents` (decision 0172). */
async function shortPaidVoucher(euros: number, paidCents: number) {
  const { orderId, voucherId } = await placeVoucherOrder(
    voucherOrderOf({ kind: "amount", euros }, { method: "card" }),
  );
  expect((await reportCardPaid(orderId, paidCents)).outcome).toBe("held");
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, orderId));
  expect((await acceptHeldPayment(orderId, attempt?.id ?? "")).outcome).toBe("applied");
  return { orderId, voucherId, code: (await voucherRow(voucherId)).code ?? "" };
}

describe("the use of an amount voucher the owner accepted paid short", () => {
  it("bears its TVA on its share of what was paid, to the cent over all its uses, and says so on the invoice", async () => {
    setClockForTests(new Date("2027-01-12T10:00:00Z"));
    await setLegal(subjectToVat);
    // An 80 € voucher paid 70 €: each euro of it used brings the studio 0,875 €.
    const voucher = await shortPaidVoucher(80, 7_000);
    const uses = [];
    for (const cents of [2_667, 2_667, 2_666]) {
      const used = await useAmountVoucher({ code: voucher.code, amountCents: cents });
      if (!used.ok) throw new Error(used.message);
      uses.push(used);
    }
    expect(uses.map((used) => used.invoice?.ttcCents)).toEqual([2_334, 2_333, 2_333]);
    const vat = uses.reduce((sum, used) => sum + (used.invoice?.vatCents ?? 0), 0);
    const ht = uses.reduce((sum, used) => sum + (used.invoice?.htCents ?? 0), 0);
    expect(ht + vat).toBe(7_000);
    expect(vat).toBe(1_167);
    const [first] = uses;
    const code = formatVoucherCode(voucher.code);
    // Her invoice takes 26,67 € from her voucher, and bills the 23,34 € of it that were paid.
    expect(first?.invoice?.lines).toEqual([
      {
        label: `Prestations photographiques réglées par le bon cadeau ${code}`,
        quantity: 1,
        unitPriceCents: 2_667,
        vatRate: 2000,
      },
      {
        label: `Remise accordée à l'achat du bon cadeau ${code}`,
        quantity: 1,
        unitPriceCents: -333,
        vatRate: 2000,
      },
    ]);
    if (!first?.invoice) throw new Error("no invoice for the use");
    const text = pdfText((await invoicePdf(first.invoice)).bytes).replace(/\s+/g, " ");
    expect(text).toContain(`Remise accordée à l'achat du bon cadeau ${code}`);
    expect(text).toContain("23,34");

    // The accountant's journal reads the invoices: 70 € of sales, their TVA, for the 70 € received.
    const journal = parseAccountingCsv(
      (await salesJournal({ from: "2027-01-12", to: "2027-01-12" })).csv,
    );
    const numbers = uses.map((used) => used.invoice?.number);
    expect(
      journal.filter((row) => numbers.includes(row[1])).map((row) => [row[2], row[6], row[7]]),
    ).toEqual([
      ["Facture réglée par bon cadeau", "3,89", "23,34"],
      ["Facture réglée par bon cadeau", "3,89", "23,33"],
      ["Facture réglée par bon cadeau", "3,89", "23,33"],
    ]);
  });
});

describe("a session paid by amount vouchers the owner accepted paid short", () => {
  it("bills on its invoices what was paid for them and the money, and its final invoice restates the whole price", async () => {
    await setLegal(subjectToVat);
    const { brive } = await studioIds();
    const sessionTypeId = await insertSessionType([brive], {
      name: "Portrait au bon remisé",
      bookableHours: EVERY_DAY,
      stepMinutes: 60,
      deposit: ARRHES_30_OF_120,
    });
    // 70 € received for an 80 € voucher: its 30 € of arrhes, then 50 € of the balance, 40 € in cash.
    const voucher = await shortPaidVoucher(80, 7_000);
    const booking = await createBooking({
      studioId: brive,
      sessionTypeId,
      slot: distinctSlots(6)(),
      client: { name: "Léa Martin", email: "lea-remise@example.test", phone: "" },
      consentAt: new Date(),
      voucherCode: voucher.code,
    });
    await recordBalancePaid({
      bookingId: booking.id,
      amountCents: 4_000,
      means: "cash",
      voucher: { code: voucher.code, amountCents: 5_000 },
    });
    const rows = await db().select().from(invoices).where(eq(invoices.bookingId, booking.id));
    const code = formatVoucherCode(voucher.code);
    expect(rows.map((row) => [row.kind, row.ttcCents])).toEqual([
      ["voucher_use", 2_625],
      ["voucher_use", 4_375],
      ["final", 4_000],
    ]);
    // 110 € received for the session (40 € and 70 €): its TVA on that, not on 120 €.
    expect(rows.reduce((sum, row) => sum + row.vatCents, 0)).toBe(1_833);
    const final = rows.find((row) => row.kind === "final");
    expect(final?.lines.map((line) => [line.label, line.unitPriceCents])).toEqual([
      [expect.stringMatching(/^Portrait au bon remisé du /), 12_000],
      [expect.stringMatching(/^Arrhes déjà facturées : facture F-/), -2_625],
      [`Remise accordée à l'achat du bon cadeau ${code}`, -375],
      [expect.stringMatching(/^Réglé par le bon cadeau .* : facture F-/), -4_375],
      [`Remise accordée à l'achat du bon cadeau ${code}`, -625],
    ]);
  });
});

describe("the use of a session voucher", () => {
  it("is not invoiced again: its TVA was due at its sale (single-purpose)", async () => {
    await setLegal(subjectToVat);
    const studio = await studioIds();
    const iris = await insertSessionType([studio.brive], { name: "Séance Iris" });
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "session", sessionTypeId: iris, studioSlug: null, euros: 150 }),
      { studioId: studio.brive },
    );
    await markPaidOffline(orderId, "transfer");
    const [sale] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(sale).toMatchObject({ ttcCents: 15_000, vatCents: 2_500 });
    const used = await useSessionVoucherAtStudio(voucherId);
    expect(used.ok).toBe(true);
    const uses = await db().select().from(voucherUses).where(eq(voucherUses.voucherId, voucherId));
    expect(uses).toHaveLength(1);
    expect(await invoicesOfUse(uses[0]?.id ?? "")).toEqual([]);
  });
});

describe("a refund of a used amount voucher's order", () => {
  /** What stands of the voucher's uses' invoices once their credit notes are counted: TTC and TVA. */
  async function usesStanding(useIds: string[]) {
    const rows = await db().select().from(invoices);
    const uses = rows.filter((row) => row.voucherUseId && useIds.includes(row.voucherUseId));
    const notes = rows.filter((row) => uses.some((use) => use.id === row.creditedInvoiceId));
    const sum = (key: "ttcCents" | "vatCents") =>
      [...uses, ...notes].reduce((total, row) => total + row[key], 0);
    return { ttcCents: sum("ttcCents"), vatCents: sum("vatCents"), notes };
  }

  async function refundDone(orderId: string, cents: number) {
    const refund = await requestRefund(orderId, cents, "Geste commercial");
    await markRefundedOffline(refund.id);
  }

  it("in full after a full use gives back the use's TVA: the studio kept nothing", async () => {
    await setLegal(subjectToVat);
    const voucher = await amountVoucher(100);
    const used = await useAmountVoucher({ code: voucher.code, amountCents: 10_000 });
    if (!used.ok) throw new Error(used.message);
    expect(used.invoice?.vatCents).toBe(1_667);
    await refundDone(voucher.orderId, 10_000);
    const standing = await usesStanding([used.use.id]);
    expect(standing).toMatchObject({ ttcCents: 0, vatCents: 0 });
    expect(standing.notes).toHaveLength(1);
    expect(standing.notes[0]).toMatchObject({
      kind: "credit_note",
      paymentTerms: expect.stringMatching(/^Remboursé le /),
    });
    expect(standing.notes[0]?.lines[0]?.label).toBe(
      `Remboursement du bon cadeau — facture ${used.invoice?.number}`,
    );
  });

  it("beyond its balance lowers the uses' invoices to what the studio keeps, the latest use first, once", async () => {
    await setLegal(subjectToVat);
    const voucher = await amountVoucher(100);
    const first = await useAmountVoucher({ code: voucher.code, amountCents: 4_000 });
    const second = await useAmountVoucher({ code: voucher.code, amountCents: 2_000 });
    if (!first.ok || !second.ok) throw new Error("a use was refused");
    // Within the 40 € left: the voucher's balance pays it, the uses stand whole.
    await refundDone(voucher.orderId, 1_000);
    expect(await usesStanding([first.use.id, second.use.id])).toMatchObject({
      ttcCents: 6_000,
      notes: [],
    });
    // 60 € more: 30 € off the balance, 30 € of money the uses had spent. The studio keeps 30 €.
    await refundDone(voucher.orderId, 6_000);
    expect(await voucherRow(voucher.voucherId)).toMatchObject({ balanceCents: 0 });
    const standing = await usesStanding([first.use.id, second.use.id]);
    expect(standing).toMatchObject({ ttcCents: 3_000, vatCents: 500 });
    expect(standing.notes.map((note) => [note.creditedInvoiceId, note.ttcCents])).toEqual([
      [second.invoice?.id, -2_000],
      [first.invoice?.id, -1_000],
    ]);
  });

  it("of a voucher the owner accepted paid short lowers its uses to what the studio keeps of what it received", async () => {
    await setLegal(subjectToVat);
    // 70 € taken for the 80 € voucher, accepted by the owner (decision 0172).
    const { orderId, code } = await shortPaidVoucher(80, 7_000);
    const used = await useAmountVoucher({ code, amountCents: 5_000 });
    if (!used.ok) throw new Error(used.message);
    // Its TVA on the 43,75 € paid for the 50 € it spends (decision 0203).
    expect(used.invoice).toMatchObject({ ttcCents: 4_375, vatCents: 729 });
    // 30 € given back of the 70 € received: its 30 € left, and the studio keeps 40 €.
    // By card: the provider in memory completes its refunds at once.
    await requestRefund(orderId, 3_000, "Geste commercial");
    expect(await usesStanding([used.use.id])).toMatchObject({ ttcCents: 4_000 });
    // The rest given back: the studio keeps nothing, nor any TVA.
    await requestRefund(orderId, 4_000, "Rétractation");
    expect(await usesStanding([used.use.id])).toMatchObject({ ttcCents: 0, vatCents: 0 });
  });

  it("of a voucher accepted paid short, within its balance, then the rest used: its uses stand at what was kept", async () => {
    await setLegal(subjectToVat);
    const { orderId, voucherId, code } = await shortPaidVoucher(80, 7_000);
    const first = await useAmountVoucher({ code, amountCents: 5_000 });
    if (!first.ok) throw new Error(first.message);
    // 10 € given back: 20 € left of its value, 60 € kept for its 70 €: 42,86 € for the 50 € used.
    await requestRefund(orderId, 1_000, "Geste commercial");
    expect(await voucherRow(voucherId)).toMatchObject({ balanceCents: 2_000 });
    expect(await usesStanding([first.use.id])).toMatchObject({ ttcCents: 4_286 });
    const rest = await useAmountVoucher({ code, amountCents: 2_000 });
    if (!rest.ok) throw new Error(rest.message);
    // All of its value used: its uses bill the 60 € kept, not a cent more or less.
    expect(await usesStanding([first.use.id, rest.use.id])).toMatchObject({ ttcCents: 6_000 });
  });

  it("beyond its balance while the use's invoice is held back: the catch-up invoices it, then credits what went back", async () => {
    await setLegal(structuredClone(seedDocuments.legal));
    const voucher = await amountVoucher(100);
    const used = await useAmountVoucher({ code: voucher.code, amountCents: 6_000 });
    if (!used.ok) throw new Error(used.message);
    expect(await pendingOf(used.use.id)).toBe(true);
    // 70 € given back: the 40 € left and 30 € the use had spent. The studio keeps 30 €.
    await refundDone(voucher.orderId, 7_000);
    await setLegal(subjectToVat);
    await issueMissingInvoices();
    await issueMissingInvoices();
    const standing = await usesStanding([used.use.id]);
    expect(standing).toMatchObject({ ttcCents: 3_000, vatCents: 500 });
    expect(standing.notes).toHaveLength(1);
    expect(standing.notes[0]?.lines[0]?.label).toMatch(/^Remboursement du bon cadeau — facture F-/);
    expect(await pendingOf(used.use.id)).toBe(false);
  });
});
