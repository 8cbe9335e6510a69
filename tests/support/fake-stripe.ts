import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A fake Stripe for tests (decision 0163): two `node:http` servers on 127.0.0.1 that the real `stripe` SDK
 * is pointed at (`host`, `port`, `protocol`), speaking Stripe's wire format: form-encoded requests in
 * Stripe's bracket notation (`line_items[0][price_data][unit_amount]=…`), `Authorization: Bearer sk_test_…`,
 * `Idempotency-Key`, JSON objects shaped as Stripe's (templates in tests/fixtures/stripe/, refreshed from
 * real test-mode payloads by scripts/record-stripe-fixtures.ts) and Stripe's JSON errors.
 *
 * - The API (`apiUrl`): Checkout Sessions (create, retrieve, expire), refunds, webhook endpoints.
 * - The hosted payment page (`pageOrigin`, another port: another origin, as checkout.stripe.com is, so a
 *   browser test proves the site's CSP `form-action`): `GET /pay/:id` with « Payer », « Refuser »,
 *   « Abandonner » as plain forms.
 * - Webhooks: each event is POSTed to the registered endpoints with a `Stripe-Signature` header of the
 *   real scheme (`t=…,v1=` HMAC-SHA256 of `${t}.${payload}` with the endpoint's secret), which the SDK's
 *   `constructEvent` verifies. Tests may hold events and deliver them later, again or out of order.
 */

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/stripe");

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as T;
}

export type StripeObject = Record<string, unknown> & { id: string; object: string };

export type FakeCheckoutSession = StripeObject & {
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  amount_total: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  url: string | null;
  success_url: string;
  cancel_url: string | null;
  expires_at: number;
  livemode: boolean;
};

export type FakeEvent = StripeObject & {
  type: string;
  created: number;
  data: { object: StripeObject };
};

export type FakeRefund = StripeObject & {
  amount: number;
  payment_intent: string;
  charge: string;
  status: "pending" | "succeeded" | "failed" | "canceled";
};

export type FakeWebhookEndpoint = StripeObject & {
  url: string;
  enabled_events: string[];
  secret?: string;
};

export type CheckoutLineOnPage = { name: string; quantity: number; unitAmount: number };

export type Delivery = { eventId: string; type: string; url: string; status: number; body: string };

/**
 * A failure the next API call(s) meet: an error status, or no answer until `answerHeldRequests` (a slow
 * Stripe: the call is then handled, late) or the fake closes.
 */
export type InjectedFailure = { status: number; times?: number } | { hang: true; times?: number };

export type FakeStripe = {
  /** Where the SDK is pointed: `http://127.0.0.1:<port>`. */
  apiUrl: string;
  /** The hosted page's origin (another port): the site's CSP `form-action` must allow it. */
  pageOrigin: string;
  /** The only key the fake accepts (`sk_test_…`). */
  secretKey: string;
  /** Registers a webhook endpoint as the dashboard would; answers its id and signing secret. */
  addWebhookEndpoint: (url: string, events?: string[]) => { id: string; secret: string };
  webhookEndpoints: () => FakeWebhookEndpoint[];
  session: (id: string) => FakeCheckoutSession | undefined;
  sessions: () => FakeCheckoutSession[];
  /** The lines a session's page shows (Stripe keeps them apart from the session object as well). */
  sessionLines: (id: string) => CheckoutLineOnPage[];
  refunds: () => FakeRefund[];
  /** « Payer » without a browser: the session is paid, `checkout.session.completed` sent (or held). */
  pay: (sessionId: string, options?: { amountTotal?: number }) => Promise<FakeCheckoutSession>;
  /** Expires an open session now, as its `expires_at` passing would: `checkout.session.expired`. */
  expireNow: (sessionId: string) => Promise<FakeCheckoutSession>;
  /**
   * A pending refund settles: `refund.updated` (and `charge.refunded` or `refund.failed`, with Stripe's
   * `failure_reason`, `expired_or_canceled_card` by default). `silently`: no event at all (lost webhooks:
   * only a retrieval finds it).
   */
  settleRefund: (
    refundId: string,
    status: "succeeded" | "failed",
    options?: { failureReason?: string; silently?: boolean },
  ) => Promise<FakeRefund>;
  /**
   * A refund made by the owner in Stripe's dashboard (no metadata of ours): the whole payment by default;
   * `refund.created`, and `charge.refunded` once it succeeded, as Stripe sends them.
   */
  refundFromDashboard: (paymentIntent: string, amount?: number) => Promise<FakeRefund>;
  /** The status new refunds get: `succeeded` (Stripe's usual answer for a card) or `pending`. */
  refundOutcome: "succeeded" | "pending";
  /** Events are kept instead of being sent until `deliverHeld` (or `deliver`). */
  holdEvents: () => void;
  /** Events are sent again as they happen; those held stay held. */
  releaseEvents: () => void;
  heldEvents: () => FakeEvent[];
  /** Sends the held events, in the order they happened or the reverse one, then forgets them. */
  deliverHeld: (options?: { order?: "happened" | "reverse" }) => Promise<Delivery[]>;
  /** Sends one event (again) to every endpoint that listens to its type. */
  deliver: (eventId: string) => Promise<Delivery[]>;
  events: (type?: string) => FakeEvent[];
  deliveries: () => Delivery[];
  /** How many requests reached a route, as `POST /v1/checkout/sessions` or `GET /pay/:id`. */
  requestCount: (route: string) => number;
  /** The next API call(s) fail: Stripe's 500 JSON error, or no answer (the caller's timeout). */
  failNext: (failure: InjectedFailure) => void;
  /** The calls held by `failNext({ hang: true })` are answered now, late, as a slow Stripe would. */
  answerHeldRequests: () => void;
  heldRequestCount: () => number;
  close: () => Promise<void>;
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

const now = () => Math.floor(Date.now() / 1000);

function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** The variables that point a site's server at `fake` as its card provider (its keys, API and hosted page). */
export function siteStripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_API_URL: fake.apiUrl,
    STRIPE_CHECKOUT_ORIGIN: fake.pageOrigin,
  };
}

