import { and, eq, inArray, sql } from "drizzle-orm";
import type {
  AttemptStatus,
  OfflineMeans,
  OrderStatus,
  ProviderName,
  ReportedStatus,
  StatusSource,
} from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { now } from "../clock.server";
import { db, type Database } from "../db/client.server";
import { orders, paymentAttempts } from "../db/schema";
import { log } from "../logger.server";
import { queueBuyerPaymentMail, queueOwnerPaymentMail } from "./emails.server";
import { appendJournal, type Tx } from "./journal.server";
import { invoicePaidOrder } from "../invoices/orders.server";
import { announceRelease, orderKindEffects } from "./order-kinds.server";
import { decidePayment } from "./transitions";

/*
 * The one function that applies a payment status (decision 0162), whoever reports it: the webhook's job,
 * the return page, the expiry job, the reconciliation job, the owner (« Marquer payé »). In one
 * transaction: the attempt's compare-and-set, the order's, the journal row, the kind's effects and the
 * e-mails. The same report twice changes nothing the second time and says so; two reports at once are
 * decided one after the other (the second's compare-and-set finds the first's status and is decided
 * again).
 */

export type PaymentReport = (
  { attemptId: string } | { provider: ProviderName; providerReference: string }
) & {
  status: ReportedStatus;
  /** The total the source says was paid, in cents; null when it does not say (the owner: ours). */
  amountCents: number | null;
  /** As the provider writes it (`eur`); null when it does not say. */
  currency: string | null;
  paymentReference: string | null;
  source: StatusSource;
  /** How the owner was paid (« Marquer payé »). */
  means?: OfflineMeans;
  /**
   * The owner accepts a held payment (« Accepter ce paiement », decision 0172; source `owner`): applied as
   * paid with the amount the provider said it took.
   */
  acceptHeld?: boolean;
};

export type PaymentOutcome = {
  /**
   * `applied`: the report changed the attempt (and its order); `already_applied`: it had already;
   * `held`: the total or currency differs from ours (nothing applied, the owner told); `late`: paid after
   * the order expired (applied, `late_payment`); `duplicate`: the order was already paid by another
   * attempt (recorded for a refund; the kind's onPaid not run again); `ignored`: the attempt is final and
   * this report cannot change it (`expired` after `succeeded`); `unknown_attempt`: no attempt has this
   * reference (yet).
   */
  outcome:
    "applied" | "already_applied" | "held" | "late" | "duplicate" | "ignored" | "unknown_attempt";
  attemptId: string | null;
  orderId: string | null;
  attemptStatus: AttemptStatus | null;
  orderStatus: OrderStatus | null;
  /**
   * Paid, but what it paid for is gone (a gallery's photos no longer due, a deposit's booking cancelled):
   * the order's kind gives the money back at once, a refund on its way.
   */
  givenBack?: true;
};

/** A compare-and-set found another status than the one read: the report is decided again. */
class Raced extends Error {}

const ROUNDS = 10;

/**
 * Applies `report` in one transaction; `alongside`, when given, runs in the same transaction once the
 * report is decided (the webhook's job marks its stored event processed there: both commit together).
 */
export async function applyPaymentStatus(
  report: PaymentReport,
  {
    database = db(),
    alongside,
  }: {
    database?: Database;
    alongside?: (tx: Tx, outcome: PaymentOutcome) => Promise<void>;
  } = {},
): Promise<PaymentOutcome> {
  for (let round = 1; ; round++) {
    try {
      return await database.transaction(async (tx) => {
        const outcome = await applyOnce(tx, report);
        await alongside?.(tx, outcome);
        return outcome;
      });
    } catch (error) {
      if (!(error instanceof Raced) || round >= ROUNDS) throw error;
    }
  }
}

/** The journal's `method` of a payment: how the money came. */
function journalMethod(provider: ProviderName, orderMethod: string, means: OfflineMeans | null) {
  if (means) return means;
  if (provider === "stripe") return "card";
  return orderMethod;
}

/** A report about no attempt of ours (another site's checkout on the same account, a forged reference). */
export const UNKNOWN_ATTEMPT: PaymentOutcome = {
  outcome: "unknown_attempt",
  attemptId: null,
  orderId: null,
  attemptStatus: null,
  orderStatus: null,
};

