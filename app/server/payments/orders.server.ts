import { createHash, randomUUID } from "node:crypto";
import {
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  notInArray,
  or,
  sql,
} from "drizzle-orm";
import {
  CURRENCY,
  type OfflineMeans,
  type OrderKind,
  type PaymentMethod,
  type ProviderName,
  type RefundStatus,
  type VoucherVatMode,
} from "~/lib/payments/model";
import { isUuid } from "~/lib/forms";
import { now } from "../clock.server";
import { db, type Database } from "../db/client.server";
import { orderLines, orders, paymentAttempts, refunds } from "../db/schema";
import { log } from "../logger.server";
import { applyPaymentStatus, type PaymentOutcome } from "./apply-payment.server";
import {
  orderPageUrl,
  queueBuyerPaymentMail,
  queueOwnerPaymentMail,
  tellOwnerIfKeysRefused,
} from "./emails.server";
import { appendJournal, type Tx } from "./journal.server";
import { creditRefund } from "../invoices/orders.server";
import { orderKindEffects, type OrderRecord } from "./order-kinds.server";
import { looksLikeOrderToken, orderTokenFor, orderTokenHash } from "./order-token.server";
import { OFFLINE_PROVIDERS, paymentProvider } from "./providers.server";
import { ProviderUnavailableError, type RefundResult } from "./provider.server";
import { PaymentRefusedError } from "./refusals.server";
import { newTransferReference } from "./transfer-reference";

/*
 * Orders (decision 0162): created with their lines and first payment attempt in one transaction, the
 * provider's checkout asked for after it commits (a provider that fails leaves the order waiting, its
 * attempt failed, and the buyer may try again); paid offline by the owner and refunded, always through
 * applyPaymentStatus or under the order's lock with the journal row of each euro.
 */

/** How long a card checkout accepts a payment. */
export const CHECKOUT_MINUTES = 30;

export type NewOrderLine = {
  label: string;
  quantity: number;
  /** TTC, in cents. */
  unitPriceCents: number;
  /** Basis points (2000 = 20 %); null under the franchise en base (293 B). */
  vatRate: number | null;
  voucherVatMode?: VoucherVatMode | null;
};

export type NewOrder = {
  kind: OrderKind;
  method: PaymentMethod;
  buyer: { name: string; email: string; phone?: string };
  termsAcceptedAt: Date;
  /** The withdrawal and cancellation rules as the buyer saw them. */
  rulesSnapshot: Record<string, unknown>;
  lines: NewOrderLine[];
  /** The order form's own key (a hidden field): a second submit of it finds this order. */
  idempotencyKey: string;
  /**
   * What the buyer's form asked for, when the key comes from her form: a second submit finds the order
   * only if it asks for the same; the same key with another request (a page the browser showed again with
   * its key, then changed) is refused (`key_reused`) rather than answered with the first order.
   */
  request?: unknown;
  studioId?: string | null;
  /**
   * A transfer's deadline (the owner's number of days). For a card, a later end of the whole order than
   * its first checkout's 30 minutes (a booking's deposit asked by e-mail, decision 0186): the buyer may
   * open new checkouts until then. Ignored at the studio.
   */
  payBy?: Date | null;
  /**
   * The kind's own rows, written in the order's transaction after its lines (a voucher, decision 0167);
   * not called on a second submit, which finds the first order and its rows.
   */
  inTransaction?: (tx: Tx, order: OrderRecord) => Promise<void>;
};

export type OrderCheckout = {
  orderId: string;
  /** The buyer's page /commande/{token}. */
  token: string;
  amountCents: number;
  transferReference: string | null;
  attemptId: string | null;
  /** The provider's hosted page to send the buyer to; null for offline methods or when it failed. */
  redirectUrl: string | null;
  /** `ready`: the checkout exists; `failed`: the provider could not make it (try again: retryCheckout). */
  checkout: "ready" | "failed";
  /**
   * Failed because the provider refused the site's keys (decision 0163): no retry works until the owner
   * enters them again (she is told), so the buyer is not told « in a few minutes ».
   */
  keysRefused: boolean;
  /** False when this was a second submit of an order already made. */
  created: boolean;
};

const PROVIDER_OF: Record<PaymentMethod, ProviderName> = {
  card: "stripe",
  transfer: "transfer",
  studio: "studio",
};

type PgErrorFields = { code?: string; constraint?: string };
const pgFields = (error: unknown): PgErrorFields => {
  if (typeof error !== "object" || error === null) return {};
  const own = error as PgErrorFields & { cause?: unknown };
  if (own.code) return own;
  return typeof own.cause === "object" && own.cause !== null ? (own.cause as PgErrorFields) : {};
};

function checkNewOrder(input: NewOrder): number {
  const validLine = (line: NewOrderLine) =>
    line.label.trim() !== "" &&
    Number.isInteger(line.quantity) &&
    line.quantity > 0 &&
    Number.isInteger(line.unitPriceCents) &&
    line.unitPriceCents >= 0 &&
    (line.vatRate === null || (Number.isInteger(line.vatRate) && line.vatRate >= 0));
  const amount = input.lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  if (
    input.buyer.name.trim() === "" ||
    !/^[^\s@]+@[^\s@]+$/.test(input.buyer.email.trim()) ||
    input.lines.length === 0 ||
    !input.lines.every(validLine) ||
    amount <= 0 ||
    !Number.isSafeInteger(amount) ||
    input.idempotencyKey.length < 8 ||
    input.idempotencyKey.length > 100 ||
    (input.method === "transfer" && !input.payBy)
  ) {
    throw new PaymentRefusedError("invalid_order");
  }
  return amount;
}

