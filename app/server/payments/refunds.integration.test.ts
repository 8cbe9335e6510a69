import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { startFakeStripe, type FakeStripe } from "../../../tests/support/fake-stripe";
import {
  countingOrderKind,
  journalRowsOf,
  mailJobsOf,
  orderRow,
  placeOrder,
} from "../../../tests/support/payments";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { paymentAttempts, providerEvents, refunds } from "../db/schema";
import { STRIPE_WEBHOOK_PATH, stripeWebhook } from "../http/stripe-webhook.server";
import { applyPaymentStatus } from "./apply-payment.server";
import { ownerPaymentEmail } from "./emails.server";
import { applyStoredEvent, receiveProviderEvent } from "./inbox.server";
import { requestOwnerRefund, requestRefund } from "./orders.server";
import type { PaymentProvider } from "./provider.server";
import { replacePaymentProviderForTests } from "./providers.server";
import { stripeProvider } from "./providers/stripe.server";

// Refunds followed to their end (decision 0171), against the fake Stripe through the real SDK and the
// site's webhook handler: a refund Stripe answers `pending` ends by its signed event (applied once however
// often it comes) or, the event lost, by the reconciliation; a refund whose call failed is sent again with
// its own key (one refund at Stripe); a failed refund frees its amount.

useAppDatabase({ jobs: true });

let fake: FakeStripe;
let server: Server;
let provider: PaymentProvider;
let effects: ReturnType<typeof countingOrderKind>;

