import Stripe from "stripe";
import {
  ProviderUnavailableError,
  WebhookVerificationError,
  type CheckoutCreated,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderPaymentState,
  type ProviderRefundState,
  type RefundRequest,
  type RefundResult,
  type VerifiedEvent,
} from "../provider.server";

/**
 * Card payments through Stripe Checkout (decision 0163): the buyer pays on Stripe's hosted page (no payment
 * script on our pages), Stripe tells us by a signed webhook, and the core applies what it says (decision
 * 0162). This module only speaks to Stripe through the official SDK and translates its objects.
 */

/** The events the webhook endpoint is registered for; every other type is answered 200 and ignored. */
export const STRIPE_WEBHOOK_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "charge.refunded",
  "refund.updated",
  "refund.failed",
] as const;

/** How old a webhook's signature may be: a replayed capture older than this is refused. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Stripe refuses a Checkout Session that expires less than 30 minutes after its creation; our attempts last
 * 30 minutes, and the same attempt may be asked for again later (a double submit, a page reloaded after a
 * failed call). The session is asked to end 31 minutes after the attempt: valid whenever the attempt is
 * still open, and the same parameters on every ask, which Stripe requires of one idempotency key. The core
 * expires the attempt at its own time and closes the session then (`expire`); Stripe's end is a backstop.
 */
const SESSION_MARGIN_SECONDS = 31 * 60;

/** Stripe's longest Checkout Session: 24 hours after its creation. */
const MAX_SESSION_SECONDS = 24 * 3_600;

const STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com";

export type StripeProviderConfig = {
  secretKey: string;
  webhookSecret: string;
  /**
   * Tests only: the API of a fake Stripe on loopback (`http://127.0.0.1:port`), honoured with a test key
   * (`sk_test_…`) and refused with a live one, so that a live key never talks to anything but Stripe.
   */
  apiUrl?: string;
  /** Tests only, with `apiUrl`: the fake's hosted page origin, which the CSP's `form-action` allows. */
  checkoutOrigin?: string;
  /** How long one try of a call may wait (ms); 10 s by default: a buyer is waiting (three tries: ~30 s). */
  timeoutMs?: number;
  /** Retries of a failed call (same idempotency key, so never twice); 2 by default. */
  maxNetworkRetries?: number;
};

/** A test-mode key: a secret `sk_test_…` or a restricted `rk_test_…` one. */
export function isTestMode(secretKey: string): boolean {
  return /^(sk|rk)_test_/.test(secretKey);
}

function connection(secretKey: string, apiUrl: string | undefined) {
  if (apiUrl === undefined) return {};
  if (!isTestMode(secretKey)) {
    throw new Error(
      "STRIPE_API_URL ne sert qu'aux tests : il est refusé avec une clé live (sk_live_…). Retirez-le.",
    );
  }
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
  } as const;
}

function client(
  secretKey: string,
  options: { apiUrl?: string; timeoutMs?: number; maxNetworkRetries?: number } = {},
): Stripe {
  return new Stripe(secretKey, {
    ...connection(secretKey, options.apiUrl),
    timeout: options.timeoutMs ?? 10_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    telemetry: false,
    appInfo: { name: "studio-site" },
  });
}

/**
 * Whether Stripe refuses `secretKey` now (401 or 403: rolled, revoked, restricted): one cheap read. False
 * when it answers, and when it cannot be asked (the network): nothing is known against the key then.
 */
export async function keyRefusedByStripe(secretKey: string, apiUrl?: string): Promise<boolean> {
  try {
    await client(secretKey, { apiUrl, maxNetworkRetries: 0 }).webhookEndpoints.list({ limit: 1 });
    return false;
  } catch (error) {
    return unavailable("lecture des clés", error).keysRefused;
  }
}

/** Whatever Stripe or the network answered, the caller sees one error it can retry on later. */
async function calling<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw unavailable(what, error);
  }
}

