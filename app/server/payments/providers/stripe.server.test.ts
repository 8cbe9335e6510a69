import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ProviderUnavailableError,
  WebhookVerificationError,
  type CheckoutRequest,
  type PaymentProvider,
  type VerifiedEvent,
} from "../provider.server";
import {
  ensureWebhookEndpoint,
  isTestMode,
  STRIPE_WEBHOOK_EVENTS,
  stripeProvider,
} from "./stripe.server";
import {
  startFakeStripe,
  stripeSignatureHeader,
  type FakeStripe,
} from "../../../../tests/support/fake-stripe";

/** A webhook receiver on loopback that verifies what the fake sends with the provider under test. */
type Receiver = { url: string; received: Array<VerifiedEvent | Error>; close: () => Promise<void> };

async function startReceiver(provider: () => PaymentProvider): Promise<Receiver> {
  const received: Array<VerifiedEvent | Error> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        const header = req.headers["stripe-signature"];
        received.push(provider().verifyWebhook(Buffer.concat(chunks), header as string));
        res.writeHead(200).end('{"received":true}');
      } catch (error) {
        received.push(error as Error);
        res.writeHead(400).end("refused");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;
  return {
    url,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let fake: FakeStripe;
let receiver: Receiver;
let webhookSecret: string;
let provider: PaymentProvider;
let sequence = 0;

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  sequence += 1;
  return {
    orderId: `order-${sequence}`,
    attemptId: `attempt-${sequence}`,
    idempotencyKey: `attempt-${sequence}-checkout`,
    amountCents: 17_500,
    lines: [
      { label: "Bon cadeau séance portrait — Brive", quantity: 1, unitAmountCents: 15_000 },
      { label: "Tirage 20 × 30", quantity: 1, unitAmountCents: 2_500 },
    ],
    customerEmail: "acheteuse@example.com",
    returnUrl: "https://studio.example/commande/retour?session={CHECKOUT_SESSION_ID}",
    cancelUrl: "https://studio.example/bons-cadeaux?paiement=abandonne",
    expiresAt: new Date(Date.now() + 30 * 60_000),
    ...overrides,
  };
}

const paymentOf = (item: VerifiedEvent | Error | undefined) =>
  item instanceof Error ? item : item?.payment;

beforeAll(async () => {
  fake = await startFakeStripe();
  receiver = await startReceiver(() => provider);
  webhookSecret = fake.addWebhookEndpoint(receiver.url).secret;
  provider = stripeProvider({
    secretKey: fake.secretKey,
    webhookSecret,
    apiUrl: fake.apiUrl,
    checkoutOrigin: fake.pageOrigin,
  });
});

afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
  receiver.received.length = 0;
  fake.releaseEvents();
});