/** A new attempt to pay `order` (its provider from the order's method), open until `expiresAt`. */
async function insertAttempt(
  tx: Tx,
  order: Pick<OrderRecord, "id" | "method" | "amountCents">,
  expiresAt: Date | null,
) {
  const [attempt] = await tx
    .insert(paymentAttempts)
    .values({
      orderId: order.id,
      provider: PROVIDER_OF[order.method],
      amountCents: order.amountCents,
      expiresAt,
      idempotencyKey: randomUUID(),
    })
    .returning();
  if (!attempt) throw new Error("payment_attempts: no row inserted");
  return attempt;
}

/**
 * Creates an order, its lines and its first payment attempt in one transaction, then asks the provider
 * for its checkout. A second call with the same idempotency key (a double submit, a retried post) makes
 * nothing new and answers the same order and checkout.
 */
export async function createOrder(input: NewOrder): Promise<OrderCheckout> {
  const amountCents = checkNewOrder(input);
  const fingerprint =
    input.request === undefined
      ? null
      : createHash("sha256")
          .update(JSON.stringify({ kind: input.kind, request: input.request }))
          .digest("hex");
  const id = randomUUID();
  const token = await orderTokenFor(id);
  const at = now();
  const expiresAt =
    input.method === "card"
      ? new Date(at.getTime() + CHECKOUT_MINUTES * 60_000)
      : input.method === "transfer"
        ? (input.payBy ?? null)
        : null;

  const created = await db().transaction(async (tx) => {
    for (let draw = 1; ; draw++) {
      try {
        // In a savepoint: a transfer reference already taken draws another.
        return await tx.transaction(async (savepoint) => {
          const [order] = await savepoint
            .insert(orders)
            .values({
              id,
              kind: input.kind,
              amountCents,
              method: input.method,
              buyerName: input.buyer.name.trim(),
              buyerEmail: input.buyer.email.trim(),
              buyerPhone: input.buyer.phone?.trim() ?? "",
              termsAcceptedAt: input.termsAcceptedAt,
              rulesSnapshot: input.rulesSnapshot,
              tokenHash: orderTokenHash(token),
              idempotencyKey: input.idempotencyKey,
              requestFingerprint: fingerprint,
              transferReference:
                input.method === "transfer" ? newTransferReference(input.kind) : null,
              payBy:
                input.method === "card" && input.payBy && input.payBy > (expiresAt ?? at)
                  ? input.payBy
                  : expiresAt,
              studioId: input.studioId ?? null,
              createdAt: at,
              updatedAt: at,
            })
            .onConflictDoNothing({ target: orders.idempotencyKey })
            .returning();
          if (!order) return null;
          await savepoint.insert(orderLines).values(
            input.lines.map((line, position) => ({
              orderId: order.id,
              position,
              label: line.label.trim(),
              quantity: line.quantity,
              unitPriceCents: line.unitPriceCents,
              vatRate: line.vatRate,
              voucherVatMode: line.voucherVatMode ?? null,
            })),
          );
          await insertAttempt(savepoint, order, expiresAt);
          await input.inTransaction?.(savepoint, order);
          return order;
        });
      } catch (error) {
        const { code, constraint } = pgFields(error);
        if (code !== "23505" || constraint !== "orders_transfer_reference_unique" || draw >= 10) {
          throw error;
        }
      }
    }
  });

  const [order] = created
    ? [created]
    : await db().select().from(orders).where(eq(orders.idempotencyKey, input.idempotencyKey));
  if (!order) throw new Error("Commande introuvable après sa création.");
  const otherRequest =
    fingerprint !== null &&
    order.requestFingerprint !== null &&
    order.requestFingerprint !== fingerprint;
  if (order.kind !== input.kind || otherRequest) throw new PaymentRefusedError("key_reused");
  const checkout = await ensureCheckout(order);
  return { ...checkout, created: created !== null };
}

/**
 * The order's open attempt with its provider's checkout: asked for when it has none yet (the provider's
 * idempotency key makes a second ask, from a double submit, answer the same checkout). A provider that
 * fails leaves the attempt failed, with why.
 */
