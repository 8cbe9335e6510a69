import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  cardPaidReport,
  journalRowsOf,
  mailJobsOf,
  orderRow,
  placeCardOrder,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import { db } from "../db/client.server";
import { paymentAttempts } from "../db/schema";
import { applyPaymentStatus } from "./apply-payment.server";
import { buyerPaymentEmail, ownerPaymentEmail } from "./emails.server";
import { verifyJournal } from "./journal.server";

// The one function that applies a payment status, on a real PostgreSQL with the job queue: reports that
// race, come twice, come out of order, come late, disagree with our amount, or pay an order twice.

useAppDatabase({ jobs: true });

const { effects: kindEffects } = usePaymentsInMemory();

const success = cardPaidReport;

const paidCount = (orderId: string) =>
  kindEffects().paid.filter((paid) => paid.orderId === orderId).length;

describe("applyPaymentStatus", () => {
  it("applies one success reported 3 times by the webhook while 10 return pages report it: once", async () => {
    const { orderId, reference } = await placeCardOrder();
    const reports = [
      ...Array.from({ length: 3 }, () => success(reference, 15_000)),
      ...Array.from({ length: 10 }, () => success(reference, 15_000, { source: "return" })),
    ];
    const outcomes = await Promise.all(reports.map((report) => applyPaymentStatus(report)));
    expect(outcomes.filter((result) => result.outcome === "applied")).toHaveLength(1);
    expect(outcomes.filter((result) => result.outcome === "already_applied")).toHaveLength(12);

    const journal = await journalRowsOf(orderId);
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({
      kind: "payment",
      amountCents: 15_000,
      method: "card",
      providerReference: `pi_${reference}`,
    });
    expect(paidCount(orderId)).toBe(1);
    expect(await mailJobsOf(orderId)).toEqual(["payment-buyer:paid"]);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", latePayment: false });
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("keeps a paid order paid when `expired` arrives after `succeeded`", async () => {
    const { orderId, reference } = await placeCardOrder();
    expect((await applyPaymentStatus(success(reference, 15_000))).outcome).toBe("applied");
    const late = await applyPaymentStatus({ ...success(reference, 15_000), status: "expired" });
    expect(late).toMatchObject({
      outcome: "ignored",
      attemptStatus: "succeeded",
      orderStatus: "paid",
    });
    const failed = await applyPaymentStatus({ ...success(reference, 15_000), status: "failed" });
    expect(failed.outcome).toBe("ignored");
    expect(await orderRow(orderId)).toMatchObject({ status: "paid" });
    expect(kindEffects().released).not.toContain(orderId);
    expect(await journalRowsOf(orderId)).toHaveLength(1);
  });

  it("applies a success after the expiry as a late payment, and tells the owner", async () => {
    const { orderId, attemptId, reference } = await placeCardOrder();
    const expired = await applyPaymentStatus({
      attemptId,
      status: "expired",
      amountCents: null,
      currency: null,
      paymentReference: null,
      source: "expiry",
    });
    expect(expired).toMatchObject({ outcome: "applied", orderStatus: "expired" });
    expect(kindEffects().released).toContain(orderId);

    const paid = await applyPaymentStatus(success(reference, 15_000));
    expect(paid).toMatchObject({
      outcome: "late",
      attemptStatus: "succeeded",
      orderStatus: "paid",
    });
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", latePayment: true });
    expect(kindEffects().paid.filter((entry) => entry.orderId === orderId)).toEqual([
      { orderId, late: true, source: "webhook" },
    ]);
    const journal = await journalRowsOf(orderId);
    expect(journal).toHaveLength(1);
    expect(journal[0]?.details).toMatchObject({ late: true, source: "webhook" });
    expect(await mailJobsOf(orderId)).toEqual([
      "payment-buyer:expired",
      "payment-buyer:paid",
      "payment-owner:late",
    ]);
  });

  it("holds a success whose amount or currency differs from the order's: nothing applied", async () => {
    for (const report of [
      (reference: string) => success(reference, 14_999),
      (reference: string) => success(reference, 15_000, { currency: "usd" }),
    ]) {
      const { orderId, attemptId, reference } = await placeCardOrder();
      const held = await applyPaymentStatus(report(reference));
      expect(held).toMatchObject({
        outcome: "held",
        attemptStatus: "held",
        orderStatus: "awaiting_payment",
      });
      const [attempt] = await db()
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.id, attemptId));
      expect(attempt?.heldReason).toMatch(/149,99|USD/);
      expect(await orderRow(orderId)).toMatchObject({ status: "awaiting_payment", paidAt: null });
      expect(await journalRowsOf(orderId)).toEqual([]);
      expect(paidCount(orderId)).toBe(0);
      expect(await mailJobsOf(orderId)).toEqual(["payment-owner:held"]);
      // The right amount afterwards does not apply it either: the owner decides.
      expect((await applyPaymentStatus(success(reference, 15_000))).outcome).toBe("ignored");
      expect(await journalRowsOf(orderId)).toEqual([]);
    }
  });

  it("records a second attempt paying a paid order as a duplicate to refund, without a second onPaid", async () => {
    const { orderId, reference } = await placeCardOrder();
    const second = await db()
      .insert(paymentAttempts)
      .values({
        orderId,
        provider: "stripe",
        providerReference: `cs_test_${randomUUID()}`,
        amountCents: 15_000,
        idempotencyKey: randomUUID(),
      })
      .returning();
    const secondReference = second[0]?.providerReference ?? "";
    // Both paid at once: one pays the order, the other is the duplicate, whichever comes first.
    const outcomes = await Promise.all([
      applyPaymentStatus(success(reference, 15_000)),
      applyPaymentStatus(success(secondReference, 15_000)),
    ]);
    expect(outcomes.map((result) => result.outcome).sort()).toEqual(["applied", "duplicate"]);
    expect(paidCount(orderId)).toBe(1);
    const attempts = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    expect(attempts.map((attempt) => [attempt.status, attempt.duplicate]).sort()).toEqual([
      ["succeeded", false],
      ["succeeded", true],
    ]);
    // The money is real: both in the journal, the second marked.
    const journal = await journalRowsOf(orderId);
    expect(journal.map((row) => row.amountCents)).toEqual([15_000, 15_000]);
    expect(journal.filter((row) => row.details.duplicate === true)).toHaveLength(1);
    expect(await mailJobsOf(orderId)).toEqual(["payment-buyer:paid", "payment-owner:duplicate"]);
    // Reported again, it stays one duplicate.
    expect((await applyPaymentStatus(success(secondReference, 15_000))).outcome).toBe(
      "already_applied",
    );
    expect(await journalRowsOf(orderId)).toHaveLength(2);
  });

  it("answers an unknown reference without writing anything", async () => {
    expect(await applyPaymentStatus(success("cs_test_unknown", 100))).toMatchObject({
      outcome: "unknown_attempt",
      orderId: null,
    });
  });

  it("writes its e-mails in French from the rows as they stand when they leave", async () => {
    const { orderId, attemptId, reference } = await placeCardOrder(12_345);
    await applyPaymentStatus(success(reference, 12_000));
    const held = await ownerPaymentEmail({ orderId, attemptId, event: "held" });
    expect(held?.subject).toBe(
      "Paiement à vérifier : le montant reçu diffère de la commande (123,45\u00a0€)",
    );
    expect(held?.text).toContain("un montant de 120\u00a0€ au lieu de 123,45\u00a0€");
    expect(held?.text).toMatch(/\/admin\/ventes\/[0-9a-f-]{36}/);

    const paid = await placeCardOrder(4_050);
    await applyPaymentStatus(success(paid.reference, 4_050));
    const mail = await buyerPaymentEmail({ orderId: paid.orderId, event: "paid" });
    expect(mail?.subject).toBe("Paiement reçu : 40,50\u00a0€");
    expect(mail?.text).toMatch(/\/commande\/[A-Za-z0-9_-]{43}/);
    // An order paid since its expiry was queued is not told it expired.
    expect(await buyerPaymentEmail({ orderId: paid.orderId, event: "expired" })).toBeNull();
  });
});