describe("stripeProvider against the fake Stripe", () => {
  it("pays on the hosted page: the webhook verifies with the real SDK, retrieve says succeeded", async () => {
    const request = checkoutRequest();
    const created = await provider.createCheckout(request);
    expect(created.providerReference).toMatch(/^cs_test_/);
    expect(created.redirectUrl).toBe(`${fake.pageOrigin}/pay/${created.providerReference}`);
    // The attempt keeps its end; the session ends 31 minutes later, past Stripe's minimum of 30 minutes
    // after its creation.
    expect(created.expiresAt).toEqual(request.expiresAt);
    expect(fake.session(created.providerReference)?.expires_at).toBe(
      Math.floor(request.expiresAt.getTime() / 1000) + 31 * 60,
    );

    const session = fake.session(created.providerReference);
    expect(session).toMatchObject({
      amount_total: 17_500,
      currency: "eur",
      customer_email: "acheteuse@example.com",
      client_reference_id: request.attemptId,
      metadata: { order_id: request.orderId, attempt_id: request.attemptId },
      success_url: request.returnUrl,
      cancel_url: request.cancelUrl,
      livemode: false,
      allowed_payment_method_types: ["card"],
    });

    const page = await fetch(String(created.redirectUrl)).then((response) => response.text());
    expect(page).toContain("175,00");
    expect(page).toContain("Bon cadeau séance portrait — Brive");
    for (const label of ["Payer", "Refuser", "Abandonner"]) expect(page).toContain(`>${label}<`);

    const paid = await fetch(`${created.redirectUrl}/payer`, {
      method: "POST",
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(
      `https://studio.example/commande/retour?session=${created.providerReference}`,
    );

    expect(receiver.received).toHaveLength(1);
    const event = receiver.received[0];
    expect(event).not.toBeInstanceOf(Error);
    expect(event).toMatchObject({
      type: "checkout.session.completed",
      eventId: expect.stringMatching(/^evt_/),
      payment: {
        providerReference: created.providerReference,
        status: "succeeded",
        amountCents: 17_500,
        currency: "eur",
        paymentReference: expect.stringMatching(/^pi_/),
      },
    });

    const state = await provider.retrieve(created.providerReference);
    expect(state).toEqual((event as VerifiedEvent).payment);
  });

  it("« Refuser » says the card was declined and keeps the checkout open; « Abandonner » leads to cancel_url", async () => {
    const created = await provider.createCheckout(checkoutRequest());
    const declined = await fetch(`${created.redirectUrl}/refuser`, { method: "POST" });
    expect(await declined.text()).toContain("Votre carte a été refusée");
    expect(await provider.retrieve(created.providerReference)).toMatchObject({
      status: "open",
      paymentReference: null,
    });

    const abandoned = await fetch(`${created.redirectUrl}/abandonner`, {
      method: "POST",
      redirect: "manual",
    });
    expect(abandoned.status).toBe(303);
    expect(abandoned.headers.get("location")).toBe(
      "https://studio.example/bons-cadeaux?paiement=abandonne",
    );
    expect(receiver.received).toEqual([]);
  });

  it("makes one checkout for one idempotency key, asked again seconds later", async () => {
    const before = fake.sessions().length;
    const request = checkoutRequest();
    const first = await provider.createCheckout(request);
    // A double submit lands in the next second (or minutes later, after a failed call): Stripe answers
    // the first session only if every parameter is the same, so none may come from the clock.
    const later = Date.now() + 90_000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    const second = await provider.createCheckout({ ...request });
    expect(second.providerReference).toBe(first.providerReference);
    expect(fake.sessions()).toHaveLength(before + 1);
  });

  it("expires an open checkout, and answers a paid one as paid", async () => {
    const open = await provider.createCheckout(checkoutRequest());
    expect(await provider.expire(open.providerReference)).toMatchObject({ status: "expired" });
    expect(paymentOf(receiver.received.at(-1))).toMatchObject({
      providerReference: open.providerReference,
      status: "expired",
    });
    // Expired twice: Stripe refuses, the answer is the state.
    expect(await provider.expire(open.providerReference)).toMatchObject({ status: "expired" });

    const paid = await provider.createCheckout(checkoutRequest());
    await fake.pay(paid.providerReference);
    expect(await provider.expire(paid.providerReference)).toMatchObject({
      status: "succeeded",
      amountCents: 17_500,
    });
  });

  it("refunds a payment once per idempotency key", async () => {
    const created = await provider.createCheckout(checkoutRequest());
    await fake.pay(created.providerReference);
    const { paymentReference } = await provider.retrieve(created.providerReference);
    const request = {
      paymentReference: String(paymentReference),
      amountCents: 5_000,
      idempotencyKey: "refund-1",
    };
    const refund = await provider.refund(request);
    expect(refund).toEqual({ refundReference: expect.stringMatching(/^re_/), status: "succeeded" });
    expect(await provider.refund(request)).toEqual(refund);
    expect(fake.refunds().filter((row) => row.payment_intent === paymentReference)).toHaveLength(1);
    // Refund events concern no checkout: stored, answered 200, nothing applied.
    expect(receiver.received.map(paymentOf)).toContain(null);
  });

  it("answers a pending refund as pending", async () => {
    const created = await provider.createCheckout(checkoutRequest());
    await fake.pay(created.providerReference);
    const { paymentReference } = await provider.retrieve(created.providerReference);
    fake.refundOutcome = "pending";
    try {
      const refund = await provider.refund({
        paymentReference: String(paymentReference),
        amountCents: 17_500,
        idempotencyKey: "refund-pending",
      });
      expect(refund.status).toBe("pending");
    } finally {
      fake.refundOutcome = "succeeded";
    }
  });
});

describe("stripeProvider.verifyWebhook", () => {
  const payload = (type: string, object: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: "evt_test_1",
      object: "event",
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object: { id: "cs_test_1", object: "checkout.session", ...object } },
    });

  it("maps the four checkout events and ignores every other type", () => {
    const session = {
      status: "complete",
      payment_status: "paid",
      amount_total: 9_000,
      currency: "eur",
      payment_intent: "pi_1",
    };
    const verify = (type: string, object = session) => {
      const body = payload(type, object);
      return provider.verifyWebhook(Buffer.from(body), stripeSignatureHeader(body, webhookSecret))
        .payment;
    };
    expect(verify("checkout.session.completed")).toEqual({
      providerReference: "cs_test_1",
      status: "succeeded",
      amountCents: 9_000,
      currency: "eur",
      paymentReference: "pi_1",
    });
    expect(verify("checkout.session.async_payment_succeeded")?.status).toBe("succeeded");
    expect(verify("checkout.session.async_payment_failed")?.status).toBe("failed");
    expect(
      verify("checkout.session.expired", {
        ...session,
        status: "expired",
        payment_status: "unpaid",
      })?.status,
    ).toBe("expired");
    // Completed but not paid yet (a delayed method): nothing final.
    expect(
      verify("checkout.session.completed", { ...session, payment_status: "unpaid" })?.status,
    ).toBe("open");
    expect(verify("customer.created")).toBeNull();
    expect(verify("charge.refunded")).toBeNull();
  });

  it("maps a refund's events to its state (decision 0171), charge.refunded to its payment", () => {
    const verify = (type: string, object: Record<string, unknown>) => {
      const body = payload(type, object);
      return provider.verifyWebhook(Buffer.from(body), stripeSignatureHeader(body, webhookSecret));
    };
    const refund = {
      id: "re_1",
      object: "refund",
      payment_intent: "pi_1",
      metadata: { refund_id: "0b6f2c1e-5d4a-4b3c-9a8e-7f6d5c4b3a21" },
    };
    expect(verify("refund.updated", { ...refund, status: "succeeded" })).toMatchObject({
      payment: null,
      refund: {
        refundReference: "re_1",
        refundId: "0b6f2c1e-5d4a-4b3c-9a8e-7f6d5c4b3a21",
        paymentReference: "pi_1",
        status: "succeeded",
        failureReason: null,
      },
    });
    expect(
      verify("refund.failed", {
        ...refund,
        metadata: {},
        status: "failed",
        failure_reason: "expired_or_canceled_card",
      }).refund,
    ).toMatchObject({
      refundId: null,
      status: "failed",
      failureReason: "expired_or_canceled_card",
    });
    expect(verify("refund.updated", { ...refund, status: "requires_action" }).refund?.status).toBe(
      "pending",
    );
    expect(
      verify("charge.refunded", { id: "ch_1", object: "charge", payment_intent: "pi_1" }).refund,
    ).toEqual({
      refundReference: null,
      refundId: null,
      paymentReference: "pi_1",
      status: null,
      failureReason: null,
    });
    expect(verify("customer.created", {}).refund).toBeNull();
  });

  it("refuses a forged signature, a stale timestamp, a wrong secret, a changed body, no header", () => {
    const body = payload("checkout.session.completed");
    const refused = (raw: string, header: string | undefined, verifier = provider) =>
      expect(() => verifier.verifyWebhook(Buffer.from(raw), header)).toThrow(
        WebhookVerificationError,
      );
    refused(body, stripeSignatureHeader(body, "whsec_forged"));
    refused(body, stripeSignatureHeader(body, webhookSecret, Math.floor(Date.now() / 1000) - 301));
    refused(body.replace("evt_test_1", "evt_test_2"), stripeSignatureHeader(body, webhookSecret));
    refused(body, undefined);
    refused(body, "t=1,v1=00");
    const wrongSecret = stripeProvider({
      secretKey: fake.secretKey,
      webhookSecret: "whsec_other",
      apiUrl: fake.apiUrl,
    });
    refused(body, stripeSignatureHeader(body, webhookSecret), wrongSecret);
    // Within five minutes it verifies.
    const recent = stripeSignatureHeader(body, webhookSecret, Math.floor(Date.now() / 1000) - 240);
    expect(provider.verifyWebhook(Buffer.from(body), recent).eventId).toBe("evt_test_1");
  });
});