async function ensureCheckout(order: OrderRecord): Promise<Omit<OrderCheckout, "created">> {
  const token = await orderTokenFor(order.id);
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, order.id))
    .orderBy(desc(paymentAttempts.createdAt))
    .limit(1);
  const answer = (
    redirectUrl: string | null,
    checkout: "ready" | "failed",
    keysRefused = false,
  ) => ({
    orderId: order.id,
    token,
    amountCents: order.amountCents,
    transferReference: order.transferReference,
    attemptId: attempt?.id ?? null,
    redirectUrl,
    checkout,
    keysRefused,
  });
  if (!attempt || attempt.status === "failed") return answer(null, "failed");
  if (attempt.providerReference !== null || attempt.status !== "open") {
    return answer(attempt.redirectUrl, "ready");
  }
  const lines = await db()
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.position));
  const page = await orderPageUrl(order.id);
  try {
    const provider = await paymentProvider(attempt.provider);
    const checkout = await provider.createCheckout({
      orderId: order.id,
      attemptId: attempt.id,
      idempotencyKey: attempt.idempotencyKey,
      amountCents: attempt.amountCents,
      lines: lines.map((line) => ({
        label: line.label,
        quantity: line.quantity,
        unitAmountCents: line.unitPriceCents,
      })),
      customerEmail: order.buyerEmail,
      returnUrl: `${page}?paiement={CHECKOUT_SESSION_ID}`,
      cancelUrl: page,
      expiresAt: attempt.expiresAt ?? new Date(now().getTime() + 365 * 24 * 3_600_000),
    });
    await db()
      .update(paymentAttempts)
      .set({
        providerReference: checkout.providerReference,
        redirectUrl: checkout.redirectUrl,
        ...(attempt.expiresAt ? { expiresAt: checkout.expiresAt } : {}),
        updatedAt: now(),
      })
      .where(
        and(
          eq(paymentAttempts.id, attempt.id),
          or(
            isNull(paymentAttempts.providerReference),
            eq(paymentAttempts.providerReference, checkout.providerReference),
          ),
        ),
      );
    return answer(checkout.redirectUrl, "ready");
  } catch (error) {
    log.warn("checkout_failed", { orderId: order.id, attemptId: attempt.id, error });
    await tellOwnerIfKeysRefused(error);
    // Not a payment status: the attempt never reached the provider. Only an attempt still without a
    // checkout fails (a double submit's ask may have succeeded meanwhile).
    await db()
      .update(paymentAttempts)
      .set({
        status: "failed",
        error: error instanceof Error ? error.message : String(error),
        updatedAt: now(),
      })
      .where(
        and(
          eq(paymentAttempts.id, attempt.id),
          eq(paymentAttempts.status, "open"),
          isNull(paymentAttempts.providerReference),
        ),
      );
    return answer(null, "failed", error instanceof ProviderUnavailableError && error.keysRefused);
  }
}

/**
 * A transfer's open attempt ends with its order's deadline (`insertAttempt`): the expiry job closes it at
 * that end, then releases the order, and a payment marked received after it is a late one. Where a
 * feature moves an order's deadline (its booking moved, its gallery's end changed), in its transaction,
 * the attempt's end moves with it. A card's checkout ends at its provider, when it said.
 */
export async function transferAttemptsEndAt(tx: Tx, orderId: string, payBy: Date): Promise<void> {
  await tx
    .update(paymentAttempts)
    .set({ expiresAt: payBy, updatedAt: now() })
    .where(
      and(
        eq(paymentAttempts.orderId, orderId),
        eq(paymentAttempts.provider, "transfer"),
        eq(paymentAttempts.status, "open"),
      ),
    );
}

/**
 * An order awaiting a transfer given a new deadline, and its open attempt with it; false when it no
 * longer awaits its payment. In the caller's transaction.
 */
export async function moveTransferDeadline(tx: Tx, orderId: string, payBy: Date): Promise<boolean> {
  const [moved] = await tx
    .update(orders)
    .set({ payBy, updatedAt: now() })
    .where(and(eq(orders.id, orderId), eq(orders.status, "awaiting_payment")))
    .returning({ id: orders.id });
  if (!moved) return false;
  await transferAttemptsEndAt(tx, orderId, payBy);
  return true;
}

/**
 * A new checkout for an order still awaiting payment whose attempts are all closed (a provider that
 * failed, a payment refused): a new attempt, and for a card a new 30 minutes to pay. Refused while a
 * payment taken for another total waits for the owner's decision (`payment_held`).
 */
export async function retryCheckout(orderId: string): Promise<OrderCheckout> {
  const order = await db().transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (locked.status !== "awaiting_payment") throw new PaymentRefusedError("not_awaiting_payment");
    const current = await tx
      .select({ status: paymentAttempts.status })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.orderId, orderId),
          inArray(paymentAttempts.status, ["open", "held"]),
        ),
      );
    // A payment taken for another total waits for the owner (decision 0172): paying again would take the
    // money twice; once she gives it back (`returned`) the order may be paid again.
    if (current.some((attempt) => attempt.status === "held")) {
      throw new PaymentRefusedError("payment_held");
    }
    if (current.length > 0) return locked;
    const expiresAt =
      locked.method === "card"
        ? new Date(now().getTime() + CHECKOUT_MINUTES * 60_000)
        : locked.payBy;
    await insertAttempt(tx, locked, expiresAt);
    if (locked.method === "card" && expiresAt) {
      await orderKindEffects(locked.kind).onCheckoutOpened?.(tx, locked, { expiresAt });
    }
    // An order that may be paid later than one checkout (decision 0186) keeps its own end.
    const payBy = expiresAt && locked.payBy && locked.payBy > expiresAt ? locked.payBy : expiresAt;
    const [updated] = await tx
      .update(orders)
      .set({ payBy, updatedAt: now() })
      .where(eq(orders.id, orderId))
      .returning();
    return updated ?? locked;
  });
  return { ...(await ensureCheckout(order)), created: false };
}

