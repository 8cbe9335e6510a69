/**
 * What scripts/record-stripe-fixtures.ts writes into tests/fixtures/stripe/ (decision 0163): real
 * test-mode objects with every secret and every personal detail replaced, so that the fixtures can be
 * committed and the fake Stripe's templates stay true to Stripe's shapes.
 */

/** Keys whose value is a secret whatever the object: dropped. */
const SECRET_KEY = /secret|^client_secret$|^ephemeral_key/i;

/** Personal details of a buyer, wherever they are, replaced by a placeholder of the same shape. */
const PERSONAL: Record<string, unknown> = {
  email: "acheteur@example.com",
  customer_email: "acheteur@example.com",
  receipt_email: null,
  ip_address: null,
};

/** Objects that describe a person: their name, phone, address and tax ids go too. */
const PERSON_HOLDERS = new Set([
  "customer_details",
  "billing_details",
  "shipping_details",
  "shipping",
  "collected_information",
]);
const PERSON: Record<string, unknown> = {
  name: "Prénom Nom",
  phone: null,
  address: null,
  tax_ids: [],
};

/** Addresses that name the account or a buyer's receipt: kept without their identifying part. */
const LINK_KEYS = new Set(["url", "receipt_url", "request_log_url", "hosted_invoice_url"]);

function redactLink(value: string): string {
  const url = new URL(value);
  url.hash = "";
  url.search = "";
  if (url.hostname === "pay.stripe.com") url.pathname = "/receipts/redacted";
  return url.toString();
}

/** A copy of `value` without secrets or personal data (see the key lists above). */
export function redactStripeObject(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => redactStripeObject(item));
  if (value && typeof value === "object") {
    const person = key !== undefined && PERSON_HOLDERS.has(key);
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([name]) => !SECRET_KEY.test(name))
      .map(([name, item]) =>
        person && name in PERSON && item !== null
          ? ([name, PERSON[name]] as const)
          : ([name, redactStripeObject(item, name)] as const),
      );
    return Object.fromEntries(entries);
  }
  if (key === undefined || value === null) return value;
  if (key in PERSONAL) return PERSONAL[key];
  if (LINK_KEYS.has(key) && typeof value === "string" && /^https?:/.test(value)) {
    return redactLink(value);
  }
  // An account id (acct_…) names the studio's Stripe account.
  if (typeof value === "string" && /^acct_/.test(value)) return "acct_redacted";
  return value;
}

/** The event envelope the fake fills with its own object. */
export function eventTemplate(event: Record<string, unknown>): Record<string, unknown> {
  const redacted = redactStripeObject(event) as Record<string, unknown>;
  return { ...redacted, data: { object: {} } };
}