describe("stripeProvider's errors and configuration", () => {
  it("turns Stripe's 500 and an unanswered call into ProviderUnavailableError", async () => {
    const noRetry = stripeProvider({
      secretKey: fake.secretKey,
      webhookSecret,
      apiUrl: fake.apiUrl,
      maxNetworkRetries: 0,
      timeoutMs: 500,
    });
    const before = fake.sessions().length;
    fake.failNext({ status: 500 });
    await expect(noRetry.createCheckout(checkoutRequest())).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    fake.failNext({ hang: true });
    await expect(noRetry.retrieve("cs_test_any")).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(fake.sessions()).toHaveLength(before);
    fake.answerHeldRequests();
  });

  it("retries a 500 with the same idempotency key: one checkout", async () => {
    const before = fake.requestCount("POST /v1/checkout/sessions");
    fake.failNext({ status: 500 });
    const created = await provider.createCheckout(checkoutRequest());
    expect(fake.requestCount("POST /v1/checkout/sessions")).toBe(before + 2);
    expect(fake.sessions().filter((s) => s.id === created.providerReference)).toHaveLength(1);
  });

  it("retries a creation that timed out with the same key: one checkout, even once the late call is answered", async () => {
    const patient = stripeProvider({
      secretKey: fake.secretKey,
      webhookSecret,
      apiUrl: fake.apiUrl,
      maxNetworkRetries: 1,
      timeoutMs: 300,
    });
    const before = fake.sessions().length;
    fake.failNext({ hang: true });
    const created = await patient.createCheckout(checkoutRequest());
    expect(fake.heldRequestCount()).toBe(1);
    fake.answerHeldRequests();
    await vi.waitFor(() => expect(fake.heldRequestCount()).toBe(0));
    expect(fake.sessions()).toHaveLength(before + 1);
    expect(fake.session(created.providerReference)).toBeDefined();
  });

  it("turns a refused key and an unknown checkout into ProviderUnavailableError", async () => {
    const wrongKey = stripeProvider({
      secretKey: "sk_test_not_the_fakes",
      webhookSecret,
      apiUrl: fake.apiUrl,
    });
    await expect(wrongKey.retrieve("cs_test_any")).rejects.toThrow(/StripeAuthenticationError 401/);
    await expect(provider.retrieve("cs_test_unknown")).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
  });

  it("refuses lines whose total is not the order's", async () => {
    await expect(provider.createCheckout(checkoutRequest({ amountCents: 100 }))).rejects.toThrow(
      /refused/,
    );
  });

  it("honours an API URL only with a test key", () => {
    expect(() =>
      stripeProvider({ secretKey: "sk_live_abc", webhookSecret, apiUrl: fake.apiUrl }),
    ).toThrow(/STRIPE_API_URL.*clé live/);
    expect(isTestMode("sk_test_abc")).toBe(true);
    expect(isTestMode("rk_test_abc")).toBe(true);
    expect(isTestMode("sk_live_abc")).toBe(false);
  });

  it("lets forms post to Stripe's checkout, or to the fake's page in tests only", () => {
    expect(stripeProvider({ secretKey: "sk_live_abc", webhookSecret }).formActionOrigins()).toEqual(
      ["https://checkout.stripe.com"],
    );
    expect(
      stripeProvider({
        secretKey: "sk_live_abc",
        webhookSecret,
        checkoutOrigin: fake.pageOrigin,
      }).formActionOrigins(),
    ).toEqual(["https://checkout.stripe.com"]);
    expect(provider.formActionOrigins()).toEqual([fake.pageOrigin]);
  });
});