/**
 * An order still awaiting payment called off by what it pays for (a booking cancelled): `cancelled`, its
 * kind told (`onReleased`, reason `cancelled`), no e-mail of the core's (the kind's own says why); then its
 * checkouts still open are closed at their provider. A payment that beat the close is a late one,
 * applied, and its kind gives it back. False when the order no longer awaited payment.
 */
export async function cancelUnpaidOrder(orderId: string): Promise<boolean> {
  const cancelled = await db().transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order.status !== "awaiting_payment") return false;
    const [cancelled] = await tx
      .update(orders)
      .set({ status: "cancelled", updatedAt: now() })
      .where(and(eq(orders.id, orderId), eq(orders.status, "awaiting_payment")))
      .returning();
    if (!cancelled) return false;
    await orderKindEffects(cancelled.kind).onReleased(tx, cancelled, { reason: "cancelled" });
    return true;
  });
  if (!cancelled) return false;
  // Its checkouts closed at their provider now rather than when their time ends; one paid meanwhile is
  // applied as the late payment it is.
  await closeOpenAttempts(orderId);
  return true;
}

/**
 * Closes an open attempt at its provider (a checkout expired there) and applies the state the provider
 * then says (source `expiry`): a checkout paid at the last moment stays paid. False when the provider says
 * it is still open. From the expiry job and an order's cancellation.
 */
export async function closeAttempt(attempt: typeof paymentAttempts.$inferSelect): Promise<boolean> {
  // An attempt whose checkout was never made has nothing to close at its provider.
  const state = attempt.providerReference
    ? await (await paymentProvider(attempt.provider)).expire(attempt.providerReference)
    : null;
  if (state?.status === "open") return false;
  await applyPaymentStatus({
    attemptId: attempt.id,
    status: state?.status ?? "expired",
    amountCents: state?.amountCents ?? null,
    currency: state?.currency ?? null,
    paymentReference: state?.paymentReference ?? null,
    source: "expiry",
  });
  return true;
}

/** The order's row, locked for the transaction (refunds and offline payments serialise on it). */
export async function lockOrder(tx: Tx, orderId: string): Promise<OrderRecord> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) throw new PaymentRefusedError("not_found");
  return order;
}

/**
 * « Marquer payé »: the owner received the money offline (a transfer, a cheque, cash, the studio's card
 * terminal). Applied to the order's offline attempt (a transfer awaited, even expired: a late payment), or
 * to a new attempt « au studio », through applyPaymentStatus. A second click finds the same attempt
 * applied and changes nothing.
 */
export async function markPaidOffline(
  orderId: string,
  means: OfflineMeans,
): Promise<PaymentOutcome> {
  const attemptId = await db().transaction(async (tx) => {
    // The order's lock: two clicks at once find, or make, the same attempt.
    const order = await lockOrder(tx, orderId);
    if (order.status === "paid" || order.status === "refunded") {
      throw new PaymentRefusedError("already_paid");
    }
    const [reusable] = await tx
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.orderId, orderId),
          inArray(paymentAttempts.provider, [...OFFLINE_PROVIDERS]),
          inArray(paymentAttempts.status, ["open", "expired", "failed"]),
        ),
      )
      .orderBy(desc(paymentAttempts.createdAt))
      .limit(1);
    if (reusable) return reusable.id;
    const id = randomUUID();
    await tx.insert(paymentAttempts).values({
      id,
      orderId,
      provider: "studio",
      providerReference: id,
      amountCents: order.amountCents,
      idempotencyKey: randomUUID(),
    });
    return id;
  });
  const outcome = await applyPaymentStatus({
    attemptId,
    status: "succeeded",
    amountCents: null,
    currency: null,
    paymentReference: null,
    source: "owner",
    means,
  });
  if (outcome.outcome === "applied") await closeOpenAttempts(orderId);
  return outcome;
}

/**
 * What an order sells changed while its checkouts are open (a booking's deposit moved to another day,
 * decision 0186): the provider's page, and its receipt, would still name the old one. In the caller's
 * transaction, after the order's lock: its open checkouts end now (`expires_at`), so that
 * closeEndedCheckouts closes them at their provider once it commits, or the expiry job within a minute
 * when the provider does not answer then. The order's own window (`pay_by`) is kept: a checkout ended this
 * way releases nothing while it lasts, and « Payer » opens a new checkout from the order's lines as they
 * are now. An attempt whose checkout is not made yet will be made from those lines. Answers the attempts
 * ended.
 */
export async function endOpenCheckouts(tx: Tx, orderId: string, at: Date): Promise<string[]> {
  const ended = await tx
    .update(paymentAttempts)
    .set({ expiresAt: at, updatedAt: at })
    .where(
      and(
        eq(paymentAttempts.orderId, orderId),
        eq(paymentAttempts.status, "open"),
        isNotNull(paymentAttempts.providerReference),
        notInArray(paymentAttempts.provider, [...OFFLINE_PROVIDERS]),
        or(isNull(paymentAttempts.expiresAt), gt(paymentAttempts.expiresAt, at)),
      ),
    )
    .returning({ id: paymentAttempts.id });
  return ended.map((attempt) => attempt.id);
}

/**
 * After endOpenCheckouts commits: the order's checkouts it ended are closed at their provider (source
 * `expiry`). A payment made on one before the close is applied as what it is (the order paid once, or a
 * duplicate told to the owner); one that cannot be closed now is closed by the expiry job.
 */
