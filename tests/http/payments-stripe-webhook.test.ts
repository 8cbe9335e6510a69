import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerEvents } from "../../app/server/db/schema";
import {
  siteStripeEnv,
  startFakeStripe,
  stripeSignatureHeader,
  type FakeStripe,
} from "../support/fake-stripe";
import { useAdmin } from "../support/accounts";
import { fetchPage, textOf } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * Stripe's webhook as the production server answers it (decisions 0163, 0166): with the environment's
 * test key and no signing secret, the site registers its endpoint in the (fake) Stripe account at start
 * and verifies every event with the secret Stripe answered; forged, stale, oversized or misdirected posts
 * are refused before anything is stored, an event of another type is acknowledged and ignored.
 */

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51WebhookThroughTheSite000000" });
});
afterAll(async () => {
  await fake.close();
});
const baseUrl = useOwnServer(() => siteStripeEnv(fake));

const admin = useAdmin();
const webhookUrl = () => `${baseUrl()}/webhooks/stripe`;

/** The signing secret of the endpoint the site registered, once it has. */
async function registeredSecret(): Promise<string> {
  await expect.poll(() => fake.webhookEndpoints().length).toBe(1);
  const [endpoint] = fake.webhookEndpoints();
  expect(endpoint?.url).toBe(webhookUrl());
  return endpoint?.secret ?? "";
}

function event(type: string, object: Record<string, unknown>) {
  return JSON.stringify({
    id: `evt_test_${type.replaceAll(".", "_")}_${Date.now()}`,
    object: "event",
    api_version: "2026-10-28",
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(webhookUrl(), {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

const storedEvents = () => serverDatabase().select().from(providerEvents);

describe("/webhooks/stripe", () => {
  it("is registered by the site at start, with the events it handles", async () => {
    await registeredSecret();
    const [endpoint] = fake.webhookEndpoints();
    expect(endpoint?.enabled_events).toEqual(
      expect.arrayContaining(["checkout.session.completed", "checkout.session.expired"]),
    );
  });

  it("refuses what is not Stripe's, before storing anything, and sets no cookie", async () => {
    const secret = await registeredSecret();
    const body = event("checkout.session.completed", {
      id: "cs_test_forged",
      object: "checkout.session",
    });
    const forged = await post(body, {
      "stripe-signature": stripeSignatureHeader(body, "whsec_wrong"),
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get("set-cookie")).toBeNull();
    const stale = await post(body, {
      "stripe-signature": stripeSignatureHeader(body, secret, Math.floor(Date.now() / 1000) - 600),
    });
    expect(stale.status).toBe(400);
    expect((await post(body)).status).toBe(400);
    const huge = "x".repeat(300 * 1024);
    expect(
      (await post(huge, { "stripe-signature": stripeSignatureHeader(huge, secret) })).status,
    ).toBe(413);
    const asked = await fetch(webhookUrl());
    expect(asked.status).toBe(405);
    // A post without our origin is not a form: no origin check stands in its way, only the signature.
    expect(await storedEvents()).toEqual([]);
  });

  it("stores a verified payment event once, and acknowledges another type without storing it", async () => {
    const secret = await registeredSecret();
    const body = event("checkout.session.expired", {
      id: "cs_test_unknown_to_the_site",
      object: "checkout.session",
      status: "expired",
      payment_status: "unpaid",
      amount_total: 4900,
      currency: "eur",
      payment_intent: null,
    });
    const signed = { "stripe-signature": stripeSignatureHeader(body, secret) };
    const first = await post(body, signed);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    expect((await post(body, signed)).status).toBe(200);
    const eventId = (JSON.parse(body) as { id: string }).id;
    expect(
      await serverDatabase()
        .select({ id: providerEvents.eventId })
        .from(providerEvents)
        .where(eq(providerEvents.eventId, eventId)),
    ).toHaveLength(1);

    const other = event("customer.created", { id: "cus_test", object: "customer" });
    const ignored = await post(other, { "stripe-signature": stripeSignatureHeader(other, secret) });
    expect(ignored.status).toBe(200);
    expect((await storedEvents()).map((row) => row.type)).toEqual(["checkout.session.expired"]);
  });

  it("shows the owner the keys of the server's configuration and when Stripe last wrote", async () => {
    const page = await fetchPage("/admin/reglages/paiement", { cookie: admin.cookie() });
    const text = textOf(page.document.body);
    expect(text).toContain("Clé enregistrée : sk_test_…0000 (mode test)");
    expect(text).toContain("Ces clés viennent de la configuration du serveur");
    expect(text).toMatch(/Dernière notification de Stripe reçue le (?:1er|\d{1,2}) \S+ \d{4}/);
    expect(page.document.querySelector('form[aria-label="Clés Stripe"]')).toBeNull();
    expect(page.html).not.toContain(fake.secretKey);
  });
});