describe("ensureWebhookEndpoint", () => {
  it("creates our endpoint with its secret, keeps it while the secret is known, replaces it otherwise", async () => {
    const url = "https://studio.example/webhooks/stripe";
    const ourEndpoints = () => fake.webhookEndpoints().filter((row) => row.url === url);
    const created = await ensureWebhookEndpoint(fake.secretKey, url, fake.apiUrl);
    expect(created).toEqual({
      id: expect.stringMatching(/^we_/),
      secret: expect.stringMatching(/^whsec_/),
      created: true,
    });
    expect(ourEndpoints()).toMatchObject([
      { id: created.id, secret: created.secret, enabled_events: [...STRIPE_WEBHOOK_EVENTS] },
    ]);

    const kept = await ensureWebhookEndpoint(fake.secretKey, url, fake.apiUrl, {
      secretKnown: true,
    });
    expect(kept).toEqual({ id: created.id, secret: null, created: false });
    expect(ourEndpoints()).toHaveLength(1);

    // The secret was lost: Stripe will not show it again, so the endpoint is replaced.
    const replaced = await ensureWebhookEndpoint(fake.secretKey, url, fake.apiUrl);
    expect(replaced.created).toBe(true);
    expect(replaced.secret).not.toBe(created.secret);
    expect(ourEndpoints().map((row) => row.id)).toEqual([replaced.id]);
  });

  it("brings a kept endpoint's events up to date and enables it again", async () => {
    const url = "https://studio.example/autre/webhooks/stripe";
    const { id } = fake.addWebhookEndpoint(url, ["checkout.session.completed"]);
    await ensureWebhookEndpoint(fake.secretKey, url, fake.apiUrl, { secretKnown: true });
    expect(fake.webhookEndpoints().find((row) => row.id === id)).toMatchObject({
      enabled_events: [...STRIPE_WEBHOOK_EVENTS],
      status: "enabled",
    });
  });

  it("refuses an API URL with a live key", async () => {
    await expect(
      ensureWebhookEndpoint("sk_live_abc", "https://x.example/w", fake.apiUrl),
    ).rejects.toThrow(/clé live/);
  });
});