export async function closeEndedCheckouts(attemptIds: readonly string[]): Promise<void> {
  if (attemptIds.length === 0) return;
  const ended = await db()
    .select()
    .from(paymentAttempts)
    .where(and(inArray(paymentAttempts.id, [...attemptIds]), eq(paymentAttempts.status, "open")));
  for (const attempt of ended) {
    try {
      await closeAttempt(attempt);
    } catch (error) {
      log.warn("payment_close_failed", { attemptId: attempt.id, error });
    }
  }
}

/**
 * Closes the order's checkouts still open at their provider (source `expiry`). An order paid another way
 * (« Marquer payé ») would otherwise leave its card page payable until its time ends: a second payment, the
 * owner's to give back. One paid before the close is applied as what it is (a duplicate, told to the
 * owner); one that cannot be closed now is closed by the expiry job.
 */
async function closeOpenAttempts(orderId: string): Promise<void> {
  const open = await db()
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, "open")));
  for (const attempt of open) {
    try {
      await closeAttempt(attempt);
    } catch (error) {
      log.warn("payment_close_failed", { attemptId: attempt.id, error });
    }
  }
}

export type RefundRecord = typeof refunds.$inferSelect;

/** Refunds that count against what was paid: done, or on their way. */
export const COUNTED_REFUNDS: RefundStatus[] = [
  "pending",
  "succeeded",
  "to_refund_offline",
  "refunded_offline",
];

/**
 * The idempotency key of the refund an owner's form asks of one payment: one per payment, so that a form
 * whose refund is split over several payments gives each its own, all found again by the form's key.
 */
export const formRefundKey = (formKey: string, attemptId: string) => `${formKey}:${attemptId}`;

/**
 * The idempotency key of a refund made outside the site, in the provider's dashboard (decision 0194): the
 * provider's id, so that it is recorded once however often its events come.
 */
export const outsideRefundKey = (provider: ProviderName, refundReference: string) =>
  `outside:${provider}:${refundReference}`;

/** Whether a refund was made outside the site (outsideRefundKey). */
export const madeOutside = (refund: Pick<RefundRecord, "idempotencyKey">) =>
  refund.idempotencyKey.startsWith("outside:");

/** The refunds a form's key already made on this order (from its refunds): one per payment it took. */
const refundsOfForm = <Refund extends Pick<RefundRecord, "idempotencyKey">>(
  given: Refund[],
  formKey: string,
): Refund[] => given.filter((refund) => refund.idempotencyKey.startsWith(`${formKey}:`));

/** A refund asked, and whether it is one its form had already asked (nothing written nor sent again). */
export type RefundAsked = RefundRecord & { repeated: boolean };

/** The refunds one request made, one per payment it took from, or found again (`repeated`). */
export type RefundsAsked = { refunds: RefundRecord[]; repeated: boolean };

type RefundablePayment = Awaited<ReturnType<typeof refundablePayments>>[number];

/**
 * `amountCents` taken from `payments` in their order (a duplicate payment first, then the one with the
 * most left), each for no more than is left of it; null when they do not hold that much.
 */
function shareRefund(
  amountCents: number,
  payments: RefundablePayment[],
): Array<{ attempt: AttemptRecord; cents: number }> | null {
  const parts: Array<{ attempt: AttemptRecord; cents: number }> = [];
  let rest = amountCents;
  for (const { attempt, leftCents } of payments) {
    if (rest === 0) break;
    const cents = Math.min(rest, leftCents);
    parts.push({ attempt, cents });
    rest -= cents;
  }
  return rest === 0 ? parts : null;
}

/**
 * Gives money back on a paid order: a card payment through its provider (with the refund's idempotency
 * key: a retry refunds once; the journal row when it succeeds), an offline one marked for the owner to give
 * back (`to_refund_offline`; the journal row when she marks it done, markRefundedOffline). Never more than
 * was paid minus what is already refunded or on its way, checked under the order's lock. `attemptId`: the
 * payment to refund; by default a duplicate payment first, then the one with the most left. `formKey`:
 * the owner's confirmation form's key (a UUID): the same form posted again (a double click, the browser
 * resending) finds the refund it made, `repeated`, and neither writes nor asks the provider anything.
 */
export async function requestRefund(
  orderId: string,
  amountCents: number,
  reason: string,
  options: { attemptId?: string; formKey?: string } = {},
): Promise<RefundAsked> {
  const asked = await askRefunds(orderId, amountCents, reason, { ...options, spread: false });
  const [first] = asked.refunds;
  if (!first) throw new Error("requestRefund: no refund asked");
  return { ...first, repeated: asked.repeated };
}

/**
 * The owner's « Rembourser » of `amountCents`: as requestRefund, spread over the order's payments when
 * one does not hold it all (an order paid twice, whose page offers the sum of both): a refund for each
 * payment it takes from, written in one transaction, all or none. `shownVoucherCents`: the usable balance
 * of the order's voucher her page showed when she confirmed; under the order's lock, its kind refuses the
 * refund (`voucher_used_meanwhile`) when a use made since would have it give back what was spent.
 */
export function requestOwnerRefund(
  orderId: string,
  amountCents: number,
  reason: string,
  options: { formKey?: string; shownVoucherCents?: number } = {},
): Promise<RefundsAsked> {
  return askRefunds(orderId, amountCents, reason, { ...options, spread: true });
}