function unavailable(what: string, error: unknown): ProviderUnavailableError {
  if (!(error instanceof Stripe.errors.StripeError)) {
    return new ProviderUnavailableError(`Stripe (${what}) : ${String(error)}`, { cause: error });
  }
  const status = error.statusCode ? ` ${error.statusCode}` : "";
  return new ProviderUnavailableError(
    `Stripe (${what}) : ${error.type}${status}: ${error.message}`,
    {
      cause: error,
      providerErrorType: error.type,
      // A revoked or rolled key (401), or a restricted key without the right (403): nothing will work
      // until the owner enters her keys again (decision 0163, amended).
      keysRefused:
        error instanceof Stripe.errors.StripeAuthenticationError ||
        error instanceof Stripe.errors.StripePermissionError,
    },
  );
}

/**
 * Stripe's definitive no to a refund (decision 0171, amended): the request itself refused (already
 * refunded, more than is left, a dispute, the balance, a card that cannot take it back), which the same
 * call with the same key answers again. Not a 409 (the same key still in flight) or a 429 (too many
 * requests), nor a network error, a 5xx or a timeout: those may have made the refund.
 */
function refusedForGood(error: unknown): error is Stripe.errors.StripeError {
  const status = error instanceof Stripe.errors.StripeError ? error.statusCode : undefined;
  return (
    (error instanceof Stripe.errors.StripeInvalidRequestError ||
      error instanceof Stripe.errors.StripeCardError) &&
    status !== undefined &&
    status >= 400 &&
    status < 500 &&
    status !== 409 &&
    status !== 429
  );
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : value.id;
}

/**
 * Stripe's events nest a few levels (an event, its object, that object's expanded fields); the 256 KB body
 * could nest thousands, which overflowed the stack when the inbox stored the payload (a 500, retried by
 * Stripe for three days). Deeper than this is unreadable.
 */
const MAX_EVENT_DEPTH = 64;

/** Whether `value` nests no deeper than `limit` objects or arrays, walked without recursion. */
function nestedAtMost(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= limit) return false;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return true;
}

/** What a Checkout Session says of its payment. */
export function sessionState(session: Stripe.Checkout.Session): ProviderPaymentState {
  let status: ProviderPaymentState["status"] = "open";
  if (session.status === "expired") status = "expired";
  else if (
    session.status === "complete" &&
    (session.payment_status === "paid" || session.payment_status === "no_payment_required")
  ) {
    status = "succeeded";
  }
  return {
    providerReference: session.id,
    status,
    // A signed event is Stripe's word, but its shape is read defensively: a field it lacks is unknown.
    amountCents: session.amount_total ?? null,
    currency: session.currency ?? null,
    paymentReference: idOf(session.payment_intent),
  };
}

/** What a verified event says of a checkout; null for the types that concern none. */
function eventPayment(event: Stripe.Event): ProviderPaymentState | null {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.expired":
      return sessionState(event.data.object);
    case "checkout.session.async_payment_failed":
      return { ...sessionState(event.data.object), status: "failed" };
    default:
      return null;
  }
}

function refundStatus(status: string | null): "pending" | "succeeded" | "failed" {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  return "pending";
}

/** What a Refund says of itself (decision 0171): ours when its metadata names our refund. */
function refundState(refund: Stripe.Refund): ProviderRefundState {
  const refundId = refund.metadata?.refund_id;
  return {
    refundReference: refund.id,
    refundId: typeof refundId === "string" && refundId !== "" ? refundId : null,
    paymentReference: idOf(refund.payment_intent),
    status: refundStatus(refund.status),
    failureReason: refund.failure_reason ?? null,
    amountCents: refund.amount,
    currency: refund.currency,
  };
}

/** A Refund as the core reads it: its reference, status and, when it failed, why. */
function refundResult(refund: Stripe.Refund): RefundResult {
  const state = refundState(refund);
  return {
    refundReference: refund.id,
    status: state.status ?? "pending",
    ...(state.failureReason ? { failureReason: state.failureReason } : {}),
  };
}

/**
 * What a verified event says of a refund; null for the types that concern none. `charge.refunded`
 * carries the charge, whose refunds the API no longer lists: it says only that the payment was refunded,
 * and the core asks about its refunds still pending.
 */
