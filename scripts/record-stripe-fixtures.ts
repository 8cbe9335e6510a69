// `STRIPE_SECRET_KEY=sk_test_… npm run fixture:stripe`: refreshes tests/fixtures/stripe/ from Stripe's
// real test mode, so that the fake Stripe's templates (tests/support/fake-stripe.ts) keep Stripe's shapes
// (decision 0163). Run by a person with a TEST key, after an upgrade of the `stripe` SDK for instance;
// NEVER in CI (it reaches api.stripe.com) and never with a live key (refused).
//
// What it does in the test account, whose data it leaves as test data:
// 1. creates a Checkout Session as the site does (payment mode, one EUR line, e-mail, metadata, success and
//    cancel URLs, 31 minutes), retrieves it and expires it;
// 2. pays 1 € with Stripe's test card `pm_card_visa` (a PaymentIntent: Checkout cannot be paid by the API)
//    and refunds it, for the charge and the refund;
// 3. lists the account's recent events of those objects and its webhook endpoints;
// 4. writes each object with secrets and personal data removed (scripts/lib/stripe-fixtures.ts). Review
//    the diff before committing it.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import Stripe from "stripe";
import { eventTemplate, redactStripeObject } from "./lib/stripe-fixtures.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../tests/fixtures/stripe");

async function write(name: string, value: unknown) {
  const file = path.join(FIXTURES, `${name}.json`);
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
  console.log(`  ${path.relative(process.cwd(), file)}`);
}

async function main() {
  const key = process.env.STRIPE_SECRET_KEY ?? "";
  if (!/^(sk|rk)_test_/.test(key)) {
    console.error("✖ STRIPE_SECRET_KEY doit être une clé de TEST (sk_test_…) : rien n'est fait.");
    process.exit(1);
  }
  const stripe = new Stripe(key, { telemetry: false, maxNetworkRetries: 2 });

  const created = await stripe.checkout.sessions.create({
    mode: "payment",
    allowed_payment_method_types: ["card"],
    locale: "fr",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: "eur",
          unit_amount: 15_000,
          product_data: { name: "Bon cadeau séance portrait (enregistrement de test)" },
        },
      },
    ],
    customer_email: "acheteur@example.com",
    client_reference_id: "attempt-id",
    metadata: { order_id: "order-id", attempt_id: "attempt-id" },
    success_url: "https://studio.example/commande/retour?session={CHECKOUT_SESSION_ID}",
    cancel_url: "https://studio.example/bons-cadeaux",
    expires_at: Math.floor(Date.now() / 1000) + 31 * 60,
  });
  const retrieved = await stripe.checkout.sessions.retrieve(created.id);
  const expired = await stripe.checkout.sessions.expire(created.id);

  const payment = await stripe.paymentIntents.create({
    amount: 100,
    currency: "eur",
    payment_method: "pm_card_visa",
    confirm: true,
    automatic_payment_methods: { enabled: true, allow_redirects: "never" },
  });
  const chargeId =
    typeof payment.latest_charge === "string" ? payment.latest_charge : payment.latest_charge?.id;
  const charge = chargeId ? await stripe.charges.retrieve(chargeId) : null;
  const refund = await stripe.refunds.create({ payment_intent: payment.id, amount: 100 });

  const events = await stripe.events.list({
    limit: 20,
    types: ["checkout.session.expired", "charge.refunded", "refund.created", "charge.succeeded"],
  });
  const endpoints = await stripe.webhookEndpoints.list({ limit: 10 });

  console.log("Écrit :");
  // The open session as created (the fake's template), and what retrieve and expire answer.
  await write("checkout-session", redactStripeObject(retrieved));
  await write("checkout-session-expired", redactStripeObject(expired));
  if (charge) await write("charge", redactStripeObject(charge));
  await write("refund", redactStripeObject(refund));
  const event =
    events.data.find((item) => item.type === "checkout.session.expired") ?? events.data[0];
  if (event) await write("event", eventTemplate(event as unknown as Record<string, unknown>));
  await write(
    "events-recent",
    events.data.map((item) => redactStripeObject(item)),
  );
  const endpoint = endpoints.data[0];
  if (endpoint) await write("webhook-endpoint", redactStripeObject(endpoint));
}

await main();
