import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { useAppDatabase } from "../../../tests/support/database";
import {
  journalRowsOf,
  mailJobsOf,
  orderRow,
  placeCardOrder,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import { db } from "../db/client.server";
import { orders, paymentAttempts, refunds } from "../db/schema";
import { applyPaymentStatus } from "./apply-payment.server";
import { acceptHeldPayment, refundHeldPayment } from "./held-payments.server";
import { buyerPaymentEmail } from "./emails.server";
import { completeRefund } from "./orders.server";

// The owner's decision on a held payment (decision 0172) on a real PostgreSQL: accepted once for what the
// provider took, however often she clicks and whatever the webhook says meanwhile; or refunded whole, the
// order left unpaid; never both.

useAppDatabase({ jobs: true });

const { card, effects } = usePaymentsInMemory();

/** A card order of 150 € whose provider says it took `takenCents`: held. */
async function heldOrder(takenCents: number, currency = "eur") {
  const placed = await placeCardOrder(15_000);
  const report = {
    provider: "stripe" as const,
    providerReference: placed.reference,
    status: "succeeded" as const,
    amountCents: takenCents,
    currency,
    paymentReference: `pi_${placed.reference}`,
    source: "webhook" as const,
  };
  expect((await applyPaymentStatus(report)).outcome).toBe("held");
  return { ...placed, report };
}

const attemptRow = async (id: string) =>
  (await db().select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0];

const refundsOf = (orderId: string) =>
  db().select().from(refunds).where(eq(refunds.orderId, orderId));

const money = async (orderId: string) =>
  (await journalRowsOf(orderId))
    .filter((row) => row.kind === "payment" || row.kind === "refund")
    .map((row) => [row.kind, row.amountCents]);

describe("« Accepter ce paiement »", () => {
  it("applies a held payment once for what was taken, though clicked twice at once and raced by its webhook", async () => {
    const { orderId, attemptId, report } = await heldOrder(14_000);
    expect(await attemptRow(attemptId)).toMatchObject({
      status: "held",
      heldAmountCents: 14_000,
      heldCurrency: "EUR",
    });
    expect(await mailJobsOf(orderId)).toEqual(["payment-owner:held"]);

    const outcomes = await Promise.all([
      acceptHeldPayment(orderId, attemptId),
      acceptHeldPayment(orderId, attemptId),
      applyPaymentStatus(report),
    ]);
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual([
      "already_applied",
      "applied",
      expect.stringMatching(/^(already_applied|ignored)$/),
    ]);
    expect(await money(orderId)).toEqual([["payment", 14_000]]);
    expect(await attemptRow(attemptId)).toMatchObject({ status: "succeeded", amountCents: 14_000 });
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", latePayment: false });
    expect(effects().paid.filter((paid) => paid.orderId === orderId)).toEqual([
      { orderId, late: false, source: "owner" },
    ]);
    expect(await mailJobsOf(orderId)).toEqual(["payment-owner:held", "payment-buyer:paid"]);

    // Later clicks and the webhook again: nothing more.
    expect((await acceptHeldPayment(orderId, attemptId)).outcome).toBe("already_applied");
    expect((await applyPaymentStatus(report)).outcome).toBe("already_applied");
    expect(await money(orderId)).toEqual([["payment", 14_000]]);
    // What can be refunded is what was taken.
    await expect(refundHeldPayment(orderId, attemptId, "")).rejects.toMatchObject({
      code: "not_held",
    });
  });

  it("makes an order released meanwhile paid late", async () => {
    const { orderId, attemptId } = await heldOrder(16_000);
    await db().update(orders).set({ status: "expired" }).where(eq(orders.id, orderId));
    expect((await acceptHeldPayment(orderId, attemptId)).outcome).toBe("late");
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", latePayment: true });
    expect(await money(orderId)).toEqual([["payment", 16_000]]);
    expect(effects().paid.filter((paid) => paid.orderId === orderId)).toHaveLength(1);
    expect((await acceptHeldPayment(orderId, attemptId)).givenBack).toBeUndefined();
  });

  it("says when the order's kind gives the money back at once, what it paid for gone meanwhile", async () => {
    const { orderId, attemptId } = await heldOrder(16_000);
    await db().update(orders).set({ status: "cancelled" }).where(eq(orders.id, orderId));
    effects().givesBack.add(orderId);
    expect(await acceptHeldPayment(orderId, attemptId)).toMatchObject({
      outcome: "late",
      givenBack: true,
    });
    // Not told « paiement reçu » for what she will get back.
    expect(await mailJobsOf(orderId)).not.toContain("payment-buyer:paid");
  });

  it("refuses an attempt that is not held, and a payment in another currency", async () => {
    const { orderId, attemptId } = await placeCardOrder(15_000);
    await expect(acceptHeldPayment(orderId, attemptId)).rejects.toMatchObject({
      code: "not_held",
      status: 409,
      message: expect.stringContaining("n'attend pas votre décision"),
    });
    const other = await heldOrder(15_000, "usd");
    await expect(acceptHeldPayment(other.orderId, other.attemptId)).rejects.toMatchObject({
      code: "held_other_currency",
    });
    expect(await orderRow(other.orderId)).toMatchObject({ status: "awaiting_payment" });
    expect(await money(other.orderId)).toEqual([]);
  });
});

describe("« Rembourser ce paiement »", () => {
  it("gives back the whole amount taken through the provider; the order stays unpaid", async () => {
    const { orderId, attemptId } = await heldOrder(16_000);
    const refund = await refundHeldPayment(orderId, attemptId, "Montant erroné");
    expect(refund).toMatchObject({ status: "succeeded", amountCents: 16_000 });
    expect(card.calls.refund.at(-1)).toMatchObject({
      amountCents: 16_000,
      paymentReference: expect.stringMatching(/^pi_/),
      idempotencyKey: refund.idempotencyKey,
    });
    expect(await attemptRow(attemptId)).toMatchObject({ status: "returned", amountCents: 16_000 });
    // The money came and went back: both in the journal.
    expect(await money(orderId)).toEqual([
      ["payment", 16_000],
      ["refund", -16_000],
    ]);
    expect(await orderRow(orderId)).toMatchObject({ status: "awaiting_payment" });
    expect(effects().paid.filter((paid) => paid.orderId === orderId)).toEqual([]);
    expect(effects().refunded.filter((told) => told.orderId === orderId)).toEqual([]);
    // The buyer told once why her money comes back.
    expect(await mailJobsOf(orderId)).toEqual(["payment-owner:held", "payment-buyer:returned"]);
    const told = await buyerPaymentEmail({ orderId, event: "returned", attemptId });
    expect(told?.subject).toBe(`Remboursement de votre paiement de ${formatCents(16_000)}`);
    expect(told?.text).toContain(
      `Le montant payé (${formatCents(16_000)}) ne correspondait pas à votre commande de ${formatCents(15_000)}`,
    );

    await expect(acceptHeldPayment(orderId, attemptId)).rejects.toMatchObject({
      code: "held_returned",
    });
    await expect(refundHeldPayment(orderId, attemptId, "")).rejects.toMatchObject({
      code: "refund_not_open",
    });
    expect(await refundsOf(orderId)).toHaveLength(1);
  });

  it("races « Accepter »: exactly one of them wins", async () => {
    const { orderId, attemptId } = await heldOrder(14_500);
    const [accepted, returned] = await Promise.allSettled([
      acceptHeldPayment(orderId, attemptId),
      refundHeldPayment(orderId, attemptId, "Erreur"),
    ]);
    const wins = [accepted, returned].filter((result) => result.status === "fulfilled");
    expect(wins).toHaveLength(1);
    const attempt = await attemptRow(attemptId);
    if (attempt?.status === "succeeded") {
      expect(await money(orderId)).toEqual([["payment", 14_500]]);
      expect(await refundsOf(orderId)).toEqual([]);
    } else {
      expect(attempt?.status).toBe("returned");
      expect(await money(orderId)).toEqual([
        ["payment", 14_500],
        ["refund", -14_500],
      ]);
      expect(await orderRow(orderId)).toMatchObject({ status: "awaiting_payment" });
    }
  });

  it("can be asked again after the provider refused it", async () => {
    const { orderId, attemptId } = await heldOrder(15_500);
    card.refundOutcome("pending");
    try {
      const first = await refundHeldPayment(orderId, attemptId, "Erreur");
      expect(first.status).toBe("pending");
      await expect(refundHeldPayment(orderId, attemptId, "Encore")).rejects.toMatchObject({
        code: "refund_not_open",
      });
      await completeRefund(first.id, "failed", first.providerReference, "Refusé.");
    } finally {
      card.refundOutcome("succeeded");
    }
    const again = await refundHeldPayment(orderId, attemptId, "Nouvel essai");
    expect(again).toMatchObject({ status: "succeeded", amountCents: 15_500 });
    expect(await money(orderId)).toEqual([
      ["payment", 15_500],
      ["refund", -15_500],
    ]);
  });
});

describe("a held payment's order released at its deadline", () => {
  it("tells the buyer her payment came and is being checked, never that it did not arrive", async () => {
    const { orderId } = await heldOrder(14_000);
    // The expiry job releases an order with no attempt open once `pay_by` has passed: a held one too.
    await db().update(orders).set({ status: "expired" }).where(eq(orders.id, orderId));
    const told = await buyerPaymentEmail({ orderId, event: "expired" });
    expect(told?.text).toContain(PAYMENT_HELD_MESSAGE);
    expect(told?.text).not.toContain("ne nous est pas parvenu");
  });
});
