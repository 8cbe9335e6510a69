import { eq, sql } from "drizzle-orm";
import type { JobWithMetadata } from "pg-boss";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  journalRowsOf,
  mailJobsOf,
  orderRow,
  placeCardOrder,
  placeOrder,
  usePaymentsInMemory,
} from "../../../tests/support/payments";
import { db } from "../db/client.server";
import { orders, paymentAttempts, providerEvents } from "../db/schema";
import { applyEventJob, applyStoredEvent, receiveProviderEvent } from "./inbox.server";
import { expireLapsedPayments, reconcileOpenAttempts } from "./jobs.server";
import { markPaidOffline } from "./orders.server";
import { applyProviderState } from "./provider-state.server";
import type { VerifiedEvent } from "./provider.server";

// The webhook inbox and the payments' jobs on a real PostgreSQL with the job queue: an event stored once
// with its job, applied once; checkouts and transfers past their time released; a lost webhook found by
// the reconciliation.

useAppDatabase({ jobs: true });

const { card, effects: kindEffects } = usePaymentsInMemory();

const completed = (eventId: string, reference: string, amountCents: number): VerifiedEvent => ({
  eventId,
  type: "checkout.session.completed",
  createdAt: new Date(),
  payload: { id: eventId, data: { object: { id: reference } } },
  payment: {
    providerReference: reference,
    status: "succeeded",
    amountCents,
    currency: "eur",
    paymentReference: `pi_${reference}`,
  },
});

/** The queued jobs of `payments.apply-event` for the inbox rows of `eventId`. */
async function queuedJobsOf(eventId: string) {
  const result = await db().execute<{ data: { eventRowId: string } }>(sql`
    select j.data from pgboss.job j join provider_events e on e.id::text = j.data->>'eventRowId'
    where j.name = 'payments.apply-event' and e.event_id = ${eventId}`);
  return result.rows.map((row) => row.data);
}

const runJob = (data: { eventRowId: string }) =>
  applyEventJob.handler([{ data } as JobWithMetadata<{ eventRowId: string }>], undefined);

describe("the webhook inbox", () => {
  it("stores an event delivered 3 times at once once, with one job, applied once", async () => {
    const { orderId, reference } = await placeCardOrder();
    const event = completed(`evt_${reference}`, reference, 15_000);
    const answers = await Promise.all([1, 2, 3].map(() => receiveProviderEvent("stripe", event)));
    expect(answers.sort()).toEqual(["duplicate", "duplicate", "stored"]);
    const jobs = await queuedJobsOf(event.eventId);
    expect(jobs).toHaveLength(1);

    // The job, and the same job again (a retry after a lost acknowledgement): applied once.
    await runJob(jobs[0] as { eventRowId: string });
    await runJob(jobs[0] as { eventRowId: string });
    expect(await receiveProviderEvent("stripe", event)).toBe("duplicate");
    const [stored] = await db()
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.eventId, event.eventId));
    expect(stored).toMatchObject({ outcome: "applied", error: null, attempts: 1 });
    expect(stored?.processedAt).toBeInstanceOf(Date);
    expect(await journalRowsOf(orderId)).toHaveLength(1);
    expect(kindEffects().paid.filter((paid) => paid.orderId === orderId)).toHaveLength(1);
    expect(await mailJobsOf(orderId)).toEqual(["payment-buyer:paid"]);
  });

  it("keeps nothing of an event about no payment", async () => {
    const event: VerifiedEvent = {
      eventId: "evt_customer_updated",
      type: "customer.updated",
      createdAt: new Date(),
      payload: {},
      payment: null,
    };
    expect(await receiveProviderEvent("stripe", event)).toBe("ignored");
    const rows = await db()
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.eventId, event.eventId));
    expect(rows).toEqual([]);
  });

  it("records the error of an event about a checkout not known yet, and applies it on a retry", async () => {
    const { orderId, attemptId, reference } = await placeCardOrder();
    // The checkout's reference not stored yet (the answer of its creation still on its way).
    await db()
      .update(paymentAttempts)
      .set({ providerReference: null })
      .where(eq(paymentAttempts.id, attemptId));
    const event = completed(`evt_early_${reference}`, reference, 15_000);
    expect(await receiveProviderEvent("stripe", event)).toBe("stored");
    const [job] = await queuedJobsOf(event.eventId);
    await expect(applyStoredEvent(job?.eventRowId ?? "")).rejects.toThrow(/Aucune tentative/);
    const [failed] = await db()
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.eventId, event.eventId));
    expect(failed).toMatchObject({ processedAt: null, attempts: 1 });
    expect(failed?.error).toMatch(/Aucune tentative/);

    await db()
      .update(paymentAttempts)
      .set({ providerReference: reference })
      .where(eq(paymentAttempts.id, attemptId));
    await applyStoredEvent(job?.eventRowId ?? "");
    expect(await orderRow(orderId)).toMatchObject({ status: "paid" });
  });
  it("marks an event processed in the payment's own transaction: one that cannot be marked applies nothing", async () => {
    const { orderId, reference } = await placeCardOrder();
    const event = completed(`evt_atomic_${reference}`, reference, 15_000);
    expect(await receiveProviderEvent("stripe", event)).toBe("stored");
    const [job] = await queuedJobsOf(event.eventId);
    // The mark refused (the process dying between the two would leave the same state): before, the
    // payment was committed while its event stayed to apply.
    await db().execute(sql`
      create function refuse_processed() returns trigger language plpgsql as
        $$ begin raise exception 'marque refusée'; end $$`);
    await db().execute(sql`
      create trigger refuse_processed before update on provider_events for each row
        when (old.processed_at is null and new.processed_at is not null)
        execute function refuse_processed()`);
    try {
      await expect(applyStoredEvent(job?.eventRowId ?? "")).rejects.toThrow();
      expect(await orderRow(orderId)).toMatchObject({ status: "awaiting_payment" });
      expect(await journalRowsOf(orderId)).toHaveLength(0);
      expect(await mailJobsOf(orderId)).toEqual([]);
    } finally {
      await db().execute(sql`drop trigger refuse_processed on provider_events`);
      await db().execute(sql`drop function refuse_processed()`);
    }

    await applyStoredEvent(job?.eventRowId ?? "");
    expect(await orderRow(orderId)).toMatchObject({ status: "paid" });
    expect(await journalRowsOf(orderId)).toHaveLength(1);
    const [stored] = await db()
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.eventId, event.eventId));
    expect(stored).toMatchObject({ outcome: "applied", error: null, attempts: 2 });
  });
});

