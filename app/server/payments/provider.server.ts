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

/**
 * What the provider says of a refund (decision 0171): one refund, by its reference and by our refund's id
 * when the provider carries it back (Stripe's metadata); or, with both null, that a payment was refunded
 * without saying which refund (Stripe's `charge.refunded`): the core then asks about the refunds still
 * pending on `paymentReference`.
 */
export type ProviderRefundState = {
  refundReference: string | null;
  /** Our `refunds.id`, as sent with the refund. */
  refundId: string | null;
  paymentReference: string | null;
  /** Null: the event does not say (ask the provider). */
  status: "pending" | "succeeded" | "failed" | null;
  /** The provider's word for a failure (Stripe's `failure_reason`), shown to the owner in French. */
  failureReason: string | null;
  /**
   * How much it gives back, in cents, and in which currency (lower case): what records a refund made
   * outside the site (decision 0194). Absent from an event that does not say, and from events stored before.
   */
  amountCents?: number | null;
  currency?: string | null;
};

/** A webhook event, once its signature was verified. */
export type VerifiedEvent = {
  eventId: string;
  type: string;
  createdAt: Date;
  /** The event as received (stored in the inbox, applied by a job). */
  payload: unknown;
  /** What it says of a checkout, or null for an event that concerns none. */
  payment: ProviderPaymentState | null;
  /**
   * What it says of a refund (decision 0171), or null. An event with neither is ignored (answered 200,
   * not stored).
   */
  refund?: ProviderRefundState | null;
};

export type RefundRequest = {
  paymentReference: string;
  amountCents: number;
  /** Unique per refund row: a retried refund refunds once. */
  idempotencyKey: string;
  /** Our refund's id, carried by the provider back in its events (decision 0171). */
  refundId?: string;
};

export type RefundResult = {
  /** The provider's refund id; null for an offline refund (the owner gives the money back herself). */
  refundReference: string | null;
  status: "pending" | "succeeded" | "failed" | "offline";
  /** Why it failed, in the provider's words (`expired_or_canceled_card`…); null otherwise. */
  failureReason?: string | null;
};

/**
 * A webhook whose signature, timestamp or secret does not verify, or (`malformed`) whose signed body is not
 * an event we can read: answered 400, nothing stored.
 */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
  readonly malformed: boolean;
  constructor(message: string, options: ErrorOptions & { malformed?: boolean } = {}) {
    super(message, options);
    this.malformed = options.malformed ?? false;
  }
}

/**
 * The provider could not be reached or answered an error: the caller retries later or tells the buyer.
 * `keysRefused`: the provider refused our keys (revoked, rolled, or lacking a permission): nothing works
 * until the owner enters them again, and trying later changes nothing, so she is told.
 */
export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
  /** The provider's own kind of error (the SDK's: `StripeAuthenticationError`…), when it gave one. */
  readonly providerErrorType: string | null;
  readonly keysRefused: boolean;
  constructor(
    message: string,
    options: ErrorOptions & { providerErrorType?: string; keysRefused?: boolean } = {},
  ) {
    super(message, options);
    this.providerErrorType = options.providerErrorType ?? null;
    this.keysRefused = options.keysRefused ?? false;
  }
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
  /** What became of a refund the provider answered `pending` (decision 0171). */
  retrieveRefund(refundReference: string): Promise<RefundResult>;
  /**
   * Every refund the provider made on a payment: ours, each carrying our refund's id (a call that never
   * got an answer is looked for among them), and those made outside the site, in the provider's own
   * dashboard, which carry none (decision 0194).
   */
  listRefunds(paymentReference: string): Promise<ProviderRefundState[]>;
  /** The origins our forms may post to for this provider (the CSP's `form-action`). */
  formActionOrigins(): string[];
}
