import type { ProviderName, ReportedStatus } from "../../lib/payments/model";

/**
 * How the payments core talks to a way of paying (decision 0162). The core decides (its order row holds the
 * amount, one function applies a status); a provider only carries the money and reports. Card payments go
 * through Stripe Checkout (its hosted page: no payment script on our pages); a transfer and a payment at the
 * studio are providers too, whose reports come from the owner (« Marquer payé »).
 */

/** One line of what the buyer pays, as the provider's page shows it. */
export type CheckoutLine = { label: string; quantity: number; unitAmountCents: number };

export type CheckoutRequest = {
  orderId: string;
  attemptId: string;
  /** Unique per attempt: a retried creation (a double click, a lost answer) makes one checkout. */
  idempotencyKey: string;
  /** From our order row, never from the request (decision 0162). */
  amountCents: number;
  lines: CheckoutLine[];
  customerEmail: string;
  /** Where the provider sends the buyer back after paying; `{CHECKOUT_SESSION_ID}` is replaced by Stripe. */
  returnUrl: string;
  /** Where « Abandonner » leads. */
  cancelUrl: string;
  /** When the checkout stops accepting a payment (30 minutes for a card). */
  expiresAt: Date;
};

export type CheckoutCreated = {
  /** The provider's id of the checkout (a Checkout Session id; the transfer's reference). */
  providerReference: string;
  /** The hosted page the buyer goes to; null when there is none (transfer, studio). */
  redirectUrl: string | null;
  expiresAt: Date;
};

/** What the provider says of a checkout. */
export type ProviderPaymentState = {
  providerReference: string;
  /** `open`: nothing final yet. */
  status: ReportedStatus | "open";
  /** The total the provider charged or will charge, in cents; null when it does not say. */
  amountCents: number | null;
  /** Lower-case ISO code as providers write it (`eur`); null when it does not say. */
  currency: string | null;
  /** The id of the payment itself (a PaymentIntent), which a refund names; null before payment. */
  paymentReference: string | null;
};

/** A webhook event, once its signature was verified. */
export type VerifiedEvent = {
  eventId: string;
  type: string;
  createdAt: Date;
  /** The event as received (stored in the inbox, applied by a job). */
  payload: unknown;
  /** What it says of a checkout, or null for an event that concerns none (ignored, answered 200). */
  payment: ProviderPaymentState | null;
};

export type RefundRequest = {
  paymentReference: string;
  amountCents: number;
  /** Unique per refund row: a retried refund refunds once. */
  idempotencyKey: string;
};

export type RefundResult = {
  /** The provider's refund id; null for an offline refund (the owner gives the money back herself). */
  refundReference: string | null;
  status: "pending" | "succeeded" | "failed" | "offline";
};

/** A webhook whose signature, timestamp or secret does not verify: answered 400, nothing stored. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

/** The provider could not be reached or answered an error: the caller retries later or tells the buyer. */
export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutCreated>;
  retrieve(providerReference: string): Promise<ProviderPaymentState>;
  /** Closes a checkout that is still open; answers its state (a checkout already paid stays paid). */
  expire(providerReference: string): Promise<ProviderPaymentState>;
  /** Verifies a webhook on its raw body (throws WebhookVerificationError) before anything reads it. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): VerifiedEvent;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** The origins our forms may post to for this provider (the CSP's `form-action`). */
  formActionOrigins(): string[];
}