describe("the expiry job", () => {
  it("closes a checkout past its time and releases its order; a paid one stays paid", async () => {
    const lapsed = await placeCardOrder();
    const paidLate = await placeCardOrder();
    card.pay(paidLate.reference, 15_000);
    // Their time has passed: the checkouts' and the orders' own windows (one and the same for a voucher).
    const past = new Date(Date.now() - 60_000);
    await db()
      .update(paymentAttempts)
      .set({ expiresAt: past })
      .where(sql`${paymentAttempts.id} in (${lapsed.attemptId}, ${paidLate.attemptId})`);
    await db()
      .update(orders)
      .set({ payBy: past })
      .where(sql`${orders.id} in (${lapsed.orderId}, ${paidLate.orderId})`);

    await expireLapsedPayments();
    expect(await orderRow(lapsed.orderId)).toMatchObject({ status: "expired" });
    expect(kindEffects().released).toContain(lapsed.orderId);
    expect(await mailJobsOf(lapsed.orderId)).toEqual(["payment-buyer:expired"]);
    expect(await journalRowsOf(lapsed.orderId)).toEqual([]);
    // Paid on the provider's page at the last moment: the expiry finds it paid and applies it.
    expect(await orderRow(paidLate.orderId)).toMatchObject({ status: "paid" });
    expect((await journalRowsOf(paidLate.orderId))[0]?.details).toMatchObject({ source: "expiry" });

    await expireLapsedPayments();
    expect(kindEffects().released.filter((id) => id === lapsed.orderId)).toHaveLength(1);
  });

  it("releases a transfer order past its deadline, and applies its payment late if it comes", async () => {
    const order = await placeOrder("transfer", 4_000);
    const past = new Date(Date.now() - 60_000);
    await db().update(orders).set({ payBy: past }).where(eq(orders.id, order.orderId));
    await db()
      .update(paymentAttempts)
      .set({ expiresAt: past })
      .where(eq(paymentAttempts.orderId, order.orderId));
    await expireLapsedPayments();
    expect(await orderRow(order.orderId)).toMatchObject({ status: "expired" });
    expect(await mailJobsOf(order.orderId)).toEqual(["payment-buyer:expired"]);

    expect((await markPaidOffline(order.orderId, "transfer")).outcome).toBe("late");
    expect(await orderRow(order.orderId)).toMatchObject({ status: "paid", latePayment: true });
  });
});

describe("the reconciliation job", () => {
  it("finds a payment whose webhook was lost", async () => {
    const { orderId, attemptId, reference } = await placeCardOrder();
    card.pay(reference, 15_000);
    // Young checkouts are left to their webhook.
    await reconcileOpenAttempts();
    expect(await orderRow(orderId)).toMatchObject({ status: "awaiting_payment" });

    await db()
      .update(paymentAttempts)
      .set({ createdAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(paymentAttempts.id, attemptId));
    expect(await reconcileOpenAttempts()).toBeGreaterThanOrEqual(1);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid" });
    expect((await journalRowsOf(orderId))[0]?.details).toMatchObject({ source: "reconciliation" });
    expect(await reconcileOpenAttempts()).toBe(0);
  });

  it("serves the return page: still open says so, paid is applied with source `return`", async () => {
    const { orderId, reference } = await placeCardOrder();
    const checkout = { provider: "stripe", providerReference: reference } as const;
    expect(await applyProviderState(checkout, "return")).toMatchObject({
      outcome: "open",
      orderId,
    });
    card.pay(reference, 15_000);
    expect(await applyProviderState(checkout, "return")).toMatchObject({
      outcome: "applied",
      orderStatus: "paid",
    });
    expect(await applyProviderState(checkout, "return")).toMatchObject({
      outcome: "already_applied",
    });
    expect((await journalRowsOf(orderId))[0]?.details).toMatchObject({ source: "return" });
    expect(
      await applyProviderState({ provider: "stripe", providerReference: "cs_nope" }, "return"),
    ).toMatchObject({ outcome: "unknown_attempt" });
  });
});