/** The `Stripe-Signature` header of `payload` signed with `secret` at `timestamp` (seconds). */
export function stripeSignatureHeader(
  payload: string,
  secret: string,
  timestamp: number = now(),
): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

type FormValue = string | FormValue[] | { [key: string]: FormValue };
type FormObject = { [key: string]: FormValue };

/**
 * Stripe's form encoding: `a[b][0][c]=v` is `{ a: { b: [{ c: "v" }] } }`. Numeric keys make arrays (the
 * SDK numbers array items; `a[]=v` appends).
 */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const head = /^[^[]+/.exec(name)?.[0] ?? name;
    const keys = [
      head,
      ...[...name.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? ""),
    ];
    let container: FormObject | FormValue[] = root;
    keys.forEach((key, index) => {
      const last = index === keys.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(keys[index + 1] ?? "");
      const slot = Array.isArray(container) ? (key === "" ? container.length : Number(key)) : key;
      const holder = container as Record<string | number, FormValue>;
      if (last) {
        holder[slot] = value;
        return;
      }
      holder[slot] ??= nextIsIndex ? [] : {};
      container = holder[slot] as FormObject | FormValue[];
    });
  }
  return root;
}

class StripeHttpError extends Error {
  readonly status: number;
  readonly body: { error: Record<string, unknown> };
  constructor(status: number, error: Record<string, unknown>) {
    super(String(error.message));
    this.status = status;
    this.body = { error };
  }
}