async function askRefunds(
  orderId: string,
  amountCents: number,
  reason: string,
  options: { attemptId?: string; formKey?: string; spread: boolean; shownVoucherCents?: number },
): Promise<RefundsAsked> {
  const { formKey } = options;
  if (formKey !== undefined && !isUuid(formKey)) {
    throw new Error("requestRefund: a form's key is a UUID");
  }
  if (!Number.isInteger(amountCents) || amountCents <= 0) {
    throw new PaymentRefusedError("refund_too_large", "Le montant à rembourser doit être positif.");
  }
  const asked = await db().transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (formKey) {
      // Under the order's lock: a second post of the form waits for the first and finds its refunds,
      // whichever payments they took (what is left of each has changed since).
      const earlier = refundsOfForm(
        await tx.select().from(refunds).where(eq(refunds.orderId, orderId)),
        formKey,
      );
      if (earlier.length > 0) return { earlier, written: [] };
    }
    if (order.status !== "paid" && order.status !== "refunded") {
      throw new PaymentRefusedError("not_paid");
    }
    // What her page showed, checked under the lock a use of the order's voucher takes first: a use made
    // at the same instant either came before (seen here) or waits for this refund (and its hold).
    if (options.shownVoucherCents !== undefined) {
      await orderKindEffects(order.kind).onRefundAsked?.(tx, order, {
        amountCents,
        shownCents: options.shownVoucherCents,
      });
    }
    const left = await refundablePayments(tx, orderId);
    const from = options.attemptId
      ? left.filter((entry) => entry.attempt.id === options.attemptId)
      : options.spread
        ? left
        : left.slice(0, 1);
    const parts = shareRefund(amountCents, from);
    if (!parts) throw new PaymentRefusedError("refund_too_large");
    const written: Array<{ refund: RefundRecord; attempt: AttemptRecord }> = [];
    for (const { attempt, cents } of parts) {
      const key = formKey ? formRefundKey(formKey, attempt.id) : randomUUID();
      written.push({ refund: await insertRefund(tx, attempt, cents, reason, key), attempt });
    }
    return { earlier: [], written };
  });
  if (asked.earlier.length > 0) return { refunds: asked.earlier, repeated: true };
  const sent: RefundRecord[] = [];
  for (const { refund, attempt } of asked.written)
    sent.push(await sendRefundAsked(refund, attempt));
  return { refunds: sent, repeated: false };
}

type AttemptRecord = typeof paymentAttempts.$inferSelect;

/**
 * A refund of `amountCents` of `attempt`'s payment, written in `tx` under its order's lock, the caller
 * having checked that it fits what is left of it: `pending` for its provider, or `to_refund_offline` for
 * the owner to give back. Sent after the commit (`sendRefundAsked`) with `idempotencyKey` (by default a
 * new one; an owner's form's: formRefundKey), which the provider also gets.
 */
export async function insertRefund(
  tx: Tx,
  attempt: AttemptRecord,
  amountCents: number,
  reason: string,
  idempotencyKey: string = randomUUID(),
): Promise<RefundRecord> {
  const [inserted] = await tx
    .insert(refunds)
    .values({
      orderId: attempt.orderId,
      attemptId: attempt.id,
      amountCents,
      reason: reason.trim(),
      status: OFFLINE_PROVIDERS.includes(attempt.provider) ? "to_refund_offline" : "pending",
      idempotencyKey,
    })
    .returning();
  if (!inserted) throw new Error("refunds: no row inserted");
  return inserted;
}

/** A refund written by `insertRefund`, once committed: sent to its provider, or left for the owner. */
export async function sendRefundAsked(
  refund: RefundRecord,
  attempt: AttemptRecord,
): Promise<RefundRecord> {
  if (refund.status === "to_refund_offline") return refund;
  return sendRefund(refund, attempt.provider, attempt.paymentReference);
}

/**
 * Whether every payment an order received was a card's: what is refunded of it goes back on the card, by
 * the provider (a refund already done included, where refundablePayments finds nothing left).
 */
export async function receivedByCardOnly(orderId: string): Promise<boolean> {
  const paid = await db()
    .select({ provider: paymentAttempts.provider })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, "succeeded")));
  return paid.length > 0 && paid.every(({ provider }) => !OFFLINE_PROVIDERS.includes(provider));
}

/**
 * The order's payments with money not refunded (nor on its way back), each with what is left of it: a
 * duplicate payment first, then the one with the most left. Under the order's lock in `requestRefund`.
 */
export async function refundablePayments(
  tx: Tx | Database,
  orderId: string,
): Promise<Array<{ attempt: typeof paymentAttempts.$inferSelect; leftCents: number }>> {
  const paid = await tx
    .select({
      attempt: paymentAttempts,
      refunded: sql<number>`coalesce((select sum(r.amount_cents) from refunds r
        where r.attempt_id = payment_attempts.id
          and r.status in (${sql.join(
            COUNTED_REFUNDS.map((status) => sql`${status}`),
            sql`, `,
          )})), 0)::int`,
    })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, "succeeded")));
  return paid
    .map(({ attempt, refunded }) => ({ attempt, leftCents: attempt.amountCents - refunded }))
    .filter((entry) => entry.leftCents > 0)
    .sort(
      (a, b) =>
        Number(b.attempt.duplicate) - Number(a.attempt.duplicate) || b.leftCents - a.leftCents,
    );
}

