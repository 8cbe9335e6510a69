import { desc, eq } from "drizzle-orm";
import type { ProviderName } from "~/lib/payments/model";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { providerEvents } from "../db/schema";
import { defineJob, RETRIES_FOR_A_DAY, type Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { applyPaymentStatus } from "./apply-payment.server";
import type { VerifiedEvent } from "./provider.server";
import { applyRefundState } from "./refund-status.server";

/*
 * The providers' webhook inbox (decision 0162): an event whose signature was verified is stored once
 * (provider + event id) with the job that applies it, in one transaction, before the webhook is answered;
 * the job applies its payment state through applyPaymentStatus, or its refund's through completeRefund
 * (decision 0171). The same event delivered again is answered « duplicate » and applied nothing; an event
 * about neither a payment nor a refund is not kept.
 */

/** The last event stored from `provider` (the settings page shows its age), or null. */
export async function lastProviderEvent(
  provider: ProviderName,
): Promise<{ type: string; receivedAt: Date } | null> {
  const [row] = await db()
    .select({ type: providerEvents.type, receivedAt: providerEvents.receivedAt })
    .from(providerEvents)
    .where(eq(providerEvents.provider, provider))
    .orderBy(desc(providerEvents.receivedAt))
    .limit(1);
  return row ?? null;
}

/** What the job of one stored event carries: the inbox row's id. */
type ApplyEventJob = { eventRowId: string };

/** Stores a verified event and queues its job; answers what became of it (the webhook answers 200). */
export async function receiveProviderEvent(
  provider: ProviderName,
  event: VerifiedEvent,
): Promise<"stored" | "duplicate" | "ignored"> {
  const payment = event.payment;
  const refund = event.refund ?? null;
  if (!payment && !refund) return "ignored";
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(providerEvents)
      .values({
        provider,
        eventId: event.eventId,
        type: event.type,
        payload: event.payload ?? {},
        payment,
        refund,
        occurredAt: event.createdAt,
        receivedAt: now(),
      })
      .onConflictDoNothing({ target: [providerEvents.provider, providerEvents.eventId] })
      .returning({ id: providerEvents.id });
    if (!row) return "duplicate";
    await applyEventJob.send({ eventRowId: row.id }, { tx });
    return "stored";
  });
}

/**
 * Applies one stored event: its payment state through applyPaymentStatus (source `webhook`), the row marked
 * processed with the outcome in the same transaction (a crash cannot leave a payment applied and its event
 * still to apply); a refund's end, or an event that applies nothing, then marked. An event about an attempt
 * not known yet, or a failure, is recorded on the row and thrown: the job is retried.
 */
export async function applyStoredEvent(eventRowId: string): Promise<void> {
  const [event] = await db().select().from(providerEvents).where(eq(providerEvents.id, eventRowId));
  if (!event || event.processedAt) return;
  const recordTry = (
    executor: Executor,
    values: Pick<typeof providerEvents.$inferInsert, "processedAt" | "outcome" | "error">,
  ) =>
    executor
      .update(providerEvents)
      .set({ ...values, attempts: event.attempts + 1 })
      .where(eq(providerEvents.id, event.id));
  const markProcessed = (executor: Executor, outcome: string) =>
    recordTry(executor, { processedAt: now(), outcome, error: null });
  try {
    const { payment, refund } = event;
    if (payment && payment.status !== "open") {
      const { outcome } = await applyPaymentStatus(
        {
          provider: event.provider,
          providerReference: payment.providerReference,
          status: payment.status,
          amountCents: payment.amountCents,
          currency: payment.currency,
          paymentReference: payment.paymentReference,
          source: "webhook",
        },
        {
          alongside: async (tx, applied) => {
            if (applied.outcome !== "unknown_attempt") await markProcessed(tx, applied.outcome);
          },
        },
      );
      if (outcome === "unknown_attempt") {
        throw new Error(
          `Aucune tentative de paiement ne porte la référence ${payment.providerReference}.`,
        );
      }
      return;
    }
    // An event about a refund (decision 0171): its end applied once; one that is not ours is kept as such.
    const outcome = payment
      ? "open"
      : refund
        ? await applyRefundState(event.provider, refund)
        : "ignored";
    await markProcessed(db(), outcome);
  } catch (error) {
    await recordTry(db(), { error: error instanceof Error ? error.message : String(error) });
    log.warn("provider_event_failed", { eventRowId, error });
    throw error;
  }
}

/**
 * The queue `payments.apply-event`: one stored webhook event each, retried for about a day (an event may
 * arrive before its checkout's reference is stored). A worker in every process, working through a burst
 * without pausing.
 */
export const applyEventJob = defineJob<ApplyEventJob>({
  name: "payments.apply-event",
  policy: {
    ...RETRIES_FOR_A_DAY,
    notify: true,
    expireInSeconds: 5 * 60,
    // A process killed while applying an event: its job is retried within about 20 s, not after the
    // 5 minutes of its expiry (Stripe's retry of the event is a duplicate and queues nothing; decision 0173).
    heartbeatSeconds: 10,
    retentionSeconds: 7 * 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  backlog: true,
  pollingIntervalSeconds: 5,
  handler: async (jobs) => {
    for (const job of jobs) await applyStoredEvent(job.data.eventRowId);
  },
});