beforeAll(async () => {
  fake = await startFakeStripe();
  const app = express();
  app.all(
    STRIPE_WEBHOOK_PATH,
    stripeWebhook({
      provider: () => provider,
      receive: (event) => receiveProviderEvent("stripe", event),
    }),
  );
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STRIPE_WEBHOOK_PATH}`;
  const { secret } = fake.addWebhookEndpoint(url);
  // No retries of its own and a short wait: a call that hangs is a call that failed, at once.
  provider = stripeProvider({
    secretKey: fake.secretKey,
    webhookSecret: secret,
    apiUrl: fake.apiUrl,
    maxNetworkRetries: 0,
    timeoutMs: 300,
  });
  replacePaymentProviderForTests("stripe", provider);
  effects = countingOrderKind();
});

afterAll(async () => {
  replacePaymentProviderForTests("stripe", null);
  await fake?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

afterEach(() => {
  setClockForTests(null);
  fake.refundOutcome = "succeeded";
  fake.releaseEvents();
});

/** A card order paid through the fake's page: its id and Stripe's PaymentIntent. */
async function paidCardOrder(amountCents = 12_000) {
  const order = await placeOrder("card", amountCents);
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, order.orderId));
  const session = await fake.pay(attempt?.providerReference ?? "");
  await applyPaymentStatus({
    attemptId: attempt?.id ?? "",
    status: "succeeded",
    amountCents: session.amount_total,
    currency: session.currency,
    paymentReference: session.payment_intent,
    source: "return",
  });
  expect(await orderRow(order.orderId)).toMatchObject({ status: "paid" });
  return { orderId: order.orderId, paymentIntent: String(session.payment_intent) };
}

/** Runs the inbox's job on every stored event not processed yet, as pg-boss's worker would. */
async function runInboxJobs() {
  const waiting = await db()
    .select({ id: providerEvents.id })
    .from(providerEvents)
    .where(sql`${providerEvents.processedAt} is null`);
  for (const { id } of waiting) await applyStoredEvent(id);
}

const refundRow = async (id: string) =>
  (await db().select().from(refunds).where(eq(refunds.id, id)))[0];

const refundRowsOf = async (orderId: string) =>
  (await journalRowsOf(orderId)).filter((row) => row.kind === "refund");

describe("a refund Stripe answers pending", () => {
  it("ends by its signed event, applied once though the event comes 3 times", async () => {
    const { orderId } = await paidCardOrder();
    fake.refundOutcome = "pending";
    const refund = await requestRefund(orderId, 12_000, "Rétractation");
    expect(refund).toMatchObject({ status: "pending", error: null });
    expect(refund.providerReference).toMatch(/^re_test_/);
    await runInboxJobs();
    expect(await refundRow(refund.id)).toMatchObject({ status: "pending" });

    await fake.settleRefund(String(refund.providerReference), "succeeded");
    const [updated] = fake.events("refund.updated");
    // The same event twice more, at once: the inbox keeps it once.
    await Promise.all([fake.deliver(String(updated?.id)), fake.deliver(String(updated?.id))]);
    expect(
      fake
        .deliveries()
        .filter((delivery) => delivery.eventId === updated?.id)
        .map((delivery) => delivery.status),
    ).toEqual([200, 200, 200]);
    await runInboxJobs();

    expect(await refundRow(refund.id)).toMatchObject({ status: "succeeded", error: null });
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-12_000]);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded" });
    expect(effects.refunded.filter((told) => told.orderId === orderId)).toEqual([
      { orderId, amountCents: 12_000, fullyRefunded: true },
    ]);
    const stored = await db()
      .select({ type: providerEvents.type, outcome: providerEvents.outcome })
      .from(providerEvents)
      .where(sql`${providerEvents.refund} ->> 'paymentReference' is not null`);
    expect(stored.filter((event) => event.type === "refund.updated")).toEqual([
      { type: "refund.updated", outcome: "applied" },
    ]);
  });

  it("that fails is not counted: its reason told in French, its amount refundable again", async () => {
    const { orderId } = await paidCardOrder(8_000);
    fake.refundOutcome = "pending";
    const refund = await requestRefund(orderId, 8_000, "Rétractation");
    await expect(requestRefund(orderId, 1, "Encore")).rejects.toMatchObject({
      code: "refund_too_large",
    });
    await fake.settleRefund(String(refund.providerReference), "failed", {
      failureReason: "lost_or_stolen_card",
    });
    await runInboxJobs();
    expect(await refundRow(refund.id)).toMatchObject({
      status: "failed",
      error: "La carte du client a été déclarée perdue ou volée.",
    });
    expect(await refundRowsOf(orderId)).toEqual([]);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid" });
    // The owner is told once, with what to do, though Stripe says it twice (refund.updated, refund.failed).
    expect(
      (await mailJobsOf(orderId)).filter((job) => job === "payment-owner:refund_failed"),
    ).toHaveLength(1);
    const told = await ownerPaymentEmail({ orderId, refundId: refund.id, event: "refund_failed" });
    expect(told?.subject).toMatch(/^Remboursement échoué : 80\s€ pour /);
    expect(told?.text).toContain("La carte du client a été déclarée perdue ou volée.");
    expect(told?.text).toContain("relancez le remboursement avec « Rembourser »");

    fake.refundOutcome = "succeeded";
    const again = await requestRefund(orderId, 8_000, "Rétractation, nouvel essai");
    expect(again).toMatchObject({ status: "succeeded" });
    await runInboxJobs();
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-8_000]);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded" });
  });

  it("ends by the reconciliation when its event is lost", async () => {
    const { orderId } = await paidCardOrder(5_000);
    fake.refundOutcome = "pending";
    const refund = await requestRefund(orderId, 2_000, "Geste commercial");
    await fake.settleRefund(String(refund.providerReference), "succeeded", { silently: true });

    const { followPendingRefunds } = await import("./refund-status.server");
    // Too young: left to its event.
    expect(await followPendingRefunds()).toBe(0);
    expect(await refundRow(refund.id)).toMatchObject({ status: "pending" });
    setClockForTests(new Date(Date.now() + 10 * 60_000));
    expect(await followPendingRefunds()).toBe(1);
    expect(await followPendingRefunds()).toBe(0);
    expect(await refundRow(refund.id)).toMatchObject({ status: "succeeded" });
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-2_000]);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid" });
  });
});

describe("a refund whose call failed", () => {
  it("is sent again by the reconciliation with its own key: one refund at Stripe", async () => {
    const { orderId, paymentIntent } = await paidCardOrder(6_000);
    // Stripe makes the refund, but its answer never comes back; its events are lost as well.
    fake.holdEvents();
    fake.failNext({ hang: true });
    const refund = await requestRefund(orderId, 6_000, "Rétractation");
    expect(refund.status).toBe("pending");
    expect(refund.providerReference).toBeNull();
    expect(refund.error).toMatch(/Stripe/);
    fake.answerHeldRequests();
    await vi.waitFor(() => {
      expect(fake.refunds().filter((made) => made.payment_intent === paymentIntent)).toHaveLength(
        1,
      );
    });

    const { followPendingRefunds } = await import("./refund-status.server");
    setClockForTests(new Date(Date.now() + 10 * 60_000));
    expect(await followPendingRefunds()).toBe(1);
    expect(fake.refunds().filter((made) => made.payment_intent === paymentIntent)).toHaveLength(1);
    expect(fake.requestCount("POST /v1/refunds")).toBeGreaterThanOrEqual(2);
    const done = await refundRow(refund.id);
    expect(done).toMatchObject({ status: "succeeded", error: null });
    expect(done?.providerReference).toBe(fake.refunds().at(-1)?.id);

    // The lost events come at last: they name a refund already ended, nothing changes.
    await fake.deliverHeld();
    await runInboxJobs();
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-6_000]);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded" });
  });

  it("found by its own id in Stripe's event before its answer was stored", async () => {
    const { orderId } = await paidCardOrder(4_000);
    fake.failNext({ hang: true });
    const refund = await requestRefund(orderId, 4_000, "Rétractation");
    expect(refund.providerReference).toBeNull();
    // Stripe makes it late; its events (which carry our refund's id) arrive.
    fake.answerHeldRequests();
    await vi.waitFor(async () => {
      expect(
        await db()
          .select()
          .from(providerEvents)
          .where(sql`${providerEvents.refund} ->> 'refundId' = ${refund.id}`),
      ).not.toHaveLength(0);
    });
    await runInboxJobs();
    expect(await refundRow(refund.id)).toMatchObject({ status: "succeeded" });
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-4_000]);
  });
});

describe("a refund Stripe refuses at once", () => {
  it("a refund Stripe refuses for good ends failed, its amount free again", async () => {
    const { orderId, paymentIntent } = await paidCardOrder(9_000);
    // The owner refunded it in her Stripe dashboard first; its events have not reached the site yet.
    fake.holdEvents();
    await provider.refund({
      paymentReference: paymentIntent,
      amountCents: 9_000,
      idempotencyKey: randomUUID(),
    });
    const refund = await requestRefund(orderId, 9_000, "Rétractation");
    expect(await refundRow(refund.id)).toMatchObject({
      status: "failed",
      providerReference: null,
      error: "Ce paiement a déjà été remboursé (par exemple depuis votre tableau de bord Stripe).",
    });
    expect(await refundRowsOf(orderId)).toEqual([]);
    expect(await mailJobsOf(orderId)).toContain("payment-owner:refund_failed");
    // Not pending: the reconciliation does not send it again, and its amount may be refunded again.
    setClockForTests(new Date(Date.now() + 10 * 60_000));
    const sent = fake.requestCount("POST /v1/refunds");
    const { followPendingRefunds } = await import("./refund-status.server");
    await followPendingRefunds();
    expect(fake.requestCount("POST /v1/refunds")).toBe(sent);
    await expect(requestRefund(orderId, 9_000, "Encore")).resolves.toMatchObject({
      status: "failed",
    });
    setClockForTests(null);

    // Its events come: the dashboard's refund is recorded as the site's, once (decision 0194).
    fake.releaseEvents();
    await fake.deliverHeld();
    await runInboxJobs();
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-9_000]);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded" });
  });

  it("stays pending when Stripe fails on its side: it may have made the refund", async () => {
    const { orderId } = await paidCardOrder(3_000);
    fake.failNext({ status: 500 });
    const refund = await requestRefund(orderId, 3_000, "Rétractation");
    expect(refund).toMatchObject({ status: "pending" });
    expect(refund.error).toMatch(/Stripe/);
  });
});

describe("a refund whose call got no answer for a day", () => {
  it("is looked for at Stripe by its id: found, it ends as Stripe made it, once", async () => {
    const { orderId, paymentIntent } = await paidCardOrder(7_000);
    fake.holdEvents();
    fake.failNext({ hang: true });
    const refund = await requestRefund(orderId, 7_000, "Rétractation");
    expect(refund.providerReference).toBeNull();
    fake.answerHeldRequests();
    await vi.waitFor(() => {
      expect(fake.refunds().filter((made) => made.payment_intent === paymentIntent)).toHaveLength(
        1,
      );
    });
    const sent = fake.requestCount("POST /v1/refunds");

    // Past Stripe's idempotency window: never sent again, looked for.
    setClockForTests(new Date(Date.now() + 24 * 3_600_000));
    const { followPendingRefunds } = await import("./refund-status.server");
    // Other tests' refunds may end with it: at least this one.
    expect(await followPendingRefunds()).toBeGreaterThanOrEqual(1);
    expect(fake.requestCount("POST /v1/refunds")).toBe(sent);
    expect(await refundRow(refund.id)).toMatchObject({
      status: "succeeded",
      providerReference: fake.refunds().at(-1)?.id,
    });
    expect((await refundRowsOf(orderId)).map((row) => row.amountCents)).toEqual([-7_000]);
    fake.releaseEvents();
  });

  it("is failed when Stripe never made it: its amount free, the owner told why", async () => {
    const { orderId, paymentIntent } = await paidCardOrder(6_500);
    fake.failNext({ status: 503 });
    const refund = await requestRefund(orderId, 6_500, "Rétractation");
    expect(refund).toMatchObject({ status: "pending", providerReference: null });
    expect(fake.refunds().filter((made) => made.payment_intent === paymentIntent)).toEqual([]);

    setClockForTests(new Date(Date.now() + 24 * 3_600_000));
    const { followPendingRefunds } = await import("./refund-status.server");
    // Other tests' refunds may end with it: at least this one.
    expect(await followPendingRefunds()).toBeGreaterThanOrEqual(1);
    expect(fake.refunds().filter((made) => made.payment_intent === paymentIntent)).toEqual([]);
    expect(await refundRow(refund.id)).toMatchObject({
      status: "failed",
      error: "Stripe n'a jamais répondu à cette demande et n'a fait aucun remboursement.",
    });
    expect(await mailJobsOf(orderId)).toContain("payment-owner:refund_failed");
    setClockForTests(null);
    await expect(requestRefund(orderId, 6_500, "Nouvel essai")).resolves.toMatchObject({
      status: "succeeded",
    });
  });
});

describe("a refund made in Stripe's dashboard on a payment that is not the site's", () => {
  it("is kept in the inbox as not ours, and changes nothing", async () => {
    const outcome = await receiveProviderEvent("stripe", {
      eventId: "evt_dashboard_refund",
      type: "refund.updated",
      createdAt: new Date(),
      payload: {},
      payment: null,
      refund: {
        refundReference: "re_made_by_hand",
        refundId: null,
        paymentReference: "pi_not_ours",
        status: "succeeded",
        failureReason: null,
      },
    });
    expect(outcome).toBe("stored");
    await runInboxJobs();
    const [stored] = await db()
      .select()
      .from(providerEvents)
      .where(eq(providerEvents.eventId, "evt_dashboard_refund"));
    expect(stored).toMatchObject({ outcome: "unknown_refund", error: null });
  });
});

describe("the owner's refund of an order paid twice (a card, then at the studio)", () => {
  it("is taken from both payments in one go, the same form posted again finds both, and never more than was paid", async () => {
    const { orderId } = await paidCardOrder(8_000);
    const [card] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    // The same 80 € paid again at the studio: recorded as a duplicate, for the owner to give back.
    await db().insert(paymentAttempts).values({
      orderId,
      provider: "studio",
      providerReference: randomUUID(),
      amountCents: 8_000,
      idempotencyKey: randomUUID(),
      status: "succeeded",
      succeededAt: new Date(),
      means: "cash",
      duplicate: true,
    });

    await expect(requestOwnerRefund(orderId, 16_001, "Trop")).rejects.toMatchObject({
      code: "refund_too_large",
    });
    // One payment alone still refunds only what it holds.
    await expect(requestRefund(orderId, 16_000, "Payée deux fois")).rejects.toMatchObject({
      code: "refund_too_large",
    });

    const formKey = randomUUID();
    const asked = await requestOwnerRefund(orderId, 12_000, "Payée deux fois", { formKey });
    expect(asked.repeated).toBe(false);
    // The duplicate first, all of it; then the card for the rest.
    expect(
      asked.refunds.map(({ attemptId, amountCents, status }) => ({
        attemptId,
        amountCents,
        status,
      })),
    ).toEqual([
      {
        attemptId: expect.not.stringMatching(card?.id ?? ""),
        amountCents: 8_000,
        status: "to_refund_offline",
      },
      { attemptId: card?.id, amountCents: 4_000, status: "succeeded" },
    ]);
    const again = await requestOwnerRefund(orderId, 12_000, "Payée deux fois", { formKey });
    expect(again.repeated).toBe(true);
    expect(again.refunds.map((refund) => refund.id).sort()).toEqual(
      asked.refunds.map((refund) => refund.id).sort(),
    );
    expect(await db().select().from(refunds).where(eq(refunds.orderId, orderId))).toHaveLength(2);
    // What is left: the card's 40 €.
    await expect(requestOwnerRefund(orderId, 4_001, "Le reste")).rejects.toMatchObject({
      code: "refund_too_large",
    });
  });
});
