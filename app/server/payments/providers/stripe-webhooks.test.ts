import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STRIPE_WEBHOOK_PATH, stripeWebhook } from "../../http/stripe-webhook.server";
import type { CheckoutRequest, PaymentProvider, VerifiedEvent } from "../provider.server";
import { stripeProvider } from "./stripe.server";
import {
  parseStripeForm,
  startFakeStripe,
  type FakeStripe,
} from "../../../../tests/support/fake-stripe";

/**
 * The fake Stripe's webhooks reaching the site's webhook endpoint (the Express handler, the real SDK's
 * verification), and the fake's controls that the payments' tests rely on.
 */

let fake: FakeStripe;
let provider: PaymentProvider;
let server: Server;
let webhookUrl: string;
const received: VerifiedEvent[] = [];

beforeAll(async () => {
  fake = await startFakeStripe();
  const app = express();
  app.all(
    STRIPE_WEBHOOK_PATH,
    stripeWebhook({
      provider: () => provider,
      receive: async (event) => {
        received.push(event);
        return "stored";
      },
    }),
  );
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STRIPE_WEBHOOK_PATH}`;
  const { secret } = fake.addWebhookEndpoint(webhookUrl);
  provider = stripeProvider({
    secretKey: fake.secretKey,
    webhookSecret: secret,
    apiUrl: fake.apiUrl,
  });
});

afterAll(async () => {
  await fake?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  fake.releaseEvents();
});

let sequence = 0;
function checkout(): CheckoutRequest {
  sequence += 1;
  return {
    orderId: `order-${sequence}`,
    attemptId: `attempt-${sequence}`,
    idempotencyKey: `checkout-${sequence}`,
    amountCents: 9_000,
    lines: [{ label: "Bon cadeau 90 €", quantity: 1, unitAmountCents: 9_000 }],
    customerEmail: "acheteuse@example.com",
    returnUrl: "https://studio.example/retour/{CHECKOUT_SESSION_ID}",
    cancelUrl: "https://studio.example/annule",
    expiresAt: new Date(Date.now() + 30 * 60_000),
  };
}

describe("the fake Stripe's webhooks at the site's endpoint", () => {
  it("delivers `checkout.session.completed` before « Payer » redirects, verified by the endpoint", async () => {
    const { providerReference, redirectUrl } = await provider.createCheckout(checkout());
    const paid = await fetch(`${redirectUrl}/payer`, { method: "POST", redirect: "manual" });
    expect(paid.headers.get("location")).toBe(`https://studio.example/retour/${providerReference}`);
    expect(received.map((event) => [event.type, event.payment?.status])).toEqual([
      ["checkout.session.completed", "succeeded"],
    ]);
    expect(fake.deliveries().at(-1)).toMatchObject({ url: webhookUrl, status: 200 });
  });

  it("holds events for after the redirect, then delivers them in either order, and again", async () => {
    fake.holdEvents();
    const first = await provider.createCheckout(checkout());
    const second = await provider.createCheckout(checkout());
    const paid = await fetch(`${first.redirectUrl}/payer`, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    await fake.expireNow(second.providerReference);
    expect(received).toEqual([]);
    expect(fake.heldEvents().map((event) => event.type)).toEqual([
      "checkout.session.completed",
      "checkout.session.expired",
    ]);

    const deliveries = await fake.deliverHeld({ order: "reverse" });
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
    expect(
      received.map((event) => [event.payment?.providerReference, event.payment?.status]),
    ).toEqual([
      [second.providerReference, "expired"],
      [first.providerReference, "succeeded"],
    ]);
    expect(fake.heldEvents()).toEqual([]);

    const completed = received[1]?.eventId ?? "";
    await fake.deliver(completed);
    await fake.deliver(completed);
    expect(received.filter((event) => event.eventId === completed)).toHaveLength(3);
  });

  it("sends a refund's events, pending then settled, which concern no checkout", async () => {
    const { providerReference } = await provider.createCheckout(checkout());
    await fake.pay(providerReference);
    const { paymentReference } = await provider.retrieve(providerReference);
    fake.refundOutcome = "pending";
    try {
      const refund = await provider.refund({
        paymentReference: String(paymentReference),
        amountCents: 9_000,
        idempotencyKey: `refund-${providerReference}`,
      });
      expect(refund.status).toBe("pending");
      await fake.settleRefund(String(refund.refundReference), "succeeded");
    } finally {
      fake.refundOutcome = "succeeded";
    }
    expect(received.map((event) => [event.type, event.payment])).toEqual([
      ["checkout.session.completed", expect.objectContaining({ status: "succeeded" })],
      ["refund.created", null],
      ["refund.updated", null],
      ["charge.refunded", null],
    ]);
  });

  it("is refused by an endpoint that holds another secret", async () => {
    const other = stripeProvider({
      secretKey: fake.secretKey,
      webhookSecret: "whsec_not_this_endpoints",
      apiUrl: fake.apiUrl,
    });
    const kept = provider;
    provider = other;
    try {
      const { providerReference } = await provider.createCheckout(checkout());
      await fake.pay(providerReference);
    } finally {
      provider = kept;
    }
    expect(fake.deliveries().at(-1)).toMatchObject({
      status: 400,
      body: "Signature Stripe invalide.",
    });
    expect(received).toEqual([]);
  });
});

describe("the fake Stripe's wire format", () => {
  it("reads Stripe's bracket notation", () => {
    expect(
      parseStripeForm(
        "line_items[0][price_data][unit_amount]=500&line_items[0][quantity]=2&metadata[a]=b&types[]=x&types[]=y",
      ),
    ).toEqual({
      line_items: [{ price_data: { unit_amount: "500" }, quantity: "2" }],
      metadata: { a: "b" },
      types: ["x", "y"],
    });
  });

  it("answers Stripe's JSON errors: no key, a reused idempotency key, an expiry under 30 minutes", async () => {
    const anonymous = await fetch(`${fake.apiUrl}/v1/checkout/sessions/cs_test_x`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      error: { type: "invalid_request_error", message: expect.stringContaining("API key") },
    });

    const stripe = new Stripe(fake.secretKey, {
      host: "127.0.0.1",
      port: new URL(fake.apiUrl).port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const params = (expiresInSeconds: number): Stripe.Checkout.SessionCreateParams => ({
      mode: "payment",
      success_url: "https://studio.example/ok",
      line_items: [
        {
          quantity: 1,
          price_data: { currency: "eur", unit_amount: 100, product_data: { name: "Essai" } },
        },
      ],
      expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
    });
    await expect(stripe.checkout.sessions.create(params(29 * 60))).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      param: "expires_at",
    });
    await stripe.checkout.sessions.create(params(40 * 60), { idempotencyKey: "reused" });
    await expect(
      stripe.checkout.sessions.create(params(50 * 60), { idempotencyKey: "reused" }),
    ).rejects.toMatchObject({ type: "StripeIdempotencyError" });
  });

  it("counts the requests of each route", async () => {
    const before = fake.requestCount("GET /v1/checkout/sessions/:id");
    const { providerReference } = await provider.createCheckout(checkout());
    await provider.retrieve(providerReference);
    await provider.retrieve(providerReference);
    expect(fake.requestCount("GET /v1/checkout/sessions/:id")).toBe(before + 2);
    await fetch(`${fake.pageOrigin}/pay/${providerReference}`);
    expect(fake.requestCount("GET /pay/:id")).toBeGreaterThanOrEqual(1);
  });
});
