import { and, eq, inArray, sql } from "drizzle-orm";
import { CURRENCY } from "~/lib/payments/model";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { paymentAttempts, refunds } from "../db/schema";
import { log } from "../logger.server";
import { applyPaymentStatus, type PaymentOutcome } from "./apply-payment.server";
import { queueBuyerPaymentMail } from "./emails.server";
import { appendJournal } from "./journal.server";
import {
  COUNTED_REFUNDS,
  insertRefund,
  lockOrder,
  sendRefundAsked,
  type RefundRecord,
} from "./orders.server";
import { PaymentRefusedError } from "./refusals.server";

/*
 * The owner's decision on a held payment (decision 0172): the provider took another total than our
 * order's, nothing was applied, and she either accepts it as it came (« Accepter ce paiement », through
 * applyPaymentStatus with source `owner`) or gives it back whole (« Rembourser ce paiement »: the attempt
 * `returned`, the money received journalled, then refunded through the provider). Each is a
 * compare-and-set on the held attempt: two clicks, or a click and a webhook, change it once, and an
 * accepted payment cannot be returned nor a returned one accepted.
 */

async function attemptOf(orderId: string, attemptId: string) {
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.orderId, orderId)));
  if (!attempt) throw new PaymentRefusedError("not_found", "Ce paiement n'existe pas.");
  return attempt;
}

const ALREADY_ACCEPTED =
  "Ce paiement a déjà été accepté : pour rendre de l'argent au client, utilisez « Rembourser ».";

/**
 * « Accepter ce paiement »: the held attempt applied as paid, for the amount the provider took (its
 * journal row), the order paid (late if it had been released) and its kind's effects run once. A second
 * click answers `already_applied`.
 */
export async function acceptHeldPayment(
  orderId: string,
  attemptId: string,
): Promise<PaymentOutcome> {
  const attempt = await attemptOf(orderId, attemptId);
  const refuse = async () => {
    const current = await attemptOf(orderId, attemptId);
    if (current.status === "returned") throw new PaymentRefusedError("held_returned");
    throw new PaymentRefusedError("not_held");
  };
  if (attempt.status === "succeeded" && attempt.heldReason !== null) {
    return {
      outcome: "already_applied",
      attemptId,
      orderId,
      attemptStatus: attempt.status,
      orderStatus: null,
    };
  }
  if (attempt.status !== "held") return refuse();
  if (attempt.heldCurrency !== null && attempt.heldCurrency !== CURRENCY) {
    throw new PaymentRefusedError("held_other_currency");
  }
  const outcome = await applyPaymentStatus({
    attemptId,
    status: "succeeded",
    amountCents: null,
    currency: null,
    paymentReference: null,
    source: "owner",
    acceptHeld: true,
  });
  // Returned by a refund that came first.
  if (outcome.outcome === "ignored" || outcome.outcome === "unknown_attempt") return refuse();
  log.info("held_payment_accepted", { orderId, attemptId, outcome: outcome.outcome });
  return outcome;
}

/**
 * « Rembourser ce paiement »: under the order's lock, the held attempt becomes `returned` (the money
 * received, for what the provider took, written in the journal: it is real and goes back), then the whole
 * of it is refunded through the provider with the refund's key. The order is left as the rules leave an
 * unpaid one (released at its deadline). A returned attempt whose refund failed is refunded again the
 * same way.
 */
export async function refundHeldPayment(
  orderId: string,
  attemptId: string,
  reason: string,
): Promise<RefundRecord> {
  const { refund, attempt } = await db().transaction(async (tx) => {
    await lockOrder(tx, orderId);
    const [attempt] = await tx
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.orderId, orderId)))
      .for("update");
    if (!attempt) throw new PaymentRefusedError("not_found", "Ce paiement n'existe pas.");
    if (attempt.status === "succeeded" && attempt.heldReason !== null) {
      throw new PaymentRefusedError("not_held", ALREADY_ACCEPTED);
    }
    let returned = attempt;
    if (attempt.status === "held") {
      const received = attempt.heldAmountCents ?? attempt.amountCents;
      const at = now();
      const [changed] = await tx
        .update(paymentAttempts)
        .set({ status: "returned", amountCents: received, updatedAt: at })
        .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.status, "held")))
        .returning();
      if (!changed) throw new PaymentRefusedError("not_held");
      returned = changed;
      await appendJournal(tx, {
        kind: "payment",
        orderId,
        attemptId,
        amountCents: received,
        method: attempt.provider === "stripe" ? "card" : (attempt.means ?? attempt.provider),
        providerReference: attempt.paymentReference ?? attempt.providerReference,
        details: {
          source: "owner",
          returned: true,
          ...(attempt.heldCurrency && attempt.heldCurrency !== CURRENCY
            ? { currency: attempt.heldCurrency }
            : {}),
        },
      });
      // The buyer told once, with the refund on its way.
      await queueBuyerPaymentMail({ orderId, event: "returned", attemptId }, { tx });
    } else if (attempt.status !== "returned") {
      throw new PaymentRefusedError("not_held");
    }
    const [given] = await tx
      .select({
        cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int`,
      })
      .from(refunds)
      .where(and(eq(refunds.attemptId, attemptId), inArray(refunds.status, COUNTED_REFUNDS)));
    const left = returned.amountCents - (given?.cents ?? 0);
    if (left <= 0) {
      throw new PaymentRefusedError(
        "refund_not_open",
        "Ce paiement est déjà remboursé, ou son remboursement est en cours.",
      );
    }
    return { refund: await insertRefund(tx, returned, left, reason), attempt: returned };
  });
  log.info("held_payment_returned", { orderId, attemptId, refundId: refund.id });
  return sendRefundAsked(refund, attempt);
}
