import { and, asc, eq, inArray, lte, or } from "drizzle-orm";
import type { ProviderName } from "~/lib/payments/model";
import { isUuid } from "~/lib/forms";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { paymentAttempts, refunds } from "../db/schema";
import { log } from "../logger.server";
import {
  lockOrder,
  NEVER_MADE,
  outsideRefundKey,
  sendRefund,
  settleRefund,
  type RefundRecord,
} from "./orders.server";
import type { ProviderRefundState, RefundResult } from "./provider.server";
import { OFFLINE_PROVIDERS, paymentProvider } from "./providers.server";
import { PaymentRefusedError } from "./refusals.server";

/*
 * Refunds followed to their end (decision 0171). A refund the provider answered `pending`, or whose call
 * failed, is moved on by whichever comes first: the provider's event (the inbox's job) or the
 * reconciliation job, which asks the provider about it (or sends it again, with its own idempotency key:
 * one refund at the provider). Every end goes through completeRefund: once, with its journal row.
 */

/** A reconciliation leaves a refund this young to its answer and its events. */
const FOLLOW_AFTER_MINUTES = 5;

/**
 * A refund whose call never got an answer is sent again only this long: the provider keeps an
 * idempotency key 24 hours, and a key it has forgotten would refund a second time. Older, it is looked
 * for at the provider by the id it carries (findLostRefund) and ends as found, or failed when none
 * was made.
 */
const RESEND_WITHIN_HOURS = 23;

const resendSince = () => new Date(now().getTime() - RESEND_WITHIN_HOURS * 3_600_000);

const BATCH = 100;

/** `recorded_outside`: a refund made in the provider's dashboard, recorded as the site's (decision 0194). */
export type RefundOutcome =
  "applied" | "already_applied" | "pending" | "ignored" | "unknown_refund" | "recorded_outside";

const outcomeOf = (before: RefundRecord, after: RefundRecord): RefundOutcome =>
  after.status === "pending"
    ? "pending"
    : before.status === after.status
      ? "already_applied"
      : before.status === "pending"
        ? "applied"
        : "ignored";

/** The refunds of `provider` a state names: by our id, by the provider's reference. */
async function refundsNamed(provider: ProviderName, state: ProviderRefundState) {
  const conditions = [
    state.refundId && isUuid(state.refundId) ? eq(refunds.id, state.refundId) : undefined,
    state.refundReference ? eq(refunds.providerReference, state.refundReference) : undefined,
  ].filter((condition) => condition !== undefined);
  if (conditions.length === 0) return [];
  return db()
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(paymentAttempts, eq(paymentAttempts.id, refunds.attemptId))
    .where(and(eq(paymentAttempts.provider, provider), or(...conditions)))
    .limit(1);
}

/**
 * Applies what the provider says of a refund (the webhook's job, source of truth the provider's own):
 * succeeded or failed ends it through completeRefund (the same state again changes nothing); pending keeps
 * its reference; a state that names no refund (Stripe's `charge.refunded`) has the payment's pending
 * refunds asked about. A refund the site did not ask for, made in the provider's dashboard on one of our
 * payments, is recorded as if the owner had made it on the site (`recorded_outside`, decision 0194); one
 * on a payment that is not ours (another business on the same account) is `unknown_refund`.
 */
export async function applyRefundState(
  provider: ProviderName,
  state: ProviderRefundState,
): Promise<RefundOutcome> {
  if (state.refundReference === null && state.refundId === null) {
    const followed = await followPaymentRefunds(provider, state.paymentReference);
    const recorded = await recordOutsideRefunds(provider, state.paymentReference);
    return recorded > 0 ? "recorded_outside" : followed;
  }
  const [found] = await refundsNamed(provider, state);
  if (!found) {
    // Ours carry our id: one that names none, and that we do not know by its reference, was made outside.
    if (state.refundId !== null) return "unknown_refund";
    const recorded = await recordOutsideRefunds(provider, state.paymentReference);
    return recorded > 0 ? "recorded_outside" : "unknown_refund";
  }
  const { refund } = found;
  if (state.status === null) return outcomeOf(refund, await followRefund(refund, provider));
  if (refund.status !== "pending") {
    return refund.status === state.status ? "already_applied" : "ignored";
  }
  try {
    const after = await settleRefund(refund, {
      refundReference: state.refundReference,
      status: state.status,
      failureReason: state.failureReason,
    });
    return outcomeOf(refund, after);
  } catch (error) {
    // Another source ended it the other way meanwhile: the first end stands.
    if (error instanceof PaymentRefusedError && error.code === "refund_not_open") return "ignored";
    throw error;
  }
}

/** The pending refunds of one payment, each asked to the provider. */
async function followPaymentRefunds(
  provider: ProviderName,
  paymentReference: string | null,
): Promise<RefundOutcome> {
  if (!paymentReference) return "ignored";
  const pending = await db()
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(paymentAttempts, eq(paymentAttempts.id, refunds.attemptId))
    .where(
      and(
        eq(paymentAttempts.provider, provider),
        eq(paymentAttempts.paymentReference, paymentReference),
        eq(refunds.status, "pending"),
      ),
    );
  let outcome: RefundOutcome = "ignored";
  for (const { refund } of pending) {
    const moved = outcomeOf(refund, await followRefund(refund, provider));
    if (moved === "applied" || outcome === "ignored") outcome = moved;
  }
  return outcome;
}

/**
 * One pending refund moved on: asked to the provider when it has a reference, sent again (same key)
 * when its call never got one, or looked for once it may no longer be sent.
 */