function eventRefund(event: Stripe.Event): ProviderRefundState | null {
  switch (event.type) {
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
      return refundState(event.data.object);
    case "charge.refunded":
      return {
        refundReference: null,
        refundId: null,
        paymentReference: idOf(event.data.object.payment_intent),
        status: null,
        failureReason: null,
      };
    default:
      return null;
  }
}

export function stripeProvider(config: StripeProviderConfig): PaymentProvider {
  const stripe = client(config.secretKey, config);
  const checkoutOrigin =
    config.apiUrl !== undefined && config.checkoutOrigin !== undefined
      ? new URL(config.checkoutOrigin).origin
      : STRIPE_CHECKOUT_ORIGIN;

  return {
    name: "stripe",

    async createCheckout(request: CheckoutRequest): Promise<CheckoutCreated> {
      const linesTotal = request.lines.reduce(
        (sum, line) => sum + line.quantity * line.unitAmountCents,
        0,
      );
      // The amount is our order's (decision 0162): lines that say otherwise are a bug, not a price.
      if (linesTotal !== request.amountCents) {
        throw new Error(
          `Checkout lines total ${linesTotal} cents, the order ${request.amountCents}: refused.`,
        );
      }
      // From the request alone, never from the clock: a second ask with the same key must match the first.
      const expiresAt = Math.floor(request.expiresAt.getTime() / 1000) + SESSION_MARGIN_SECONDS;
      if (expiresAt > Date.now() / 1000 + MAX_SESSION_SECONDS) {
        throw new Error(`A Stripe checkout cannot last until ${request.expiresAt.toISOString()}.`);
      }
      const metadata = { order_id: request.orderId, attempt_id: request.attemptId };
      const session = await calling("création du paiement", () =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            // Cards only: a payment known at once, never days later (decision 0163).
            allowed_payment_method_types: ["card"],
            locale: "fr",
            line_items: request.lines.map((line) => ({
              quantity: line.quantity,
              price_data: {
                currency: "eur",
                unit_amount: line.unitAmountCents,
                product_data: { name: line.label },
              },
            })),
            customer_email: request.customerEmail,
            client_reference_id: request.attemptId,
            metadata,
            payment_intent_data: { metadata },
            success_url: request.returnUrl,
            cancel_url: request.cancelUrl,
            expires_at: expiresAt,
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      if (!session.url) {
        throw new ProviderUnavailableError(
          `Stripe n'a pas donné de page de paiement (${session.id}).`,
        );
      }
      return {
        providerReference: session.id,
        redirectUrl: session.url,
        // The attempt keeps its own end; the session's is later by the margin above.
        expiresAt: request.expiresAt,
      };
    },

    async retrieve(providerReference: string): Promise<ProviderPaymentState> {
      const session = await calling("lecture du paiement", () =>
        stripe.checkout.sessions.retrieve(providerReference),
      );
      return sessionState(session);
    },

    async expire(providerReference: string): Promise<ProviderPaymentState> {
      try {
        return sessionState(await stripe.checkout.sessions.expire(providerReference));
      } catch (error) {
        // Stripe refuses to expire a session that is no longer open (paid meanwhile, or already
        // expired): what it is now is the answer.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) {
          throw unavailable("expiration du paiement", error);
        }
        const state = await this.retrieve(providerReference);
        if (state.status === "open") throw unavailable("expiration du paiement", error);
        return state;
      }
    },

    verifyWebhook(rawBody: Buffer, signature: string | undefined): VerifiedEvent {
      if (!signature) throw new WebhookVerificationError("En-tête Stripe-Signature absent.");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          config.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch (error) {
        // The SDK parses the body once its signature is verified: a signed body that is no JSON is
        // unreadable, not forged.
        throw new WebhookVerificationError(
          error instanceof Error ? error.message : "Signature Stripe invalide.",
          { cause: error, malformed: error instanceof SyntaxError },
        );
      }
      // Signed, yet not an event as Stripe sends them (only a holder of the secret could): refused as
      // unreadable rather than failing on a field further on, which Stripe would retry for three days.
      const unreadable = (cause?: unknown) =>
        new WebhookVerificationError("Événement Stripe illisible.", { cause, malformed: true });
      const shaped =
        typeof event === "object" &&
        event !== null &&
        typeof event.id === "string" &&
        event.id !== "" &&
        typeof event.type === "string" &&
        Number.isSafeInteger(event.created) &&
        event.created > 0 &&
        typeof event.data === "object" &&
        event.data !== null &&
        typeof event.data.object === "object" &&
        event.data.object !== null &&
        nestedAtMost(event, MAX_EVENT_DEPTH);
      if (!shaped) throw unreadable();
      try {
        return {
          eventId: event.id,
          type: event.type,
          createdAt: new Date(event.created * 1000),
          payload: event,
          payment: eventPayment(event),
          refund: eventRefund(event),
        };
      } catch (error) {
        throw unreadable(error);
      }
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.paymentReference,
            amount: request.amountCents,
            // Our refund's id comes back in its events (decision 0171), even before its answer is stored.
            ...(request.refundId ? { metadata: { refund_id: request.refundId } } : {}),
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return refundResult(refund);
      } catch (error) {
        // Refused for good: no refund was made, and asking again would be refused again.
        if (refusedForGood(error)) {
          return { refundReference: null, status: "failed", failureReason: error.code ?? null };
        }
        throw unavailable("remboursement", error);
      }
    },

    async retrieveRefund(refundReference: string): Promise<RefundResult> {
      const refund = await calling("lecture du remboursement", () =>
        stripe.refunds.retrieve(refundReference),
      );
      return refundResult(refund);
    },

    async listRefunds(paymentReference: string): Promise<ProviderRefundState[]> {
      return calling("liste des remboursements", async () => {
        const states: ProviderRefundState[] = [];
        for await (const refund of stripe.refunds.list({
          payment_intent: paymentReference,
          limit: 100,
        })) {
          states.push(refundState(refund));
        }
        return states;
      });
    },

    formActionOrigins(): string[] {
      return [checkoutOrigin];
    },
  };
}

