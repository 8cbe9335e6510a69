import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { db } from "../../app/server/db/client.server";
import { moneyJournal, orders, paymentAttempts } from "../../app/server/db/schema";
import {
  defineOrderKind,
  provideOrderKinds,
  type OrderRecord,
} from "../../app/server/payments/order-kinds.server";
import {
  applyPaymentStatus,
  type PaymentReport,
} from "../../app/server/payments/apply-payment.server";
import { createOrder, type NewOrder } from "../../app/server/payments/orders.server";
import {
  ProviderUnavailableError,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderPaymentState,
  type RefundRequest,
  type RefundResult,
} from "../../app/server/payments/provider.server";
import { replacePaymentProviderForTests } from "../../app/server/payments/providers.server";

/*
 * The payments core's tests: a card provider in memory (the fake Stripe over HTTP is the Stripe adapter's
 * tests'), an order kind that counts its effects, and counts of what the core wrote.
 */

/** A card provider in memory: checkouts by reference, each one's state set by the test. */
export function memoryCardProvider() {
  const checkouts = new Map<string, ProviderPaymentState & { idempotencyKey: string }>();
  const calls = {
    create: [] as CheckoutRequest[],
    refund: [] as RefundRequest[],
    expire: 0,
    retrieveRefund: 0,
  };
  /** The refunds made, by reference: one per idempotency key, as Stripe keeps them. */
  const refundsMade = new Map<string, RefundResult & { idempotencyKey: string }>();
  const refundPlan = { outcome: "succeeded" as "succeeded" | "pending", failing: 0 };
  let failing = false;
  const provider: PaymentProvider = {
    name: "stripe",
    async createCheckout(request) {
      calls.create.push(request);
      if (failing) throw new ProviderUnavailableError("Le prestataire ne répond pas.");
      // The same idempotency key answers the same checkout, as Stripe does.
      const existing = [...checkouts.values()].find(
        (checkout) => checkout.idempotencyKey === request.idempotencyKey,
      );
      const providerReference = existing?.providerReference ?? `cs_test_${randomUUID()}`;
      checkouts.set(providerReference, {
        providerReference,
        status: "open",
        amountCents: null,
        currency: null,
        paymentReference: null,
        idempotencyKey: request.idempotencyKey,
      });
      return {
        providerReference,
        redirectUrl: `https://checkout.example.test/pay/${providerReference}`,
        expiresAt: request.expiresAt,
      };
    },
    async retrieve(reference) {
      const checkout = checkouts.get(reference);
      if (!checkout) throw new ProviderUnavailableError("inconnu");
      return checkout;
    },
    async expire(reference) {
      calls.expire += 1;
      const checkout = checkouts.get(reference);
      if (!checkout) throw new ProviderUnavailableError("inconnu");
      if (checkout.status === "open") checkout.status = "expired";
      return checkout;
    },
    verifyWebhook() {
      throw new Error("not used");
    },
    async refund(request) {
      calls.refund.push(request);
      if (refundPlan.failing > 0) {
        refundPlan.failing -= 1;
        throw new ProviderUnavailableError("Le prestataire ne répond pas.");
      }
      const refundReference = `re_${request.idempotencyKey}`;
      const made = refundsMade.get(refundReference) ?? {
        refundReference,
        status: refundPlan.outcome,
        failureReason: null,
        idempotencyKey: request.idempotencyKey,
      };
      refundsMade.set(refundReference, made);
      return { ...made };
    },
    async retrieveRefund(reference) {
      calls.retrieveRefund += 1;
      const made = refundsMade.get(reference);
      if (!made) throw new ProviderUnavailableError("remboursement inconnu");
      return { ...made };
    },
    async listRefunds(paymentReference) {
      const keys = new Set<string>();
      return calls.refund.flatMap((call) => {
        const made = refundsMade.get(`re_${call.idempotencyKey}`);
        if (call.paymentReference !== paymentReference || !made || keys.has(call.idempotencyKey)) {
          return [];
        }
        keys.add(call.idempotencyKey);
        return [
          {
            refundReference: made.refundReference,
            refundId: call.refundId ?? null,
            paymentReference,
            status: made.status === "offline" ? null : made.status,
            failureReason: made.failureReason ?? null,
            amountCents: call.amountCents,
            currency: "eur",
          },
        ];
      });
    },
    formActionOrigins: () => ["https://checkout.example.test"],
  };
  return {
    provider,
    calls,
    /** What the provider will say of a checkout (a payment made on its page). */
    pay(reference: string, amountCents: number, currency = "eur") {
      const checkout = checkouts.get(reference);
      if (!checkout) throw new Error(`no checkout ${reference}`);
      Object.assign(checkout, {
        status: "succeeded",
        amountCents,
        currency,
        paymentReference: `pi_${reference}`,
      });
    },
    failNext(value: boolean) {
      failing = value;
    },
    /** The status new refunds get (`pending`: settled later by `settleRefund`). */
    refundOutcome(outcome: "succeeded" | "pending") {
      refundPlan.outcome = outcome;
    },
    /** The next `times` refund calls fail, as a provider that does not answer. */
    failRefunds(times: number) {
      refundPlan.failing = times;
    },
    /** A pending refund settles at the provider (no event: the test delivers one, or reconciles). */
    settleRefund(reference: string, status: "succeeded" | "failed", failureReason?: string) {
      const made = refundsMade.get(reference);
      if (!made) throw new Error(`no refund ${reference}`);
      Object.assign(made, { status, failureReason: failureReason ?? null });
    },
    /** How many distinct refunds the provider made. */
    refundCount: () => refundsMade.size,
    install() {
      replacePaymentProviderForTests("stripe", provider);
    },
    uninstall() {
      replacePaymentProviderForTests("stripe", null);
    },
  };
}