/**
 * Gives back all that is still paid on an order, after the commit of what decided it (a job's handler):
 * each payment for what is left of it, so that an order paid twice comes back whole where one refund of
 * the sum would exceed either payment and be refused. A refund made meanwhile (the job run twice), or an
 * order no longer paid, leaves nothing to give back: skipped. Returns how many refunds were asked.
 */
export async function refundWhatIsLeft(orderId: string, reason: string): Promise<number> {
  let asked = 0;
  for (const { attempt, leftCents } of await refundablePayments(db(), orderId)) {
    try {
      await requestRefund(orderId, leftCents, reason, { attemptId: attempt.id });
      asked += 1;
    } catch (error) {
      if (!(error instanceof PaymentRefusedError)) throw error;
      log.info("refund_skipped", { orderId, attemptId: attempt.id, reason: error.code });
    }
  }
  return asked;
}

/**
 * Asks the provider for a refund still pending (again, after an error: its key refunds once, decision
 * 0171), with our refund's id for its events to name it.
 */
export async function sendRefund(
  refund: RefundRecord,
  providerName: ProviderName,
  paymentReference: string | null,
): Promise<RefundRecord> {
  try {
    if (!paymentReference) throw new Error("Paiement sans référence chez le prestataire.");
    const provider = await paymentProvider(providerName);
    const result = await provider.refund({
      paymentReference,
      amountCents: refund.amountCents,
      idempotencyKey: refund.idempotencyKey,
      refundId: refund.id,
    });
    return await settleRefund(refund, result);
  } catch (error) {
    log.warn("refund_failed", { refundId: refund.id, error });
    await tellOwnerIfKeysRefused(error);
    const [noted] = await db()
      .update(refunds)
      .set({ error: error instanceof Error ? error.message : String(error), updatedAt: now() })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
      .returning();
    return noted ?? refund;
  }
}

/**
 * What the provider answered of a refund, applied (decision 0171): succeeded or failed, its end (once,
 * completeRefund); pending, its reference kept (the error of an earlier try cleared) for its events and
 * the reconciliation to follow it.
 */
export async function settleRefund(
  refund: RefundRecord,
  result: RefundResult,
): Promise<RefundRecord> {
  if (result.status === "succeeded") {
    return completeRefund(refund.id, "succeeded", result.refundReference);
  }
  if (result.status === "failed") {
    return completeRefund(
      refund.id,
      "failed",
      result.refundReference,
      refundFailureText(result.failureReason ?? null),
    );
  }
  const [pending] = await db()
    .update(refunds)
    .set({
      providerReference: result.refundReference ?? refund.providerReference,
      error: null,
      updatedAt: now(),
    })
    .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
    .returning();
  return pending ?? refund;
}

/** Our reason for a refund whose call never got an answer and that the provider never made. */
export const NEVER_MADE = "never_made";

/** A refund refused because the payment was refunded already: the client has her money, nothing to retry. */
export const ALREADY_REFUNDED_TEXT =
  "Ce paiement a déjà été remboursé (par exemple depuis votre tableau de bord Stripe).";

/**
 * Why a refund failed, in the owner's words: Stripe's `failure_reason` for a refund that failed later, or
 * its error's `code` for a refund it refused at once (decision 0171, amended).
 */
export function refundFailureText(reason: string | null): string {
  switch (reason) {
    case "expired_or_canceled_card":
      return "La carte du client a expiré ou a été annulée.";
    case "lost_or_stolen_card":
      return "La carte du client a été déclarée perdue ou volée.";
    case "charge_for_pending_refund_disputed":
    case "charge_disputed":
      return "Le client a contesté ce paiement auprès de sa banque : Stripe ne le rembourse pas tant que la contestation est ouverte.";
    case "insufficient_funds":
    case "balance_insufficient":
      return "Le solde de votre compte Stripe ne suffit pas pour ce remboursement.";
    case "charge_already_refunded":
      return ALREADY_REFUNDED_TEXT;
    case "amount_too_large":
      return "Ce montant dépasse ce qui reste à rembourser sur ce paiement chez Stripe (une partie a peut-être déjà été remboursée depuis votre tableau de bord Stripe).";
    case "resource_missing":
      return "Stripe ne trouve pas ce paiement : les clés enregistrées sont peut-être celles d'un autre compte Stripe.";
    case "declined":
      return "La banque du client a refusé ce remboursement.";
    case NEVER_MADE:
      return "Stripe n'a jamais répondu à cette demande et n'a fait aucun remboursement.";
    default:
      return "Le prestataire de paiement a refusé ce remboursement.";
  }
}

/**
 * The owner gave an offline refund back (« Remboursé »): its journal row, once, with the way she gave it
 * back (`means`, « Rendu par »: the accountant's « Mode de règlement »), its payment's when not given.
 */
export function markRefundedOffline(refundId: string, means?: OfflineMeans): Promise<RefundRecord> {
  return completeRefund(refundId, "refunded_offline", null, null, means);
}

/**
 * A refund comes to its end (the provider confirmed or refused it, or the owner gave it back), by
 * compare-and-set from `pending` or `to_refund_offline`, in one transaction with its journal row, the order
 * `refunded` once nothing paid is left, and the kind's onRefunded. A second call changes nothing.
 */
