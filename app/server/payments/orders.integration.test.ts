import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  journalRowsOf,
  mailJobsOf,
  newVoucherOrder,
  orderRow,
  ordersWithKey,
  placeOrder,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import { purgeExpiredPersonalData } from "../boot/personal-data-purge.server";
import { db } from "../db/client.server";
import { moneyJournal, orderLines, orders, paymentAttempts, refunds } from "../db/schema";
import { applyPaymentStatus } from "./apply-payment.server";
import {
  createOrder,
  findOrderByToken,
  markPaidOffline,
  markRefundedOffline,
  requestRefund,
  retryCheckout,
} from "./orders.server";
import { PaymentRefusedError } from "./refusals.server";
import { TRANSFER_REFERENCE_PATTERN } from "./transfer-reference";

// Orders on a real PostgreSQL: one order per submitted form however often it is posted, a provider that
// fails, « Marquer payé », refunds that never give back more than was paid, and the buyer's page.

useAppDatabase({ jobs: true });

const { card, effects: kindEffects } = usePaymentsInMemory();

const attemptsOf = (orderId: string) =>
  db()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, orderId))
    .orderBy(paymentAttempts.createdAt);

describe("createOrder", () => {
  it("makes one order, its lines and one checkout from a form submitted 5 times at once", async () => {
    const input = newVoucherOrder("card", 12_000, {
      lines: [
        { label: "Séance portrait", quantity: 1, unitPriceCents: 9_000, vatRate: 2000 },
        { label: "Tirage 20 × 30", quantity: 2, unitPriceCents: 1_500, vatRate: null },
      ],
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => createOrder(input)));
    expect(new Set(answers.map((answer) => answer.orderId)).size).toBe(1);
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(await ordersWithKey(input.idempotencyKey)).toBe(1);
    const orderId = answers[0]?.orderId ?? "";
    expect(await orderRow(orderId)).toMatchObject({
      amountCents: 12_000,
      currency: "EUR",
      status: "awaiting_payment",
    });
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, orderId));
    expect(lines).toHaveLength(2);
    const attempts = await attemptsOf(orderId);
    expect(attempts).toHaveLength(1);
    // Every submit that asked the provider asked with the attempt's key: one checkout.
    const keys = card.calls.create
      .filter((call) => call.orderId === orderId)
      .map((call) => call.idempotencyKey);
    expect(new Set(keys)).toEqual(new Set([attempts[0]?.idempotencyKey]));
    expect(new Set(answers.map((answer) => answer.redirectUrl))).toEqual(
      new Set([attempts[0]?.redirectUrl]),
    );
    expect(attempts[0]?.redirectUrl).toMatch(/^https:\/\/checkout\.example\.test\//);
  });

  it("answers a key's order only to the same request: another request or another kind is refused", async () => {
    const input = newVoucherOrder("transfer", 8_000, { request: { recipient: "Léa", euros: 80 } });
    const first = await createOrder(input);
    expect((await createOrder(input)).orderId).toBe(first.orderId);
    // The same key asking for something else: a page shown again by « Précédent », then changed.
    await expect(
      createOrder({ ...input, request: { recipient: "Lucien", euros: 80 } }),
    ).rejects.toMatchObject({ code: "key_reused", status: 409 });
    await expect(
      createOrder({ ...input, kind: "gallery_photos", request: undefined }),
    ).rejects.toMatchObject({ code: "key_reused" });
    expect(await ordersWithKey(input.idempotencyKey)).toBe(1);
  });

  it("refuses an order whose lines make no amount, or without a buyer to reach", async () => {
    await expect(createOrder(newVoucherOrder("card", 0))).rejects.toBeInstanceOf(
      PaymentRefusedError,
    );
    const noAddress = newVoucherOrder("card", 1_000, {
      buyer: { name: "Camille", email: "camille" },
    });
    await expect(createOrder(noAddress)).rejects.toMatchObject({ code: "invalid_order" });
    expect(await ordersWithKey(noAddress.idempotencyKey)).toBe(0);
  });

  it("gives a transfer its BC- reference and no page to go to", async () => {
    const order = await placeOrder("transfer", 8_000);
    expect(order.transferReference).toMatch(TRANSFER_REFERENCE_PATTERN);
    expect(order).toMatchObject({ redirectUrl: null, checkout: "ready" });
    const [attempt] = await attemptsOf(order.orderId);
    expect(attempt).toMatchObject({
      provider: "transfer",
      providerReference: order.transferReference,
      status: "open",
    });
  });

  it("leaves the order waiting when the provider fails, and makes a new checkout on retry", async () => {
    card.failNext(true);
    const order = await placeOrder("card");
    card.failNext(false);
    expect(order).toMatchObject({ checkout: "failed", redirectUrl: null });
    expect(await orderRow(order.orderId)).toMatchObject({ status: "awaiting_payment" });
    const [failed] = await attemptsOf(order.orderId);
    expect(failed).toMatchObject({ status: "failed", providerReference: null });
    expect(failed?.error).toMatch(/ne répond pas/);

    const retried = await retryCheckout(order.orderId);
    expect(retried).toMatchObject({ checkout: "ready", orderId: order.orderId });
    expect(retried.redirectUrl).toMatch(/^https:\/\/checkout\.example\.test\//);
    expect((await attemptsOf(order.orderId)).map((attempt) => attempt.status)).toEqual([
      "failed",
      "open",
    ]);
  });

  it("opens the order's page from its token only", async () => {
    const order = await placeOrder("studio", 5_000);
    const page = await findOrderByToken(order.token);
    expect(page?.order.id).toBe(order.orderId);
    expect(page?.lines).toHaveLength(1);
    // Another token of the same shape (its first character changed: the last one encodes only 4 bits,
    // and was already « A » once in 16 runs).
    const other = `${order.token.startsWith("A") ? "B" : "A"}${order.token.slice(1)}`;
    expect(await findOrderByToken(other)).toBeNull();
    expect(await findOrderByToken("not-a-token")).toBeNull();
    // Only the token's hash is kept.
    const stored = await db().execute(
      sql`select count(*)::int as count from orders where token_hash = ${order.token}`,
    );
    expect(stored.rows[0]).toEqual({ count: 0 });
  });
});