function invalidRequest(message: string, param?: string, code?: string): StripeHttpError {
  return new StripeHttpError(400, {
    type: "invalid_request_error",
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
}

function noSuch(kind: string, id: string, param: string): StripeHttpError {
  const error = fixture<{ error: Record<string, unknown> }>("error-invalid-request").error;
  return new StripeHttpError(404, { ...error, message: `No such ${kind}: '${id}'`, param });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const euros = (cents: number) =>
  new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(cents / 100);

function asString(value: FormValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export async function startFakeStripe(options: { secretKey?: string } = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(12).toString("hex")}`;
  const sessions = new Map<string, FakeCheckoutSession>();
  const lines = new Map<string, CheckoutLineOnPage[]>();
  const charges = new Map<string, StripeObject & { amount: number; amount_refunded: number }>();
  const refunds = new Map<string, FakeRefund>();
  const endpoints = new Map<string, FakeWebhookEndpoint & { secret: string }>();
  const idempotency = new Map<string, { request: string; status: number; body: string }>();
  const events: FakeEvent[] = [];
  const held: FakeEvent[] = [];
  const deliveries: Delivery[] = [];
  const counts = new Map<string, number>();
  const failures: InjectedFailure[] = [];
  const hanging = new Map<ServerResponse, () => void>();
  let closing = false;
  let holding = false;

  const count = (route: string) => counts.set(route, (counts.get(route) ?? 0) + 1);

  async function send(event: FakeEvent): Promise<Delivery[]> {
    const payload = JSON.stringify(event, null, 2);
    const results: Delivery[] = [];
    for (const endpoint of endpoints.values()) {
      const listens =
        endpoint.enabled_events.includes("*") || endpoint.enabled_events.includes(event.type);
      if (!listens) continue;
      let status = 0;
      let body = "";
      // Tests never leave the machine: an endpoint elsewhere (registered by a test of the registration)
      // is recorded as not delivered.
      if (!LOOPBACK_HOSTS.has(new URL(endpoint.url).hostname)) {
        deliveries.push({ eventId: event.id, type: event.type, url: endpoint.url, status, body });
        continue;
      }
      try {
        const response = await fetch(endpoint.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
            "Stripe-Signature": stripeSignatureHeader(payload, endpoint.secret),
          },
          body: payload,
        });
        status = response.status;
        body = await response.text();
      } catch (error) {
        body = String(error);
      }
      const delivery = { eventId: event.id, type: event.type, url: endpoint.url, status, body };
      deliveries.push(delivery);
      results.push(delivery);
    }
    return results;
  }

  async function emit(type: string, object: StripeObject): Promise<FakeEvent> {
    const event: FakeEvent = {
      ...fixture<FakeEvent>("event"),
      id: randomId("evt_test_"),
      created: now(),
      type,
      data: { object: structuredClone(object) },
      pending_webhooks: endpoints.size,
    };
    events.push(event);
    if (holding) held.push(event);
    else await send(event);
    return event;
  }

  function sessionOf(id: string): FakeCheckoutSession {
    const session = sessions.get(id);
    if (!session) throw noSuch("checkout.session", id, "session");
    return session;
  }

  async function paySession(id: string, amountTotal?: number): Promise<FakeCheckoutSession> {
    const session = sessionOf(id);
    if (session.status !== "open") return session;
    const paymentIntent = randomId("pi_test_");
    const charge = {
      ...fixture<StripeObject & { amount: number; amount_refunded: number }>("charge"),
      id: randomId("ch_test_"),
      created: now(),
      amount: amountTotal ?? session.amount_total,
      amount_captured: amountTotal ?? session.amount_total,
      payment_intent: paymentIntent,
    };
    charges.set(paymentIntent, charge);
    Object.assign(session, {
      status: "complete",
      payment_status: "paid",
      payment_intent: paymentIntent,
      url: null,
      ...(amountTotal === undefined ? {} : { amount_total: amountTotal }),
    });
    await emit("checkout.session.completed", session);
    return session;
  }

  async function expireSession(id: string): Promise<FakeCheckoutSession> {
    const session = sessionOf(id);
    if (session.status !== "open") return session;
    Object.assign(session, { status: "expired", url: null });
    await emit("checkout.session.expired", session);
    return session;
  }

  function createSession(params: FormObject): FakeCheckoutSession {
    if (asString(params.mode) !== "payment") {
      throw invalidRequest("Missing required param: mode.", "mode", "parameter_missing");
    }
    const successUrl = asString(params.success_url);
    if (!successUrl) {
      throw invalidRequest("Missing required param: success_url.", "success_url");
    }
    const items = params.line_items;
    if (!Array.isArray(items) || items.length === 0) {
      throw invalidRequest("Missing required param: line_items.", "line_items");
    }
    const sessionLines = items.map((item, index) => {
      const line = item as FormObject;
      const price = line.price_data as FormObject | undefined;
      const product = price?.product_data as FormObject | undefined;
      const unitAmount = Number(asString(price?.unit_amount));
      const quantity = Number(asString(line.quantity) ?? "1");
      const name = asString(product?.name);
      if (!price || !name || !Number.isInteger(unitAmount) || unitAmount < 0) {
        throw invalidRequest(
          "Invalid line item: price_data with unit_amount and product_data[name] is required.",
          `line_items[${index}][price_data]`,
        );
      }
      if (!Number.isInteger(quantity) || quantity < 1) {
        throw invalidRequest("Invalid integer: quantity.", `line_items[${index}][quantity]`);
      }
      return { name, quantity, unitAmount, currency: asString(price.currency) ?? "" };
    });
    const currency = sessionLines[0]?.currency;
    if (sessionLines.some((line) => line.currency !== currency) || currency !== "eur") {
      throw invalidRequest("This fake Stripe takes line items in eur only.", "line_items");
    }
    const created = now();
    const expiresAt =
      params.expires_at === undefined ? created + 86_400 : Number(params.expires_at);
    // Stripe's bounds: from 30 minutes to 24 hours after the session's creation.
    if (
      !Number.isInteger(expiresAt) ||
      expiresAt < created + 1800 ||
      expiresAt > created + 86_400
    ) {
      throw invalidRequest(
        "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
        "expires_at",
      );
    }
    const id = randomId("cs_test_");
    const amount = sessionLines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0);
    const metadata = (params.metadata ?? {}) as Record<string, string>;
    const session: FakeCheckoutSession = {
      ...fixture<FakeCheckoutSession>("checkout-session"),
      id,
      created,
      amount_subtotal: amount,
      amount_total: amount,
      currency,
      customer_email: asString(params.customer_email) ?? null,
      client_reference_id: asString(params.client_reference_id) ?? null,
      metadata,
      locale: asString(params.locale) ?? null,
      allowed_payment_method_types: Array.isArray(params.allowed_payment_method_types)
        ? (params.allowed_payment_method_types as string[])
        : null,
      success_url: successUrl,
      cancel_url: asString(params.cancel_url) ?? null,
      expires_at: expiresAt,
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      url: `${pageOrigin}/pay/${id}`,
    };
    sessions.set(id, session);
    lines.set(
      id,
      sessionLines.map(({ name, quantity, unitAmount }) => ({ name, quantity, unitAmount })),
    );
    return session;
  }

  async function createRefund(params: FormObject): Promise<FakeRefund> {
    const paymentIntent = asString(params.payment_intent);
    if (!paymentIntent) {
      throw invalidRequest("Missing required param: payment_intent.", "payment_intent");
    }
    const charge = charges.get(paymentIntent);
    if (!charge) throw noSuch("payment_intent", paymentIntent, "payment_intent");
    const left = charge.amount - charge.amount_refunded;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (left === 0) {
      throw invalidRequest(
        `Charge ${charge.id} has already been refunded.`,
        undefined,
        "charge_already_refunded",
      );
    }
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      throw invalidRequest(
        `Refund amount (${euros(amount)}) is greater than unrefunded amount on charge (${euros(left)})`,
        "amount",
        "amount_too_large",
      );
    }
    const refund: FakeRefund = {
      ...fixture<FakeRefund>("refund"),
      id: randomId("re_test_"),
      created: now(),
      amount,
      charge: charge.id,
      payment_intent: paymentIntent,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      status: fake.refundOutcome,
    };
    refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    await emit("refund.created", refund);
    if (refund.status === "succeeded") await emitChargeRefunded(charge);
    return refund;
  }

  async function emitChargeRefunded(
    charge: StripeObject & { amount: number; amount_refunded: number },
  ) {
    charge.refunded = charge.amount_refunded >= charge.amount;
    await emit("charge.refunded", charge);
  }

  function createEndpoint(
    url: string,
    enabledEvents: string[],
  ): FakeWebhookEndpoint & { secret: string } {
    const endpoint = {
      ...fixture<FakeWebhookEndpoint>("webhook-endpoint"),
      id: randomId("we_test_"),
      created: now(),
      url,
      enabled_events: enabledEvents,
      secret: `whsec_${randomBytes(24).toString("hex")}`,
    };
    endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  const publicEndpoint = ({ secret: _secret, ...endpoint }: FakeWebhookEndpoint) => endpoint;

  function list(url: string, data: StripeObject[]) {
    return { object: "list", data, has_more: false, url };
  }

  /** The API's routes: [method, pattern, route name, handler(params, form)]. */
  type Handler = (id: string, form: FormObject) => Promise<unknown> | unknown;
  const routes: Array<[string, RegExp, string, Handler]> = [
    [
      "POST",
      /^\/v1\/checkout\/sessions$/,
      "POST /v1/checkout/sessions",
      (_id, form) => createSession(form),
    ],
    [
      "GET",
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      "GET /v1/checkout/sessions/:id",
      (id) => sessionOf(id),
    ],
    [
      "POST",
      /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      "POST /v1/checkout/sessions/:id/expire",
      async (id) => {
        const session = sessionOf(id);
        if (session.status !== "open") {
          throw invalidRequest(
            `This Checkout Session is not in an expirable state. Only Checkout Sessions with a status in ["open"] can be expired.`,
            undefined,
            "checkout_session_not_expirable",
          );
        }
        return expireSession(session.id);
      },
    ],
    ["POST", /^\/v1\/refunds$/, "POST /v1/refunds", (_id, form) => createRefund(form)],
    [
      "GET",
      /^\/v1\/refunds$/,
      "GET /v1/refunds",
      (_id, form) => {
        const paymentIntent = asString(form.payment_intent);
        return list(
          "/v1/refunds",
          [...refunds.values()]
            .filter((refund) => !paymentIntent || refund.payment_intent === paymentIntent)
            // Newest first, as Stripe lists them.
            .reverse(),
        );
      },
    ],
    [
      "GET",
      /^\/v1\/refunds\/([^/]+)$/,
      "GET /v1/refunds/:id",
      (id) => {
        const refund = refunds.get(id);
        if (!refund) throw noSuch("refund", id, "id");
        return refund;
      },
    ],
    [
      "GET",
      /^\/v1\/webhook_endpoints$/,
      "GET /v1/webhook_endpoints",
      () => list("/v1/webhook_endpoints", [...endpoints.values()].map(publicEndpoint)),
    ],
    [
      "POST",
      /^\/v1\/webhook_endpoints$/,
      "POST /v1/webhook_endpoints",
      (_id, form) => {
        const url = asString(form.url);
        const enabled = form.enabled_events;
        if (!url) throw invalidRequest("Missing required param: url.", "url");
        if (!Array.isArray(enabled) || enabled.length === 0) {
          throw invalidRequest("Missing required param: enabled_events.", "enabled_events");
        }
        // The secret is in the answer to this creation only, as Stripe does.
        return createEndpoint(url, enabled as string[]);
      },
    ],
    [
      "POST",
      /^\/v1\/webhook_endpoints\/([^/]+)$/,
      "POST /v1/webhook_endpoints/:id",
      (id, form) => {
        const endpoint = endpoints.get(id);
        if (!endpoint) throw noSuch("webhook_endpoint", id, "webhook_endpoint");
        if (form.disabled !== undefined) {
          endpoint.status = form.disabled === "true" ? "disabled" : "enabled";
        }
        if (Array.isArray(form.enabled_events)) {
          endpoint.enabled_events = form.enabled_events as string[];
        }
        const url = asString(form.url);
        if (url) endpoint.url = url;
        return publicEndpoint(endpoint);
      },
    ],
    [
      "DELETE",
      /^\/v1\/webhook_endpoints\/([^/]+)$/,
      "DELETE /v1/webhook_endpoints/:id",
      (id) => {
        if (!endpoints.delete(id)) throw noSuch("webhook_endpoint", id, "webhook_endpoint");
        return { id, object: "webhook_endpoint", deleted: true };
      },
    ],
  ];

  function answer(res: ServerResponse, status: number, body: string, replayed = false) {
    res.writeHead(status, {
      "Content-Type": "application/json",
      "Request-Id": randomId("req_"),
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    });
    res.end(body);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const route = routes.find(([m, pattern]) => m === method && pattern.test(url.pathname));
    count(route ? route[2] : `${method} ${url.pathname}`);
    const raw = await readBody(req);

    const failure = failures[0];
    if (failure) {
      if ((failure.times ?? 1) <= 1) failures.shift();
      else failure.times = (failure.times ?? 1) - 1;
      if ("hang" in failure) {
        // Held until `answerHeldRequests` (then handled as usual, late) or the fake closes.
        await new Promise<void>((resolve) => hanging.set(res, resolve));
        hanging.delete(res);
        if (closing) return;
        return handleRequest(req, res, raw);
      }
      const error = {
        type: "api_error",
        message: "An unknown error occurred (injected by the fake).",
      };
      return answer(res, failure.status, JSON.stringify({ error }, null, 2));
    }

    return handleRequest(req, res, raw);
  }

  async function handleRequest(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const route = routes.find(([m, pattern]) => m === method && pattern.test(url.pathname));
    const authorization = req.headers.authorization;
    if (!authorization?.startsWith("Bearer ")) {
      const message =
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
      return answer(
        res,
        401,
        JSON.stringify({ error: { type: "invalid_request_error", message } }),
      );
    }
    if (authorization.slice("Bearer ".length) !== secretKey) {
      const given = authorization.slice("Bearer ".length);
      const message = `Invalid API Key provided: ${given.slice(0, 8)}${"*".repeat(8)}${given.slice(-4)}`;
      return answer(
        res,
        401,
        JSON.stringify({ error: { type: "invalid_request_error", message } }),
      );
    }
    if (!route) {
      const message = `Unrecognized request URL (${method}: ${url.pathname}).`;
      return answer(
        res,
        404,
        JSON.stringify({ error: { type: "invalid_request_error", message } }),
      );
    }
    const form =
      method === "GET" ? parseStripeForm(url.searchParams.toString()) : parseStripeForm(raw);
    const key = req.headers["idempotency-key"];
    const requestSignature = `${method} ${url.pathname} ${raw}`;
    if (typeof key === "string" && method === "POST") {
      const earlier = idempotency.get(key);
      if (earlier && earlier.request !== requestSignature) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
        return answer(res, 400, JSON.stringify({ error: { type: "idempotency_error", message } }));
      }
      if (earlier) return answer(res, earlier.status, earlier.body, true);
    }
    let status = 200;
    let body: string;
    try {
      const id = route[1].exec(url.pathname)?.[1] ?? "";
      body = JSON.stringify(await route[3](id, form), null, 2);
    } catch (error) {
      if (!(error instanceof StripeHttpError)) throw error;
      status = error.status;
      body = JSON.stringify(error.body, null, 2);
    }
    if (typeof key === "string" && method === "POST") {
      idempotency.set(key, { request: requestSignature, status, body });
    }
    answer(res, status, body);
  }

  function page(session: FakeCheckoutSession, notice: string | null): string {
    const rows = (lines.get(session.id) ?? [])
      .map(
        (line) =>
          `<li>${escapeHtml(line.name)} × ${line.quantity} : ${escapeHtml(euros(line.unitAmount * line.quantity))}</li>`,
      )
      .join("");
    const open = session.status === "open";
    const state = open
      ? ""
      : session.status === "complete"
        ? '<p role="status">Ce paiement a déjà été effectué.</p>'
        : '<p role="status">Cette session de paiement a expiré.</p>';
    const button = (action: string, label: string) =>
      `<form method="post" action="/pay/${session.id}/${action}"><button type="submit">${label}</button></form>`;
    return [
      "<!doctype html>",
      '<html lang="fr"><head><meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      "<title>Paiement (Stripe de test)</title></head><body><main>",
      "<h1>Paiement par carte</h1>",
      `<p>Montant : <strong data-amount>${escapeHtml(euros(session.amount_total))}</strong></p>`,
      `<ul>${rows}</ul>`,
      session.customer_email ? `<p>${escapeHtml(session.customer_email)}</p>` : "",
      notice ? `<p role="alert">${escapeHtml(notice)}</p>` : "",
      state,
      open
        ? button("payer", "Payer") +
          button("refuser", "Refuser") +
          button("abandonner", "Abandonner")
        : "",
      "</main></body></html>",
    ].join("");
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const match = /^\/pay\/([^/]+)(?:\/(payer|refuser|abandonner))?$/.exec(url.pathname);
    const action = match?.[2];
    count(`${method} /pay/:id${action ? `/${action}` : ""}`);
    await readBody(req);
    const session = match?.[1] ? sessions.get(match[1]) : undefined;
    if (!session || (method === "GET") === Boolean(action) || !["GET", "POST"].includes(method)) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Page introuvable.");
      return;
    }
    const redirect = (location: string) => {
      res.writeHead(303, { Location: location });
      res.end();
    };
    if (action === "payer" && session.status === "open") {
      await paySession(session.id);
      return redirect(session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id));
    }
    if (action === "refuser" && session.status === "open") {
      return redirect(`/pay/${session.id}?carte=refusee`);
    }
    if (action === "abandonner" && session.status === "open" && session.cancel_url) {
      return redirect(session.cancel_url);
    }
    if (action) return redirect(`/pay/${session.id}`);
    const declined = url.searchParams.get("carte") === "refusee";
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      page(session, declined ? "Votre carte a été refusée. Aucun montant n'a été débité." : null),
    );
  }

  const serve = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
    createServer((req, res) => {
      handler(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(String(error));
      });
    });
  const listen = (server: Server) =>
    new Promise<string>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
  const apiServer = serve(handleApi);
  const pageServer = serve(handlePage);
  const apiUrl = await listen(apiServer);
  const pageOrigin = await listen(pageServer);

  const fake: FakeStripe = {
    apiUrl,
    pageOrigin,
    secretKey,
    refundOutcome: "succeeded",
    addWebhookEndpoint(url, enabledEvents = ["*"]) {
      const endpoint = createEndpoint(url, enabledEvents);
      return { id: endpoint.id, secret: endpoint.secret };
    },
    webhookEndpoints: () => [...endpoints.values()].map((endpoint) => structuredClone(endpoint)),
    session: (id) => sessions.get(id),
    sessions: () => [...sessions.values()],
    sessionLines: (id) => lines.get(id) ?? [],
    refunds: () => [...refunds.values()],
    refundFromDashboard: (paymentIntent, amount) =>
      createRefund({
        payment_intent: paymentIntent,
        ...(amount === undefined ? {} : { amount: String(amount) }),
      }),
    pay: (sessionId, payOptions = {}) => paySession(sessionId, payOptions.amountTotal),
    expireNow: (sessionId) => expireSession(sessionId),
    async settleRefund(refundId, status, settleOptions = {}) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`No refund ${refundId} in the fake Stripe`);
      const charge = charges.get(refund.payment_intent);
      if (!charge) throw new Error(`No charge for ${refund.payment_intent} in the fake Stripe`);
      refund.status = status;
      if (status === "failed") {
        refund.failure_reason = settleOptions.failureReason ?? "expired_or_canceled_card";
        charge.amount_refunded -= refund.amount;
      }
      if (settleOptions.silently) return refund;
      await emit("refund.updated", refund);
      if (status === "succeeded") await emitChargeRefunded(charge);
      else await emit("refund.failed", refund);
      return refund;
    },
    holdEvents: () => void (holding = true),
    releaseEvents: () => void (holding = false),
    heldEvents: () => [...held],
    async deliverHeld({ order = "happened" } = {}) {
      const batch = held.splice(0, held.length);
      if (order === "reverse") batch.reverse();
      const results: Delivery[] = [];
      for (const event of batch) results.push(...(await send(event)));
      return results;
    },
    async deliver(eventId) {
      const event = events.find((candidate) => candidate.id === eventId);
      if (!event) throw new Error(`No event ${eventId} in the fake Stripe`);
      return send(event);
    },
    events: (type) => events.filter((event) => type === undefined || event.type === type),
    deliveries: () => [...deliveries],
    requestCount: (route) => counts.get(route) ?? 0,
    failNext: (failure) => void failures.push({ ...failure }),
    answerHeldRequests() {
      const resumers = [...hanging.values()];
      hanging.clear();
      for (const resume of resumers) resume();
    },
    heldRequestCount: () => hanging.size,
    async close() {
      closing = true;
      for (const [res, resume] of hanging) {
        res.destroy();
        resume();
      }
      const stop = (server: Server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      await Promise.all([stop(apiServer), stop(pageServer)]);
    },
  };
  return fake;
}