async function followRefund(refund: RefundRecord, provider: ProviderName): Promise<RefundRecord> {
  if (refund.status !== "pending") return refund;
  if (refund.providerReference) {
    const result = await (await paymentProvider(provider)).retrieveRefund(refund.providerReference);
    return settleRefund(refund, result);
  }
  const [attempt] = await db()
    .select({ paymentReference: paymentAttempts.paymentReference })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.id, refund.attemptId));
  const paymentReference = attempt?.paymentReference ?? null;
  if (refund.createdAt < resendSince()) return findLostRefund(refund, provider, paymentReference);
  return sendRefund(refund, provider, paymentReference);
}

/**
 * A refund whose call never got an answer, past the window in which it may be sent again: the provider
 * is asked for the refund carrying its id. Found, its state is applied; none, the provider never made
 * it: it failed (no money left), and its amount is free for the owner to refund again, told so by e-mail.
 * The provider unreachable, it stays pending for the next reconciliation.
 */
async function findLostRefund(
  refund: RefundRecord,
  provider: ProviderName,
  paymentReference: string | null,
): Promise<RefundRecord> {
  const found = paymentReference
    ? (await (await paymentProvider(provider)).listRefunds(paymentReference)).find(
        (made) => made.refundId === refund.id,
      )
    : undefined;
  return settleRefund(
    refund,
    found
      ? resultOf(found)
      : { refundReference: null, status: "failed", failureReason: NEVER_MADE },
  );
}

const resultOf = (state: ProviderRefundState): RefundResult => ({
  refundReference: state.refundReference,
  status: state.status ?? "pending",
  failureReason: state.failureReason,
});

/** What a refund made outside the site says on its row, its credit note and the e-mails. */
export const OUTSIDE_REFUND_REASON = "Remboursement fait depuis le tableau de bord Stripe";

/**
 * The refunds made in the provider's dashboard on one of our payments (decision 0194), each recorded once
 * as the site's own: a refund row under the order's lock, then its end through settleRefund, so that
 * completeRefund gives it what an owner's refund gets (its journal row, the order `refunded` once nothing
 * paid is left, the kind's onRefunded: a voucher cancelled or lowered, photos locked again; its credit
 * note and the buyer's e-mail, and the owner told what the site did with it). Our own refunds carry our
 * id and are skipped; one that failed moved no money; a payment held for the owner (decision 0172) is
 * hers to settle and is left. The provider's list is the source: an event read again records nothing more.
 * Returns how many were recorded now.
 */
async function recordOutsideRefunds(
  provider: ProviderName,
  paymentReference: string | null,
): Promise<number> {
  if (!paymentReference || OFFLINE_PROVIDERS.includes(provider)) return 0;
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.provider, provider),
        eq(paymentAttempts.paymentReference, paymentReference),
        inArray(paymentAttempts.status, ["succeeded", "returned"]),
      ),
    );
  if (!attempt) return 0;
  const made = await (await paymentProvider(provider)).listRefunds(paymentReference);
  let recorded = 0;
  for (const state of made) {
    const { refundReference, amountCents } = state;
    if (state.refundId !== null || refundReference === null || state.status === "failed") continue;
    if (!amountCents || amountCents <= 0 || (state.currency ?? "eur") !== "eur") {
      log.warn("outside_refund_unreadable", { paymentReference, refundReference });
      continue;
    }
    const inserted = await db().transaction(async (tx) => {
      await lockOrder(tx, attempt.orderId);
      const [known] = await tx
        .select({ id: refunds.id })
        .from(refunds)
        .where(
          or(
            eq(refunds.idempotencyKey, outsideRefundKey(provider, refundReference)),
            and(eq(refunds.attemptId, attempt.id), eq(refunds.providerReference, refundReference)),
          ),
        );
      if (known) return null;
      const [refund] = await tx
        .insert(refunds)
        .values({
          orderId: attempt.orderId,
          attemptId: attempt.id,
          amountCents,
          reason: OUTSIDE_REFUND_REASON,
          status: "pending",
          providerReference: refundReference,
          idempotencyKey: outsideRefundKey(provider, refundReference),
        })
        .returning();
      if (!refund) throw new Error("refunds: no row inserted");
      return refund;
    });
    if (!inserted) continue;
    log.info("outside_refund_recorded", { refundId: inserted.id, refundReference, amountCents });
    await settleRefund(inserted, resultOf(state));
    recorded += 1;
  }
  return recorded;
}

/**
 * The reconciliation's part for refunds: those still pending after a few minutes asked to their
 * provider (an event lost), those whose call failed sent again within the provider's idempotency window
 * and looked for after it. Returns how many came to their end.
 */
export async function followPendingRefunds(): Promise<number> {
  const before = new Date(now().getTime() - FOLLOW_AFTER_MINUTES * 60_000);
  const pending = await db()
    .select({ refund: refunds, provider: paymentAttempts.provider })
    .from(refunds)
    .innerJoin(paymentAttempts, eq(paymentAttempts.id, refunds.attemptId))
    .where(and(eq(refunds.status, "pending"), lte(refunds.createdAt, before)))
    .orderBy(asc(refunds.createdAt))
    .limit(BATCH);
  let ended = 0;
  for (const { refund, provider } of pending) {
    if (OFFLINE_PROVIDERS.includes(provider)) continue;
    try {
      const after = await followRefund(refund, provider);
      if (after.status !== "pending") ended += 1;
    } catch (error) {
      log.warn("refund_reconciliation_failed", { refundId: refund.id, error });
    }
  }
  if (ended > 0) log.info("refunds_reconciled", { ended });
  return ended;
}