describe("« Marquer payé »", () => {
  it("applies an offline payment once, however often the owner clicks", async () => {
    const order = await placeOrder("transfer", 8_000);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => markPaidOffline(order.orderId, "transfer")),
    );
    const outcomes = results.map((result) =>
      result.status === "fulfilled" ? result.value.outcome : (result.reason as Error).name,
    );
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1);
    expect(
      outcomes.every((outcome) =>
        ["applied", "already_applied", "PaymentRefusedError"].includes(outcome),
      ),
    ).toBe(true);
    expect(kindEffects().paid.filter((paid) => paid.orderId === order.orderId)).toEqual([
      { orderId: order.orderId, late: false, source: "owner" },
    ]);
    const journal = await journalRowsOf(order.orderId);
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({ amountCents: 8_000, method: "transfer" });
    await expect(markPaidOffline(order.orderId, "cash")).rejects.toMatchObject({
      code: "already_paid",
    });
  });

  it("records a cheque at the studio for a card order as its own attempt", async () => {
    const order = await placeOrder("card", 6_000);
    await applyPaymentStatus({
      attemptId: (await attemptsOf(order.orderId))[0]?.id ?? "",
      status: "failed",
      amountCents: null,
      currency: null,
      paymentReference: null,
      source: "webhook",
    });
    expect((await markPaidOffline(order.orderId, "cheque")).outcome).toBe("applied");
    const attempts = await attemptsOf(order.orderId);
    expect(attempts.map((attempt) => [attempt.provider, attempt.status, attempt.means])).toEqual([
      ["stripe", "failed", null],
      ["studio", "succeeded", "cheque"],
    ]);
    expect((await journalRowsOf(order.orderId))[0]).toMatchObject({ method: "cheque" });
  });

  it("closes the card checkout still open once paid at the studio: it can no longer be paid", async () => {
    const order = await placeOrder("card", 6_000);
    const [checkout] = await attemptsOf(order.orderId);
    const closes = card.calls.expire;
    expect((await markPaidOffline(order.orderId, "cash")).outcome).toBe("applied");
    expect(card.calls.expire).toBe(closes + 1);
    const attempts = await attemptsOf(order.orderId);
    expect(attempts.map((attempt) => [attempt.provider, attempt.status])).toEqual([
      ["stripe", "expired"],
      ["studio", "succeeded"],
    ]);
    expect(await card.provider.retrieve(checkout?.providerReference ?? "")).toMatchObject({
      status: "expired",
    });
    expect(await journalRowsOf(order.orderId)).toHaveLength(1);

    // Paid on its page before the studio's entry, its webhook not yet there: the close finds the payment,
    // recorded as the duplicate it is, and the owner is told to give it back.
    const paidTwice = await placeOrder("card", 6_000);
    const [page] = await attemptsOf(paidTwice.orderId);
    card.pay(page?.providerReference ?? "", 6_000);
    expect((await markPaidOffline(paidTwice.orderId, "cash")).outcome).toBe("applied");
    expect((await journalRowsOf(paidTwice.orderId)).map((row) => row.amountCents)).toEqual([
      6_000, 6_000,
    ]);
    expect(await mailJobsOf(paidTwice.orderId)).toContain("payment-owner:duplicate");
  });
});

