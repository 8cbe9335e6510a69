import { and, asc, eq, isNotNull, lte, notInArray, sql } from "drizzle-orm";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { orders, paymentAttempts } from "../db/schema";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";
import { closeAttempt } from "./orders.server";
import { issueMissingInvoices } from "../invoices/orders.server";
import { announceRelease } from "./order-kinds.server";
import { applyProviderState } from "./provider-state.server";
import { OFFLINE_PROVIDERS } from "./providers.server";
import { followPendingRefunds } from "./refund-status.server";

/*
 * The payments core's recurring jobs (decision 0162), listed in boot/jobs.server: the expiry of checkouts
 * and transfers past their time, and the reconciliation of attempts still open with their provider (a
 * webhook lost). Both report through applyPaymentStatus, so a report they race with is applied once.
 */

const BATCH = 100;

/** A reconciliation leaves a checkout this young to its webhook. */
const RECONCILE_AFTER_MINUTES = 5;

/**
 * Attempts still open past their end: the provider closes the checkout and says its state (a checkout
 * paid at the last moment stays paid), applied with source `expiry`; then orders past their deadline with
 * no attempt open (a checkout that never started) are released. Returns how many attempts and orders.
 */
export async function expireLapsedPayments(): Promise<{ attempts: number; orders: number }> {
  const at = now();
  const lapsed = await db()
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.status, "open"), lte(paymentAttempts.expiresAt, at)))
    .orderBy(asc(paymentAttempts.expiresAt))
    .limit(BATCH);
  let attempts = 0;
  for (const attempt of lapsed) {
    try {
      if (await closeAttempt(attempt)) attempts += 1;
    } catch (error) {
      log.warn("payment_expiry_failed", { attemptId: attempt.id, error });
    }
  }
  const released = await releaseUnpaidOrders(at);
  return { attempts, orders: released };
}

/** Orders awaiting payment past `pay_by` with no attempt open: expired, their kind told, the buyer too. */
async function releaseUnpaidOrders(at: Date): Promise<number> {
  const due = await db()
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, "awaiting_payment"),
        lte(orders.payBy, at),
        sql`not exists (select 1 from payment_attempts a where a.order_id = ${orders.id} and a.status = 'open')`,
      ),
    )
    .limit(BATCH);
  let released = 0;
  for (const { id } of due) {
    const done = await db().transaction(async (tx) => {
      const [order] = await tx
        .update(orders)
        .set({ status: "expired", updatedAt: at })
        .where(
          and(
            eq(orders.id, id),
            eq(orders.status, "awaiting_payment"),
            sql`not exists (select 1 from payment_attempts a where a.order_id = ${id} and a.status = 'open')`,
          ),
        )
        .returning();
      if (!order) return false;
      await announceRelease(tx, order);
      return true;
    });
    if (done) released += 1;
  }
  return released;
}

/**
 * Attempts still open with a provider we can ask, older than a few minutes: their state retrieved and
 * applied (source `reconciliation`) when it is final. Finds what a lost webhook did not say.
 */
export async function reconcileOpenAttempts(): Promise<number> {
  const before = new Date(now().getTime() - RECONCILE_AFTER_MINUTES * 60_000);
  const open = await db()
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.status, "open"),
        lte(paymentAttempts.createdAt, before),
        isNotNull(paymentAttempts.providerReference),
        notInArray(paymentAttempts.provider, [...OFFLINE_PROVIDERS]),
      ),
    )
    .orderBy(asc(paymentAttempts.createdAt))
    .limit(BATCH);
  let applied = 0;
  for (const attempt of open) {
    try {
      const result = await applyProviderState(
        { provider: attempt.provider, providerReference: attempt.providerReference ?? "" },
        "reconciliation",
      );
      if (!["open", "already_applied", "ignored", "unknown_attempt"].includes(result.outcome)) {
        applied += 1;
      }
    } catch (error) {
      log.warn("payment_reconciliation_failed", { attemptId: attempt.id, error });
    }
  }
  if (applied > 0) log.info("payments_reconciled", { applied });
  return applied;
}

/** The queue `payments.expiry`, every minute: checkouts and transfers past their time. */
export const paymentExpiryJob = defineJob({
  name: "payments.expiry",
  policy: {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 5 * 60,
    retentionSeconds: 60 * 60,
    deleteAfterSeconds: 60 * 60,
  },
  schedule: { cron: "* * * * *", tz: "Europe/Paris" },
  handler: async () => {
    await expireLapsedPayments();
  },
});

/**
 * The queue `payments.reconciliation`, every 15 minutes: open attempts and pending refunds asked to their
 * provider.
 */
export const paymentReconciliationJob = defineJob({
  name: "payments.reconciliation",
  policy: {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 60 * 60,
    deleteAfterSeconds: 60 * 60,
  },
  schedule: { cron: "*/15 * * * *", tz: "Europe/Paris" },
  handler: async () => {
    await reconcileOpenAttempts();
    // Refunds left pending or unsent (decision 0171): a lost event never leaves one pending for ever.
    await followPendingRefunds();
    // Invoices held back while the seller's identity was incomplete (decision 0181).
    await issueMissingInvoices();
  },
});