/**
 * Whether the order's window (`pay_by`) goes on past this attempt's end and past now: an accepted
 * request's deposit gives hours to pay, a checkout 30 minutes (decision 0186). An order whose window is its
 * checkout's (a voucher's, or the last checkout's) ends with it.
 */
function outlasts(payBy: Date | null, attemptEnds: Date | null, at: Date): boolean {
  return payBy !== null && attemptEnds !== null && payBy > attemptEnds && payBy > at;
}

async function applyOnce(tx: Tx, report: PaymentReport): Promise<PaymentOutcome> {
  // With the attempt and its order, in the same read: whether another attempt of the order is open, and
  // whether the journal already holds this attempt's payment (a restore that rewound its order kept it
  // there, decision 0207 amended). Read before the compare-and-set below, which any other report of this
  // attempt must pass first: one that committed since makes it fail, and the report is decided again.
  const [found] = await tx
    .select({
      attempt: paymentAttempts,
      order: orders,
      otherOpen: sql<boolean>`exists (select 1 from payment_attempts other
        where other.order_id = ${orders.id} and other.status = 'open'
          and other.id <> ${paymentAttempts.id})`,
      journaled: sql<boolean>`exists (select 1 from money_journal journal
        where journal.order_id = ${orders.id} and journal.attempt_id = ${paymentAttempts.id}
          and journal.kind = 'payment')`,
    })
    .from(paymentAttempts)
    .innerJoin(orders, eq(orders.id, paymentAttempts.orderId))
    .where(
      "attemptId" in report
        ? eq(paymentAttempts.id, report.attemptId)
        : and(
            eq(paymentAttempts.provider, report.provider),
            eq(paymentAttempts.providerReference, report.providerReference),
          ),
    );
  if (!found) return UNKNOWN_ATTEMPT;
  const { attempt, order, otherOpen, journaled } = found;
  const amountDiffers = report.amountCents !== null && report.amountCents !== attempt.amountCents;
  const currencyDiffers =
    report.currency !== null && report.currency.toUpperCase() !== order.currency;
  const at = now();
  const decision = decidePayment({
    attempt: attempt.status,
    order: order.status,
    report: report.status,
    amountMatches: !amountDiffers && !currencyDiffers,
    otherOpenAttempt: otherOpen,
    windowStillOpen: outlasts(order.payBy, attempt.expiresAt, at),
    ownerAcceptsHeld: report.acceptHeld === true && report.source === "owner",
  });
  const unchanged = (outcome: "already_applied" | "ignored"): PaymentOutcome => ({
    outcome,
    attemptId: attempt.id,
    orderId: order.id,
    attemptStatus: attempt.status,
    orderStatus: order.status,
  });
  if (decision.outcome === "already_applied" || decision.outcome === "ignored") {
    return unchanged(decision.outcome);
  }

  if (decision.outcome === "held") {
    const reasons = [
      amountDiffers && report.amountCents !== null
        ? `un montant de ${formatCents(report.amountCents)} au lieu de ${formatCents(attempt.amountCents)}`
        : null,
      currencyDiffers
        ? `la devise ${report.currency?.toUpperCase()} au lieu de ${order.currency}`
        : null,
    ].filter(Boolean);
    await compareAndSetAttempt(tx, attempt.id, decision.attemptFrom, {
      status: "held",
      heldReason: reasons.join(" et "),
      // What the provider took: what the owner may accept or give back (decision 0172).
      heldAmountCents: report.amountCents,
      heldCurrency: report.currency?.toUpperCase() ?? null,
      paymentReference: report.paymentReference ?? attempt.paymentReference,
      updatedAt: at,
    });
    await queueOwnerPaymentMail(
      { orderId: order.id, attemptId: attempt.id, event: "held" },
      { tx },
    );
    log.warn("payment_held", { orderId: order.id, attemptId: attempt.id, source: report.source });
    return {
      outcome: "held",
      attemptId: attempt.id,
      orderId: order.id,
      attemptStatus: "held",
      orderStatus: order.status,
    };
  }

  const succeeded = decision.attemptTo === "succeeded";
  const means = report.means ?? attempt.means ?? null;
  // A held payment the owner accepts counts for what the provider took, not for our order's total.
  const received =
    attempt.status === "held"
      ? (attempt.heldAmountCents ?? attempt.amountCents)
      : attempt.amountCents;
  await compareAndSetAttempt(tx, attempt.id, decision.attemptFrom, {
    status: decision.attemptTo,
    amountCents: received,
    paymentReference: report.paymentReference ?? attempt.paymentReference,
    means,
    ...(succeeded ? { succeededAt: at } : {}),
    ...(decision.outcome === "duplicate" ? { duplicate: true } : {}),
    updatedAt: at,
  });

  let updatedOrder = order;
  if (decision.orderFrom && decision.orderTo) {
    const releases = decision.orderTo === "expired";
    const [changed] = await tx
      .update(orders)
      .set({
        status: decision.orderTo,
        updatedAt: at,
        ...(decision.orderTo === "paid" ? { paidAt: at } : {}),
        ...(decision.outcome === "late" ? { latePayment: true } : {}),
      })
      .where(
        and(
          eq(orders.id, order.id),
          inArray(orders.status, [...decision.orderFrom]),
          // An order is released only while no other attempt of it is open (one may have started since).
          releases
            ? sql`not exists (select 1 from payment_attempts other
                  where other.order_id = ${order.id} and other.status = 'open'
                    and other.id <> ${attempt.id})`
            : undefined,
        ),
      )
      .returning();
    if (!changed) throw new Raced();
    updatedOrder = changed;
  }

  // A payment already in the journal for this attempt was kept there by a restore that rewound its order
  // (decision 0207, amended): applied again, it is recorded once.
  if (succeeded && !journaled) {
    await appendJournal(tx, {
      kind: "payment",
      orderId: order.id,
      attemptId: attempt.id,
      amountCents: received,
      method: journalMethod(attempt.provider, order.method, means),
      providerReference:
        report.paymentReference ?? attempt.paymentReference ?? attempt.providerReference,
      details: {
        source: report.source,
        ...(decision.outcome === "late" ? { late: true } : {}),
        ...(decision.outcome === "duplicate" ? { duplicate: true } : {}),
        ...(attempt.status === "held" ? { acceptedHeld: true } : {}),
      },
    });
  }

  const effects = orderKindEffects(order.kind);
  let givenBack = false;
  if (decision.orderTo === "paid") {
    const paid = await effects.onPaid(tx, updatedOrder, {
      attemptId: attempt.id,
      late: decision.outcome === "late",
      source: report.source,
    });
    // Its invoice in the same transaction (decision 0181), after the payment's journal row it quotes; a
    // payment given back at once gets its credit note with the refund.
    await invoicePaidOrder(tx, updatedOrder);
    if (paid === "given_back") givenBack = true;
    else await queueBuyerPaymentMail({ orderId: order.id, event: "paid" }, { tx });
  }
  if (decision.orderTo === "expired") await announceRelease(tx, updatedOrder);
  if (decision.outcome === "late" || decision.outcome === "duplicate") {
    await queueOwnerPaymentMail(
      { orderId: order.id, attemptId: attempt.id, event: decision.outcome },
      { tx },
    );
  }
  log.info("payment_status_applied", {
    orderId: order.id,
    attemptId: attempt.id,
    status: decision.attemptTo,
    outcome: decision.outcome,
    source: report.source,
  });
  return {
    outcome: decision.outcome,
    attemptId: attempt.id,
    orderId: order.id,
    attemptStatus: decision.attemptTo,
    orderStatus: updatedOrder.status,
    ...(givenBack ? { givenBack: true as const } : {}),
  };
}

async function compareAndSetAttempt(
  tx: Tx,
  attemptId: string,
  from: readonly AttemptStatus[],
  values: Partial<typeof paymentAttempts.$inferInsert>,
): Promise<void> {
  const [changed] = await tx
    .update(paymentAttempts)
    .set(values)
    .where(and(eq(paymentAttempts.id, attemptId), inArray(paymentAttempts.status, [...from])))
    .returning({ id: paymentAttempts.id });
  if (!changed) throw new Raced();
}