describe("refunds", () => {
  it("never give back more than was paid, whatever asks at once", async () => {
    const order = await placeOrder("studio", 5_000);
    await markPaidOffline(order.orderId, "cash");
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => requestRefund(order.orderId, 1_000, "Rétractation")),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    for (const result of results) {
      if (result.status === "rejected") {
        expect(result.reason).toMatchObject({ code: "refund_too_large" });
      }
    }
    const given = await db().select().from(refunds).where(eq(refunds.orderId, order.orderId));
    expect(given.reduce((sum, refund) => sum + refund.amountCents, 0)).toBe(5_000);
    expect(new Set(given.map((refund) => refund.status))).toEqual(new Set(["to_refund_offline"]));
    // Owed, not given yet: no journal row until the owner marks each done.
    expect(await journalRowsOf(order.orderId)).toHaveLength(1);

    await Promise.all(given.map((refund) => markRefundedOffline(refund.id)));
    await markRefundedOffline(given[0]?.id ?? "");
    const journal = await journalRowsOf(order.orderId);
    expect(journal.map((row) => row.amountCents)).toEqual([
      5_000, -1_000, -1_000, -1_000, -1_000, -1_000,
    ]);
    expect(await orderRow(order.orderId)).toMatchObject({ status: "refunded" });
    const told = kindEffects().refunded.filter((refund) => refund.orderId === order.orderId);
    expect(told).toHaveLength(5);
    expect(told.filter((refund) => refund.fullyRefunded)).toHaveLength(1);
    await expect(requestRefund(order.orderId, 1, "Encore")).rejects.toMatchObject({
      code: "refund_too_large",
    });
  });

  it("refund a card payment through the provider with the refund's key, its journal row once done", async () => {
    const order = await placeOrder("card", 9_000);
    const [attempt] = await attemptsOf(order.orderId);
    card.pay(attempt?.providerReference ?? "", 9_000);
    await applyPaymentStatus({
      provider: "stripe",
      providerReference: attempt?.providerReference ?? "",
      status: "succeeded",
      amountCents: 9_000,
      currency: "eur",
      paymentReference: `pi_${attempt?.providerReference}`,
      source: "return",
    });
    const refund = await requestRefund(order.orderId, 4_000, "Geste commercial");
    expect(refund).toMatchObject({ status: "succeeded", amountCents: 4_000 });
    expect(card.calls.refund.at(-1)).toEqual({
      paymentReference: `pi_${attempt?.providerReference}`,
      amountCents: 4_000,
      idempotencyKey: refund.idempotencyKey,
      // Carried back in the provider's events (decision 0171).
      refundId: refund.id,
    });
    const journal = await journalRowsOf(order.orderId);
    expect(journal.map((row) => [row.kind, row.amountCents, row.method])).toEqual([
      ["payment", 9_000, "card"],
      ["refund", -4_000, "card"],
    ]);
    expect(await orderRow(order.orderId)).toMatchObject({ status: "paid" });
  });

  it("refund an owner's confirmation once, posted 5 times at once and again later", async () => {
    // Paid twice (on its card page, then at the studio): the card's payment, the duplicate, is refunded.
    const order = await placeOrder("card", 6_000);
    const [page] = await attemptsOf(order.orderId);
    card.pay(page?.providerReference ?? "", 6_000);
    await markPaidOffline(order.orderId, "cash");
    const asked = card.calls.refund.length;
    const formKey = randomUUID();
    const confirm = () => requestRefund(order.orderId, 5_000, "Geste commercial", { formKey });

    const answers = await Promise.all(Array.from({ length: 5 }, confirm));
    expect(answers.map((answer) => answer.repeated).sort()).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
    // Found again though what is left of the payment it took (10 €) would no longer fit it.
    const again = await confirm();
    const given = await db().select().from(refunds).where(eq(refunds.orderId, order.orderId));
    expect(given).toHaveLength(1);
    expect(new Set([...answers, again].map((answer) => answer.id))).toEqual(
      new Set([given[0]?.id]),
    );
    expect(given[0]?.idempotencyKey).toBe(`${formKey}:${given[0]?.attemptId}`);
    expect(card.calls.refund.slice(asked)).toEqual([
      expect.objectContaining({ amountCents: 5_000, idempotencyKey: given[0]?.idempotencyKey }),
    ]);
  });

  it("refuse an order not paid", async () => {
    const order = await placeOrder("transfer", 3_000);
    await expect(requestRefund(order.orderId, 1_000, "")).rejects.toMatchObject({
      code: "not_paid",
    });
  });
});

describe("the personal-data purge", () => {
  it("keeps orders and their money rows (accounting records, 10 years)", async () => {
    const order = await placeOrder("studio", 2_000);
    await markPaidOffline(order.orderId, "cash");
    await db()
      .update(orders)
      .set({
        createdAt: new Date("2020-01-01T00:00:00Z"),
        updatedAt: new Date("2020-01-01T00:00:00Z"),
        paidAt: new Date("2020-01-01T00:00:00Z"),
      })
      .where(eq(orders.id, order.orderId));
    await purgeExpiredPersonalData(db());
    expect(await orderRow(order.orderId)).toMatchObject({ buyerName: "Camille Martin" });
    const rows = await db()
      .select()
      .from(moneyJournal)
      .where(eq(moneyJournal.orderId, order.orderId));
    expect(rows).toHaveLength(1);
  });
});