/** The `voucher` kind as a test sees it: each effect counted, by order. */
export function countingOrderKind() {
  const effects = {
    paid: [] as { orderId: string; late: boolean; source: string }[],
    released: [] as string[],
    refunded: [] as { orderId: string; amountCents: number; fullyRefunded: boolean }[],
    /** Orders whose payment the kind gives back at once (what it paid for is gone, as a real kind may). */
    givesBack: new Set<string>(),
  };
  provideOrderKinds([
    defineOrderKind("voucher", {
      onPaid: async (_tx, order: OrderRecord, { late, source }) => {
        effects.paid.push({ orderId: order.id, late, source });
        return effects.givesBack.has(order.id) ? "given_back" : undefined;
      },
      onReleased: async (_tx, order) => {
        effects.released.push(order.id);
      },
      onRefunded: async (_tx, order, { amountCents, fullyRefunded }) => {
        effects.refunded.push({ orderId: order.id, amountCents, fullyRefunded });
      },
    }),
  ]);
  return effects;
}

/** A voucher order of `amountCents` in one line, by `method`. */
export function newVoucherOrder(
  method: NewOrder["method"],
  amountCents = 15_000,
  overrides: Partial<NewOrder> = {},
): NewOrder {
  return {
    kind: "voucher",
    method,
    buyer: { name: "Camille Martin", email: `camille-${randomUUID()}@example.test` },
    termsAcceptedAt: new Date(),
    rulesSnapshot: { withdrawalDays: 14, text: "Rétractation sous 14 jours." },
    lines: [
      {
        label: "Bon cadeau séance portrait",
        quantity: 1,
        unitPriceCents: amountCents,
        vatRate: null,
      },
    ],
    idempotencyKey: randomUUID(),
    payBy: method === "transfer" ? new Date(Date.now() + 7 * 24 * 3_600_000) : null,
    ...overrides,
  };
}

export const placeOrder = (
  method: NewOrder["method"],
  amountCents?: number,
  overrides?: Partial<NewOrder>,
) => createOrder(newVoucherOrder(method, amountCents, overrides));

/**
 * A test file's payments: the card provider in memory installed for the file, and the `voucher` kind
 * counting its effects (`effects()` after the file's `beforeAll`).
 */
export function usePaymentsInMemory() {
  const card = memoryCardProvider();
  let effects: ReturnType<typeof countingOrderKind> | undefined;
  beforeAll(() => {
    card.install();
    effects = countingOrderKind();
  });
  afterAll(() => card.uninstall());
  return {
    card,
    effects: () => {
      if (!effects) throw new Error("payments in memory: used before beforeAll");
      return effects;
    },
  };
}

/** A card order of `amountCents` (150 € by default) with its checkout open: its attempt and reference. */
export async function placeCardOrder(amountCents = 15_000) {
  const order = await placeOrder("card", amountCents);
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, order.orderId));
  if (!attempt?.providerReference) throw new Error("no checkout");
  return { orderId: order.orderId, attemptId: attempt.id, reference: attempt.providerReference };
}

export async function orderRow(orderId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`no order ${orderId}`);
  return order;
}

/** The journal's rows of an order, in order. */
export function journalRowsOf(orderId: string) {
  return db()
    .select()
    .from(moneyJournal)
    .where(eq(moneyJournal.orderId, orderId))
    .orderBy(moneyJournal.seq);
}

/** The e-mail jobs of an order, by kind (`payment-buyer`, `payment-owner`) and event. */
export async function mailJobsOf(orderId: string): Promise<string[]> {
  const result = await db().execute<{ kind: string; event: string }>(sql`
    select data->>'kind' as kind, data->>'event' as event from pgboss.job
    where name = 'mail' and data->>'orderId' = ${orderId} order by created_on`);
  return result.rows.map((row) => `${row.kind}:${row.event}`);
}

export async function ordersWithKey(key: string): Promise<number> {
  const rows = await db()
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.idempotencyKey, key)));
  return rows.length;
}

/**
 * The card provider's report that the order's checkout was paid (`amountCents`), applied as its webhook
 * would be. The order's attempt must have a provider reference (a checkout made).
 */
export async function reportCardPaid(orderId: string, amountCents: number) {
  const [attempt] = await db()
    .select({ reference: paymentAttempts.providerReference })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, orderId));
  const reference = attempt?.reference;
  if (!reference) throw new Error("no checkout");
  return applyPaymentStatus(cardPaidReport(reference, amountCents));
}

/** The card provider's webhook report that its checkout `reference` was paid, with `overrides`. */
export const cardPaidReport = (
  reference: string,
  amountCents: number,
  overrides: Partial<PaymentReport> = {},
): PaymentReport =>
  ({
    provider: "stripe",
    providerReference: reference,
    status: "succeeded",
    amountCents,
    currency: "eur",
    paymentReference: `pi_${reference}`,
    source: "webhook",
    ...overrides,
  }) as PaymentReport;
