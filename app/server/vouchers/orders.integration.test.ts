import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertSessionType, studioIds } from "../../../tests/support/booking";
import { useAppDatabase } from "../../../tests/support/database";
import {
  journalRowsOf,
  memoryCardProvider,
  orderRow,
  ordersWithKey,
} from "../../../tests/support/payments";
import {
  placeVoucherOrder,
  voucherMailJobs,
  voucherOrderOf,
  voucherRow,
  voucherSettings,
} from "../../../tests/support/vouchers";
import { VOUCHER_CODE_LENGTH, generateVoucherCode, parseVoucherCode } from "~/lib/vouchers/code";
import { voucherExpiryDay } from "~/lib/vouchers/terms";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { orderLines, paymentAttempts, vouchers } from "../db/schema";
import { applyPaymentStatus } from "../payments/apply-payment.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { completeRefund, markPaidOffline, requestRefund } from "../payments/orders.server";
import { issueVoucher, voucherOrderKind } from "./order-kind.server";
import { useAmountVoucher } from "./redemption.server";

// A gift voucher's order and its life until delivery, on a real PostgreSQL with the job queue: made in the
// order's transaction, issued when paid (by any source, late too), released, refunded (decision 0167).

useAppDatabase({ jobs: true });

const card = memoryCardProvider();
let sessionTypeId = "";
let briveId = "";

beforeAll(async () => {
  card.install();
  provideOrderKinds([voucherOrderKind]);
  const studios = await studioIds();
  briveId = studios.brive;
  sessionTypeId = await insertSessionType([studios.brive], { name: "Séance Iris" });
});
afterAll(() => card.uninstall());
afterEach(() => setClockForTests(null));

const amountOrder = (euros = 80, overrides = {}) =>
  voucherOrderOf({ kind: "amount", euros }, overrides);

/** The owner refunds `cents` of an order paid offline and marks it « Remboursé ». */
async function refunded(orderId: string, cents: number) {
  const refund = await requestRefund(orderId, cents, "Geste commercial");
  // A card's refund is done by its provider (in memory: at once); an offline one once the owner says so.
  if (refund.status === "to_refund_offline") {
    await completeRefund(refund.id, "refunded_offline", null);
  }
}

/** The order's vouchers' journal rows, as [kind, cents]. */
const voucherJournal = async (orderId: string) =>
  (await journalRowsOf(orderId))
    .filter((row) => row.kind.startsWith("voucher_"))
    .map((row) => [row.kind, row.amountCents]);

describe("createVoucherOrder", () => {
  it("writes the order, its line with its TVA and the voucher awaiting payment, without a code", async () => {
    const session = await placeVoucherOrder(
      voucherOrderOf({ kind: "session", sessionTypeId, studioSlug: "brive", euros: 150 }),
      { studioId: briveId },
    );
    const amount = await placeVoucherOrder(amountOrder(80));

    const lines = await db()
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, session.orderId));
    expect(lines).toEqual([
      expect.objectContaining({
        label: "Bon cadeau : Séance Iris",
        unitPriceCents: 15_000,
        vatRate: 2000,
        voucherVatMode: "single",
      }),
    ]);
    const [amountLine] = await db()
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, amount.orderId));
    expect(amountLine).toMatchObject({
      label: "Bon cadeau de 80\u00a0€",
      vatRate: null,
      voucherVatMode: "multi",
    });

    expect(await voucherRow(session.voucherId)).toMatchObject({
      orderId: session.orderId,
      code: null,
      status: "awaiting_payment",
      kind: "session",
      sessionTypeId,
      studioId: briveId,
      label: "Séance Iris",
      valueCents: 15_000,
      balanceCents: 15_000,
      recipientName: "Élodie Françoise",
      vatMode: "single",
      expiresOn: null,
    });
    expect(await voucherRow(amount.voucherId)).toMatchObject({
      kind: "amount",
      label: "80\u00a0€",
      vatMode: "multi",
      sessionTypeId: null,
    });
    expect(await orderRow(session.orderId)).toMatchObject({
      kind: "voucher",
      amountCents: 15_000,
      method: "transfer",
      studioId: briveId,
    });
    expect((await voucherMailJobs({ orderId: amount.orderId })).map((job) => job.kind)).toEqual([
      "voucher-order",
    ]);
  });

  it("gives a second submit of the same form the same order and voucher", async () => {
    const order = amountOrder(100);
    const first = await placeVoucherOrder(order, { idempotencyKey: "form-key-double-submit" });
    const second = await placeVoucherOrder(order, { idempotencyKey: "form-key-double-submit" });
    expect(second).toMatchObject({
      orderId: first.orderId,
      voucherId: first.voucherId,
      created: false,
    });
    const rows = await db().select().from(vouchers).where(eq(vouchers.orderId, first.orderId));
    expect(rows).toHaveLength(1);
    expect(await voucherMailJobs({ orderId: first.orderId })).toHaveLength(1);
  });

  it("refuses in French, writing nothing, when vouchers are off sale or the method no longer offered", async () => {
    const key = "form-key-refused";
    await expect(
      placeVoucherOrder(amountOrder(80), {
        idempotencyKey: key,
        settings: voucherSettings({ vouchersOnSale: false }),
      }),
    ).rejects.toThrow("La vente de bons cadeaux est suspendue");
    await expect(
      placeVoucherOrder(amountOrder(80, { method: "card" }), {
        idempotencyKey: key,
        settings: voucherSettings({ card: false }),
      }),
    ).rejects.toMatchObject({ code: "method_not_offered", status: 400 });
    expect(await ordersWithKey(key)).toBe(0);
  });
});

