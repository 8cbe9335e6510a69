import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PaymentProvider, VerifiedEvent } from "../payments/provider.server";
import { stripeProvider } from "../payments/providers/stripe.server";
import {
  STRIPE_WEBHOOK_MAX_BYTES,
  STRIPE_WEBHOOK_PATH,
  stripeWebhook,
} from "./stripe-webhook.server";
import { stripeSignatureHeader } from "../../../tests/support/fake-stripe";

const webhookSecret = "whsec_test_webhook_handler";
const cardProvider = stripeProvider({ secretKey: "sk_test_handler", webhookSecret });

let provider: PaymentProvider | null;
let outcome: "stored" | "duplicate" | "ignored" | Error;
const received: VerifiedEvent[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  // As a session middleware would on every answer: the webhook's answers must not carry it.
  app.use((_req, res, next) => {
    res.setHeader("Set-Cookie", "session=visitor; Path=/; HttpOnly");
    next();
  });
  app.all(
    STRIPE_WEBHOOK_PATH,
    stripeWebhook({
      provider: () => provider,
      receive: async (event) => {
        if (outcome instanceof Error) throw outcome;
        received.push(event);
        return outcome;
      },
    }),
  );
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STRIPE_WEBHOOK_PATH}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  provider = cardProvider;
  outcome = "stored";
  received.length = 0;
});

function eventBody(type = "checkout.session.completed", id = "evt_test_handler"): string {
  return JSON.stringify({
    id,
    object: "event",
    created: Math.floor(Date.now() / 1000),
    type,
    data: {
      object: {
        id: "cs_test_handler",
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: 4_500,
        currency: "eur",
        payment_intent: "pi_handler",
      },
    },
  });
}

function post(body: string, signature?: string, init: RequestInit = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Cookie: "session=someone",
      ...(signature ? { "Stripe-Signature": signature } : {}),
    },
    body,
    ...init,
  });
}

describe("the Stripe webhook endpoint", () => {
  it.each(["stored", "duplicate", "ignored"] as const)(
    "passes a verified event on and answers 200 when the inbox says %s",
    async (answer) => {
      outcome = answer;
      const body = eventBody();
      const response = await post(body, stripeSignatureHeader(body, webhookSecret));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true });
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        eventId: "evt_test_handler",
        type: "checkout.session.completed",
        payment: { providerReference: "cs_test_handler", status: "succeeded", amountCents: 4_500 },
      });
    },
  );

  it("answers 200 to an event type it does not handle, passed on with no payment", async () => {
    const body = eventBody("customer.created");
    const response = await post(body, stripeSignatureHeader(body, webhookSecret));
    expect(response.status).toBe(200);
    expect(received.map((event) => event.payment)).toEqual([null]);
  });

  it("refuses a forged signature, a stale one, a changed body and none with 400, passing nothing on", async () => {
    const body = eventBody();
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const attempts: Array<[string, string | undefined]> = [
      [body, stripeSignatureHeader(body, "whsec_forged")],
      [body, stripeSignatureHeader(body, webhookSecret, stale)],
      [body.replace("4500", "1"), stripeSignatureHeader(body, webhookSecret)],
      [body, undefined],
    ];
    for (const [raw, signature] of attempts) {
      const response = await post(raw, signature);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Signature Stripe invalide.");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(received).toEqual([]);
  });

  it("refuses a signed body that is not an event it can read with 400, never 500, passing nothing on", async () => {
    const event = JSON.parse(eventBody()) as Record<string, unknown>;
    const bodies = [
      "null",
      "[]",
      JSON.stringify({ ...event, data: {} }),
      JSON.stringify({ ...event, id: undefined }),
      JSON.stringify({ ...event, created: "hier" }),
      // Not JSON at all, though signed.
      "pas du JSON",
      // Nested deeper than any event (5,000 levels in 30 KB): storing it overflowed the stack, a 500.
      JSON.stringify({ ...event, data: { object: { id: "cs_test_deep" } } }).replace(
        '{"id":"cs_test_deep"}',
        `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
      ),
    ];
    for (const body of bodies) {
      const response = await post(body, stripeSignatureHeader(body, webhookSecret));
      expect({ body, status: response.status, text: await response.text() }).toEqual({
        body,
        status: 400,
        text: "Événement Stripe illisible.",
      });
    }
    expect(received).toEqual([]);
  });

  it("refuses a body over 256 KB with 413, said up front or sent in pieces", async () => {
    const padding = "x".repeat(STRIPE_WEBHOOK_MAX_BYTES);
    const body = eventBody().replace('"object":"event"', `"object":"event","padding":"${padding}"`);
    const signature = stripeSignatureHeader(body, webhookSecret);
    const declared = await post(body, signature);
    expect(declared.status).toBe(413);

    // No Content-Length: the reading stops once the limit is passed.
    const bytes = Buffer.from(body);
    const chunked = await post("", signature, {
      body: new ReadableStream({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 16_384) {
            controller.enqueue(bytes.subarray(offset, offset + 16_384));
          }
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(received).toEqual([]);
  });

  it("takes a body just under the limit", async () => {
    const body = eventBody();
    const padding = "x".repeat(STRIPE_WEBHOOK_MAX_BYTES - body.length - 20);
    const large = body.replace('"object":"event"', `"object":"event","padding":"${padding}"`);
    const response = await post(large, stripeSignatureHeader(large, webhookSecret));
    expect(response.status).toBe(200);
  });

  it("answers 405 to any method but POST", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await fetch(url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it("answers 500 when the inbox cannot store the event, so that Stripe sends it again", async () => {
    outcome = new Error("database unavailable");
    const body = eventBody();
    const response = await post(body, stripeSignatureHeader(body, webhookSecret));
    expect(response.status).toBe(500);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("is not there (404) while card payments are not configured", async () => {
    provider = null;
    const body = eventBody();
    const response = await post(body, stripeSignatureHeader(body, webhookSecret));
    expect(response.status).toBe(404);
    expect(received).toEqual([]);
  });
});
