import { describe, expect, it } from "vitest";
import { eventTemplate, redactStripeObject } from "./stripe-fixtures";

describe("redactStripeObject", () => {
  it("drops secrets and replaces a buyer's details, keeping Stripe's shape", () => {
    const session = {
      id: "cs_test_1",
      object: "checkout.session",
      client_secret: "cs_test_1_secret_abc",
      customer_email: "marie.dupont@gmail.com",
      customer_details: {
        email: "marie.dupont@gmail.com",
        name: "Marie Dupont",
        phone: "+33612345678",
        address: { city: "Brive", line1: "3 rue X" },
        tax_ids: [{ type: "eu_vat", value: "FR123" }],
      },
      url: "https://checkout.stripe.com/c/pay/cs_test_1#fidkdWxOYHwnPyd1blpxYHZxWjA0",
      metadata: { order_id: "o1" },
      amount_total: 1500,
      on_behalf_of: "acct_1AbC",
    };
    expect(redactStripeObject(session)).toEqual({
      id: "cs_test_1",
      object: "checkout.session",
      customer_email: "acheteur@example.com",
      customer_details: {
        email: "acheteur@example.com",
        name: "Prénom Nom",
        phone: null,
        address: null,
        tax_ids: [],
      },
      url: "https://checkout.stripe.com/c/pay/cs_test_1",
      metadata: { order_id: "o1" },
      amount_total: 1500,
      on_behalf_of: "acct_redacted",
    });
  });

  it("drops a webhook endpoint's signing secret and a receipt's address", () => {
    expect(
      redactStripeObject({
        id: "we_1",
        secret: "whsec_abc",
        url: "https://studio.example/webhooks/stripe",
        receipt_url: "https://pay.stripe.com/receipts/payment/CAcaFwoVYWNjdF8x?s=ap",
      }),
    ).toEqual({
      id: "we_1",
      url: "https://studio.example/webhooks/stripe",
      receipt_url: "https://pay.stripe.com/receipts/redacted",
    });
  });

  it("keeps an event's envelope without its object", () => {
    expect(
      eventTemplate({
        id: "evt_1",
        object: "event",
        type: "checkout.session.expired",
        data: { object: { id: "cs_test_1", customer_email: "x@y.fr" } },
        request: { id: "req_1", idempotency_key: "k" },
      }),
    ).toEqual({
      id: "evt_1",
      object: "event",
      type: "checkout.session.expired",
      data: { object: {} },
      request: { id: "req_1", idempotency_key: "k" },
    });
  });
});