describe("the voucher order kind", () => {
  it("issues the voucher when the owner marks it paid: a code, active, its last day, its journal row and its delivery", async () => {
    const paidAt = new Date("2026-12-03T10:00:00Z");
    const { orderId, voucherId } = await placeVoucherOrder(amountOrder(80));
    setClockForTests(paidAt);
    expect((await markPaidOffline(orderId, "transfer")).outcome).toBe("applied");

    const voucher = await voucherRow(voucherId);
    expect(voucher).toMatchObject({
      status: "active",
      expiresOn: voucherExpiryDay(paidAt, 12),
      balanceCents: 8_000,
    });
    expect(voucher.code).toHaveLength(VOUCHER_CODE_LENGTH);
    expect(parseVoucherCode(voucher.code ?? "")).toEqual({ ok: true, code: voucher.code });
    const journal = await journalRowsOf(orderId);
    expect(journal.map((row) => [row.kind, row.amountCents, row.voucherId])).toEqual([
      ["payment", 8_000, null],
      ["voucher_issue", 8_000, voucherId],
    ]);
    const delivery = (await voucherMailJobs({ voucherId })).filter(
      (job) => job.kind === "voucher-delivery",
    );
    expect(delivery).toHaveLength(1);

    // Marked paid twice: nothing issued again.
    await expect(markPaidOffline(orderId, "transfer")).rejects.toThrow();
    expect((await voucherRow(voucherId)).code).toBe(voucher.code);
    expect(await journalRowsOf(orderId)).toHaveLength(2);
  });

  it("issues one voucher when a card payment is reported 13 times at once", async () => {
    const { orderId, voucherId } = await placeVoucherOrder(amountOrder(150, { method: "card" }));
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    const reference = attempt?.providerReference ?? "";
    card.pay(reference, 15_000);
    await Promise.all(
      Array.from({ length: 13 }, (_, index) =>
        applyPaymentStatus({
          provider: "stripe",
          providerReference: reference,
          status: "succeeded",
          amountCents: 15_000,
          currency: "eur",
          paymentReference: `pi_${reference}`,
          source: index < 3 ? "webhook" : "return",
        }),
      ),
    );
    expect((await voucherRow(voucherId)).status).toBe("active");
    const issues = (await journalRowsOf(orderId)).filter((row) => row.kind === "voucher_issue");
    expect(issues).toHaveLength(1);
    expect(
      (await voucherMailJobs({ voucherId })).filter((job) => job.kind === "voucher-delivery"),
    ).toHaveLength(1);
  });

  it("delivers on the chosen day at 9:00 in Paris", async () => {
    setClockForTests(new Date("2026-12-01T10:00:00Z"));
    const { orderId, voucherId } = await placeVoucherOrder(
      amountOrder(80, { deliveryDay: "2026-12-24" }),
    );
    await markPaidOffline(orderId, "cheque");
    const [delivery] = (await voucherMailJobs({ voucherId })).filter(
      (job) => job.kind === "voucher-delivery",
    );
    expect(delivery?.startAfter.toISOString()).toBe("2026-12-24T08:00:00.000Z");
  });

  it("cancels the voucher of an order released unpaid, and issues it all the same when paid late", async () => {
    const { orderId, voucherId } = await placeVoucherOrder(amountOrder(80));
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    await applyPaymentStatus({
      attemptId: attempt?.id ?? "",
      status: "expired",
      amountCents: null,
      currency: null,
      paymentReference: null,
      source: "expiry",
    });
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled", code: null });

    expect((await markPaidOffline(orderId, "transfer")).outcome).toBe("late");
    const voucher = await voucherRow(voucherId);
    expect(voucher).toMatchObject({ status: "active", cancelledAt: null });
    expect(voucher.code).not.toBeNull();
  });

  it("cancels a refunded voucher with its journal row", async () => {
    const { orderId, voucherId } = await placeVoucherOrder(amountOrder(80));
    await markPaidOffline(orderId, "cash");
    const refund = await requestRefund(orderId, 8_000, "Annulation");
    expect((await voucherRow(voucherId)).status).toBe("active");
    await completeRefund(refund.id, "refunded_offline", null);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    const journal = await journalRowsOf(orderId);
    expect(journal.map((row) => [row.kind, row.amountCents])).toEqual([
      ["payment", 8_000],
      ["voucher_issue", 8_000],
      ["refund", -8_000],
      ["voucher_cancellation", -8_000],
    ]);
  });

  it("lowers an amount voucher's balance by a partial refund, with its journal row, then cancels the rest", async () => {
    const { orderId, voucherId } = await placeVoucherOrder(amountOrder(100));
    await markPaidOffline(orderId, "cash");
    await refunded(orderId, 6_000);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "active", balanceCents: 4_000 });
    expect(await voucherJournal(orderId)).toEqual([
      ["voucher_issue", 10_000],
      ["voucher_cancellation", -6_000],
    ]);
    await refunded(orderId, 4_000);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled", balanceCents: 4_000 });
    expect(await voucherJournal(orderId)).toEqual([
      ["voucher_issue", 10_000],
      ["voucher_cancellation", -6_000],
      ["voucher_cancellation", -4_000],
    ]);
  });

  it("leaves the voucher whole when the refund gives back a second payment of its order", async () => {
    // Paid on the card page, its webhook not there yet, then cashed at the studio: paid twice.
    const { orderId, voucherId } = await placeVoucherOrder(amountOrder(100, { method: "card" }));
    const [page] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    card.pay(page?.providerReference ?? "", 10_000);
    await markPaidOffline(orderId, "cash");
    expect((await journalRowsOf(orderId)).filter((row) => row.kind === "payment")).toHaveLength(2);
    // The 100 € paid twice given back: the voucher keeps its 100 €; what comes after takes from it.
    await refunded(orderId, 10_000);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "active", balanceCents: 10_000 });
    await refunded(orderId, 2_500);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "active", balanceCents: 7_500 });
    expect(await voucherJournal(orderId)).toEqual([
      ["voucher_issue", 10_000],
      ["voucher_cancellation", -2_500],
    ]);
  });

  it("never cancels more than a used voucher has left, whether all or part of its price is given back", async () => {
    // 100 € used for 30 €, then all 100 € refunded (a goodwill gesture): the 70 € left cancelled.
    const all = await placeVoucherOrder(amountOrder(100));
    await markPaidOffline(all.orderId, "cash");
    const code = (await voucherRow(all.voucherId)).code ?? "";
    expect((await useAmountVoucher({ code, amountCents: 3_000 })).ok).toBe(true);
    await refunded(all.orderId, 10_000);
    expect(await voucherRow(all.voucherId)).toMatchObject({ status: "cancelled" });
    expect(await voucherJournal(all.orderId)).toEqual([
      ["voucher_issue", 10_000],
      ["voucher_redemption", -3_000],
      ["voucher_cancellation", -7_000],
    ]);

    // 100 € used for 30 €, then 80 € refunded: the 70 € left, no more; the last 20 € cancel nothing.
    const part = await placeVoucherOrder(amountOrder(100));
    await markPaidOffline(part.orderId, "cash");
    const partCode = (await voucherRow(part.voucherId)).code ?? "";
    expect((await useAmountVoucher({ code: partCode, amountCents: 3_000 })).ok).toBe(true);
    await refunded(part.orderId, 8_000);
    expect(await voucherRow(part.voucherId)).toMatchObject({
      status: "cancelled",
      balanceCents: 0,
    });
    await refunded(part.orderId, 2_000);
    expect(await voucherJournal(part.orderId)).toEqual([
      ["voucher_issue", 10_000],
      ["voucher_redemption", -3_000],
      ["voucher_cancellation", -7_000],
    ]);
  });

  it("leaves a session voucher whole when part of its price is refunded", async () => {
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "session", sessionTypeId, studioSlug: null, euros: 150 }),
      { studioId: briveId, sessionLabel: "Séance Iris" },
    );
    await markPaidOffline(orderId, "cash");
    await refunded(orderId, 5_000);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "active", balanceCents: 15_000 });
    expect(await voucherJournal(orderId)).toEqual([["voucher_issue", 15_000]]);
    await refunded(orderId, 10_000);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    expect(await voucherJournal(orderId)).toEqual([
      ["voucher_issue", 15_000],
      ["voucher_cancellation", -15_000],
    ]);
  });

  it("draws another code when the one drawn is already a voucher's", async () => {
    const taken = await placeVoucherOrder(amountOrder(50));
    await markPaidOffline(taken.orderId, "cash");
    const takenCode = (await voucherRow(taken.voucherId)).code ?? "";
    const { voucherId, orderId } = await placeVoucherOrder(amountOrder(50));
    const fresh = generateVoucherCode();
    const draws = [takenCode, fresh];
    const issued = await db().transaction((tx) =>
      issueVoucher(tx, orderId, 12, () => draws.shift() ?? generateVoucherCode()),
    );
    expect(issued).toMatchObject({ id: voucherId, code: fresh, status: "active" });
    expect(draws).toEqual([]);
  });
});