export async function completeRefund(
  refundId: string,
  status: "succeeded" | "failed" | "refunded_offline",
  providerReference: string | null,
  error: string | null = null,
  /** How the owner gave an offline refund back, when she said it (else its payment's way). */
  means?: OfflineMeans,
): Promise<RefundRecord> {
  return db().transaction(async (tx) => {
    const [current] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
    if (!current) throw new PaymentRefusedError("not_found", "Ce remboursement n'existe pas.");
    // The order's lock first, as requestRefund takes it: the totals below are read after any refund of it.
    const order = await lockOrder(tx, current.orderId);
    const from: RefundStatus[] =
      status === "refunded_offline" ? ["to_refund_offline"] : ["pending"];
    const at = now();
    const [refund] = await tx
      .update(refunds)
      .set({
        status,
        providerReference: providerReference ?? current.providerReference,
        error,
        completedAt: at,
        updatedAt: at,
      })
      .where(and(eq(refunds.id, refundId), inArray(refunds.status, from)))
      .returning();
    if (!refund) {
      if (current.status === status) return current;
      throw new PaymentRefusedError("refund_not_open");
    }
    if (status === "failed") {
      // No money left, and nobody would know: the owner is told what to do (decision 0171, amended).
      await queueOwnerPaymentMail(
        { orderId: order.id, refundId: refund.id, event: "refund_failed" },
        { tx },
      );
      return refund;
    }
    const [attempt] = await tx
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, refund.attemptId));
    await appendJournal(tx, {
      kind: "refund",
      orderId: order.id,
      attemptId: refund.attemptId,
      refundId: refund.id,
      amountCents: -refund.amountCents,
      method: attempt?.provider === "stripe" ? "card" : (means ?? attempt?.means ?? order.method),
      providerReference: refund.providerReference,
      details: {
        reason: refund.reason,
        // A held payment in another currency goes back in it: its row says so, as its payment's does.
        ...(attempt?.status === "returned" &&
        attempt.heldCurrency &&
        attempt.heldCurrency !== CURRENCY
          ? { currency: attempt.heldCurrency }
          : {}),
      },
    });
    // A held payment given back (`returned`, decision 0172) never counted for the order: its refund
    // neither changes the order nor tells its kind.
    if (attempt?.status !== "succeeded") return refund;
    const totals = await tx.execute<{ paid: number; refunded: number }>(sql`
      select
        (select coalesce(sum(amount_cents), 0) from payment_attempts
          where order_id = ${order.id} and status = 'succeeded')::int as paid,
        (select coalesce(sum(r.amount_cents), 0) from refunds r
          join payment_attempts a on a.id = r.attempt_id and a.status = 'succeeded'
          where r.order_id = ${order.id} and r.status in ('succeeded', 'refunded_offline'))::int
          as refunded`);
    const { paid = 0, refunded = 0 } = totals.rows[0] ?? {};
    const fullyRefunded = refunded >= paid;
    let orderNow = order;
    if (fullyRefunded && order.status === "paid") {
      const [changed] = await tx
        .update(orders)
        .set({ status: "refunded", updatedAt: at })
        .where(and(eq(orders.id, order.id), eq(orders.status, "paid")))
        .returning();
      orderNow = changed ?? order;
    }
    await orderKindEffects(order.kind).onRefunded(tx, orderNow, {
      refundId: refund.id,
      amountCents: refund.amountCents,
      fullyRefunded,
      paidCents: paid,
      refundedCents: refunded,
    });
    // Its credit note in the same transaction (decision 0181), and the buyer told, with its link.
    await creditRefund(tx, orderNow, refund);
    await queueBuyerPaymentMail(
      { orderId: order.id, event: "refunded", refundId: refund.id },
      { tx },
    );
    // One she made in Stripe's dashboard: she is told what the site did with it (decision 0194).
    if (madeOutside(refund)) {
      await queueOwnerPaymentMail(
        { orderId: order.id, refundId: refund.id, event: "refund_outside" },
        { tx },
      );
    }
    return refund;
  });
}

export type OrderPage = {
  order: OrderRecord;
  lines: (typeof orderLines.$inferSelect)[];
  attempts: (typeof paymentAttempts.$inferSelect)[];
  refunds: RefundRecord[];
};

/** The order a buyer's token names, with its lines, attempts and refunds; null for any other text. */
export async function findOrderByToken(token: string): Promise<OrderPage | null> {
  if (!looksLikeOrderToken(token)) return null;
  const [order] = await db()
    .select()
    .from(orders)
    .where(eq(orders.tokenHash, orderTokenHash(token)));
  if (!order) return null;
  return orderPage(order);
}

/** An order by id with its lines, attempts and refunds (the admin's order page). */
export async function findOrder(orderId: string): Promise<OrderPage | null> {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order ? orderPage(order) : null;
}

async function orderPage(order: OrderRecord): Promise<OrderPage> {
  const [lines, attempts, given] = await Promise.all([
    db()
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.position)),
    db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, order.id))
      .orderBy(asc(paymentAttempts.createdAt)),
    db()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id))
      .orderBy(asc(refunds.createdAt)),
  ]);
  return { order, lines, attempts, refunds: given };
}