export type WebhookEndpointEnsured = {
  id: string;
  /** The signing secret, which Stripe gives only when the endpoint is created; null when it was kept. */
  secret: string | null;
  created: boolean;
};

/** Where the site receives Stripe's events (http/stripe-webhook.server.ts answers there). */
export const STRIPE_WEBHOOK_PATH = "/webhooks/stripe";

/**
 * Registers our webhook endpoint from the keys, as Ghost does. The account's endpoint with this URL is kept
 * (its events and state brought up to date) when the caller still holds its signing secret
 * (`secretKnown`); otherwise it is replaced by a new one, since Stripe never shows a secret again and an
 * endpoint whose secret we lack sends events nobody can verify. A created endpoint's secret is answered:
 * the caller stores it.
 */
export async function ensureWebhookEndpoint(
  secretKey: string,
  url: string,
  apiUrl?: string,
  options: { secretKnown?: boolean } = {},
): Promise<WebhookEndpointEnsured> {
  const stripe = client(secretKey, { apiUrl });
  const events = [...STRIPE_WEBHOOK_EVENTS];
  return calling("enregistrement du webhook", async () => {
    const ours: Stripe.WebhookEndpoint[] = [];
    for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
      if (endpoint.url === url) ours.push(endpoint);
    }
    const kept = options.secretKnown ? ours[0] : undefined;
    if (kept) {
      const missing = events.some((type) => !kept.enabled_events.includes(type));
      if (missing || kept.status !== "enabled") {
        await stripe.webhookEndpoints.update(kept.id, { enabled_events: events, disabled: false });
      }
      return { id: kept.id, secret: null, created: false };
    }
    for (const endpoint of ours) await stripe.webhookEndpoints.del(endpoint.id);
    const endpoint = await stripe.webhookEndpoints.create({
      url,
      enabled_events: events,
      api_version: Stripe.API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
      description: "Site du studio : paiements par carte",
    });
    return { id: endpoint.id, secret: endpoint.secret ?? null, created: true };
  });
}
