import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { refundedOfPrice } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import type { VoucherRefundHold } from "~/lib/vouchers/refund-note";
import { generateVoucherCode } from "~/lib/vouchers/code";
import { deliveryInstant } from "~/lib/vouchers/delivery";
import { voucherExpiryDay } from "~/lib/vouchers/terms";
import { now } from "../clock.server";
import { paymentsSchema } from "~/content/schemas";
import { moneyJournal, siteDocuments, vouchers } from "../db/schema";
import { appendJournal, type Tx } from "../payments/journal.server";
import { defineOrderKind, type OrderRecord } from "../payments/order-kinds.server";
import { PaymentRefusedError } from "../payments/refusals.server";
import { creditUsesRefunded } from "../invoices/voucher-uses.server";
import { cancelWaitingVoucherDelivery, queueVoucherDeliveryMail } from "./emails.server";

/*
 * What a voucher order does when its payment lands, is released unpaid or is refunded (decision 0167),
 * inside the payments core's transaction: issued (a code, active, its last day, the journal's
 * `voucher_issue`, its delivery queued for now or for its day at 9:00 Paris), cancelled unpaid, cancelled
 * with a `voucher_cancellation` row of its balance when refunded in full, an amount's balance lowered by a
 * partial refund with its row.
 */

/** The reason of the `voucher_cancellation` rows of part of a voucher, lowered by a partial refund. */
export const PARTIAL_REFUND = "partial_refund";

type PgErrorFields = { code?: string; constraint?: string };
const pgFields = (error: unknown): PgErrorFields => {
  if (typeof error !== "object" || error === null) return {};
  const own = error as PgErrorFields & { cause?: unknown };
  if (own.code) return own;
  return typeof own.cause === "object" && own.cause !== null ? (own.cause as PgErrorFields) : {};
};

/**
 * Issues the voucher of a paid order: its code (drawn again on the rare clash), active, its last day
 * (its validity from the payment, or from its delivery day when that is later).
 */
export async function issueVoucher(
  tx: Tx,
  orderId: string,
  validityMonths: number,
  newCode: () => string = generateVoucherCode,
) {
  const at = now();
  // Its validity counts from the day it is sent when the buyer chose a later one (decision 0167).
  const [pending] = await tx
    .select({ deliveryDay: vouchers.deliveryDay })
    .from(vouchers)
    .where(eq(vouchers.orderId, orderId));
  const expiresOn = voucherExpiryDay(at, validityMonths, pending?.deliveryDay ?? null);
  for (let draw = 1; ; draw++) {
    try {
      // In a savepoint: a code already taken rolls back this update only and draws another.
      const issued = await tx.transaction(async (savepoint) => {
        const [row] = await savepoint
          .update(vouchers)
          .set({
            code: newCode(),
            status: "active",
            issuedAt: at,
            expiresOn,
            cancelledAt: null,
            updatedAt: at,
          })
          // Never issued before (a late payment reactivates one released unpaid, never one refunded).
          .where(
            and(
              eq(vouchers.orderId, orderId),
              inArray(vouchers.status, ["awaiting_payment", "cancelled"]),
              isNull(vouchers.code),
            ),
          )
          .returning();
        return row ?? null;
      });
      return issued;
    } catch (error) {
      const { code, constraint } = pgFields(error);
      if (code !== "23505" || constraint !== "vouchers_code_unique" || draw >= 10) throw error;
    }
  }
}

/**
 * The validity in months the buyer accepted: her order's terms as snapshotted (« valable 12 mois »), which
 * the owner's later change of the setting does not alter for an order still to be paid. A snapshot without
 * it takes the owner's setting, read with the payment's own transaction:
 * another connection from inside it could wait for a pool that concurrent payments hold (13 reports at
 * once).
 */
async function validityMonths(tx: Tx, order: Pick<OrderRecord, "rulesSnapshot">): Promise<number> {
  const snapshot = order.rulesSnapshot as { validityMonths?: unknown } | null;
  const accepted = snapshot?.validityMonths;
  if (typeof accepted === "number" && Number.isInteger(accepted) && accepted > 0) return accepted;
  const [row] = await tx
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "payments"));
  const parsed = paymentsSchema.safeParse(row?.data ?? {});
  return parsed.success
    ? parsed.data.voucherValidityMonths
    : paymentsSchema.parse({}).voucherValidityMonths;
}

export const voucherOrderKind = defineOrderKind("voucher", {
  onPaid: async (tx, order, { attemptId }) => {
    const voucher = await issueVoucher(tx, order.id, await validityMonths(tx, order));
    if (!voucher) return;
    await appendJournal(tx, {
      kind: "voucher_issue",
      orderId: order.id,
      attemptId,
      voucherId: voucher.id,
      amountCents: voucher.valueCents,
      details: { code: voucher.code, kind: voucher.kind, expiresOn: voucher.expiresOn },
    });
    const startAfter = deliveryInstant(voucher.deliveryDay, now());
    await queueVoucherDeliveryMail(
      { voucherId: voucher.id },
      { tx, once: `voucher-delivery:${voucher.id}`, ...(startAfter ? { startAfter } : {}) },
    );
  },
  onReleased: async (tx, order) => {
    await tx
      .update(vouchers)
      .set({ status: "cancelled", cancelledAt: now(), updatedAt: now() })
      .where(and(eq(vouchers.orderId, order.id), eq(vouchers.status, "awaiting_payment")));
  },
  onRefunded: async (tx, order, { refundId, fullyRefunded, paidCents, refundedCents }) => {
    const takenCents = refundedOfPrice({ priceCents: order.amountCents, paidCents, refundedCents });
    const voucher = fullyRefunded
      ? await cancelIssuedVoucher(tx, order.id, { refundId, reason: "refund" })
      : await lowerVoucherBalance(tx, order.id, { refundId, takenCents });
    // Beyond what was left on it, the refund gives back money of uses already invoiced: their TVA too.
    const [issued] = voucher
      ? [voucher]
      : await tx.select().from(vouchers).where(eq(vouchers.orderId, order.id));
    if (issued) await creditUsesRefunded(tx, issued.id, keptOfPrice(order, paidCents, takenCents));
  },
  onRefundAsked: refuseRefundOfValueUsedMeanwhile,
});

/**
 * The owner confirmed a refund on her page's word: « le solde du bon (`shownCents`) baisse de ce que vous
 * remboursez » (decision 0167). A use of the amount voucher made since (the order's lock, which a use
 * takes first, is held here) lowered what is usable: when the refund would now lower the balance below
 * nothing, giving back money of what was spent (decision 0200), it is refused, in French, for her to
 * check the amount; within what is left, it goes on as she meant it.
 */
async function refuseRefundOfValueUsedMeanwhile(
  tx: Tx,
  order: OrderRecord,
  { amountCents, shownCents }: { amountCents: number; shownCents: number },
): Promise<void> {
  const [voucher] = await tx
    .select()
    .from(vouchers)
    .where(and(eq(vouchers.orderId, order.id), eq(vouchers.kind, "amount")));
  if (!voucher) return;
  const live = voucher.status === "active" || voucher.status === "expired";
  const balance = live ? voucher.balanceCents : 0;
  const held = live ? await voucherHeldByRefunds(tx, voucher, order) : null;
  const usable = held?.cancels ? 0 : Math.max(0, balance - (held?.heldCents ?? 0));
  if (usable >= shownCents) return;
  const { paid, done, onTheirWayCents } = await refundTotals(tx, order.id);
  const taken = refundedOfPrice({
    priceCents: order.amountCents,
    paidCents: paid,
    refundedCents: done + onTheirWayCents + amountCents,
  });
  if (taken - (await loweredByPartialRefunds(tx, voucher.id)) <= balance) return;
  throw new PaymentRefusedError(
    "voucher_used_meanwhile",
    `Le bon a servi entre-temps : il ne reste que ${formatCents(usable)} sur son solde, et non ${formatCents(shownCents)}. Au-delà, ce remboursement rendrait ce qui a déjà servi : vérifiez le montant, puis confirmez de nouveau.`,
  );
}

/**
 * What the studio keeps of a voucher's price once refunds took `takenCents` of it: the price, or what was
 * received when the owner accepted a payment of less (a held payment, decision 0172: the rest was never
 * hers to keep), less what was taken.
 */
export function keptOfPrice(order: { amountCents: number }, paidCents: number, takenCents: number) {
  return Math.max(0, Math.min(order.amountCents, paidCents) - takenCents);
}

/**
 * A part of an amount voucher's order refunded: its balance lowered by what the refunds took out of its
 * price (`takenCents`, all of them so far: what was paid beyond the price, a duplicate payment, is given
 * back first and leaves the voucher whole) less what earlier ones lowered it by, never below nothing (a
 * voucher used for 30 € of 100 € and refunded 80 € loses its 70 € left), with its `voucher_cancellation`
 * row of what it lost; cancelled once nothing is left. A session voucher is not divisible: a partial refund
 * leaves it whole, a goodwill gesture, as the refund form tells the owner (decision 0167). Null when
 * nothing changed.
 */
export async function lowerVoucherBalance(
  tx: Tx,
  orderId: string,
  refund: { refundId: string; takenCents: number },
) {
  const [current] = await tx
    .select()
    .from(vouchers)
    .where(
      and(
        eq(vouchers.orderId, orderId),
        eq(vouchers.kind, "amount"),
        inArray(vouchers.status, ["active", "expired"]),
      ),
    )
    .for("update");
  if (!current || current.balanceCents === 0) return null;
  const earlier = await loweredByPartialRefunds(tx, current.id);
  const lowered = Math.min(refund.takenCents - earlier, current.balanceCents);
  if (lowered <= 0) return null;
  const left = current.balanceCents - lowered;
  const at = now();
  const [voucher] = await tx
    .update(vouchers)
    .set({
      balanceCents: left,
      ...(left === 0 ? { status: "cancelled" as const, cancelledAt: at } : {}),
      updatedAt: at,
    })
    .where(eq(vouchers.id, current.id))
    .returning();
  if (!voucher) return null;
  if (voucher.status === "cancelled") await cancelWaitingVoucherDelivery(tx, voucher.id);
  await appendJournal(tx, {
    kind: "voucher_cancellation",
    orderId,
    refundId: refund.refundId,
    voucherId: voucher.id,
    amountCents: -lowered,
    details: { code: voucher.code, reason: PARTIAL_REFUND, balanceCents: left },
  });
  return voucher;
}

/**
 * An order's payments received and its refunds done and on their way, counted as completeRefund counts
 * them: refunds of payments that count for the order only.
 */
async function refundTotals(tx: Tx, orderId: string) {
  const totals = await tx.execute<{ paid: number; done: number; on_their_way: number }>(sql`
    select
      (select coalesce(sum(amount_cents), 0) from payment_attempts
        where order_id = ${orderId} and status = 'succeeded')::int as paid,
      (select coalesce(sum(r.amount_cents), 0) from refunds r
        join payment_attempts a on a.id = r.attempt_id and a.status = 'succeeded'
        where r.order_id = ${orderId} and r.status in ('succeeded', 'refunded_offline'))::int as done,
      (select coalesce(sum(r.amount_cents), 0) from refunds r
        join payment_attempts a on a.id = r.attempt_id and a.status = 'succeeded'
        where r.order_id = ${orderId} and r.status in ('pending', 'to_refund_offline'))::int
        as on_their_way`);
  const { paid = 0, done = 0, on_their_way: onTheirWayCents = 0 } = totals.rows[0] ?? {};
  return { paid, done, onTheirWayCents };
}

/**
 * What the refunds completed so far gave back of an amount voucher's price beyond what they took off its
 * balance: money returned for value the holder had already spent, such as a booking's deposit it paid
 * (decision 0199). When that use comes back, this much of it is not hers again.
 */
export async function refundedBeyondBalance(
  tx: Tx,
  voucher: { id: string },
  order: { id: string; amountCents: number },
): Promise<number> {
  const { paid, done } = await refundTotals(tx, order.id);
  const taken = refundedOfPrice({
    priceCents: order.amountCents,
    paidCents: paid,
    refundedCents: done,
  });
  return Math.max(0, taken - (await loweredByPartialRefunds(tx, voucher.id)));
}

/** What the partial refunds completed so far took off an amount voucher's balance. */
async function loweredByPartialRefunds(tx: Tx, voucherId: string): Promise<number> {
  const [earlier] = await tx
    .select({ cents: sql<number>`coalesce(-sum(${moneyJournal.amountCents}), 0)::int` })
    .from(moneyJournal)
    .where(
      and(
        eq(moneyJournal.voucherId, voucherId),
        eq(moneyJournal.kind, "voucher_cancellation"),
        sql`${moneyJournal.details} ->> 'reason' = ${PARTIAL_REFUND}`,
      ),
    );
  return earlier?.cents ?? 0;
}

/**
 * What the refunds of a voucher's order still on their way (`pending` at the provider, `to_refund_offline`
 * until the owner marks them given back) will take of it when they complete, by onRefunded's own rules:
 * the whole voucher when nothing paid will be left (`cancels`), else for an amount voucher what
 * lowerVoucherBalance will lower its balance by, for a session voucher nothing (a partial refund leaves it
 * whole). A redemption keeps that part out of reach, so that the client never has both the money and
 * what the voucher buys; the caller holds the order's row lock, as requestRefund and completeRefund do.
 */
export async function voucherHeldByRefunds(
  tx: Tx,
  voucher: Pick<typeof vouchers.$inferSelect, "id" | "kind" | "balanceCents">,
  order: { id: string; amountCents: number },
): Promise<VoucherRefundHold> {
  const { paid, done, onTheirWayCents } = await refundTotals(tx, order.id);
  if (onTheirWayCents === 0) return { onTheirWayCents, cancels: false, heldCents: 0 };
  const refundedCents = done + onTheirWayCents;
  if (refundedCents >= paid) {
    return { onTheirWayCents, cancels: true, heldCents: voucher.balanceCents };
  }
  if (voucher.kind !== "amount") return { onTheirWayCents, cancels: false, heldCents: 0 };
  const taken = refundedOfPrice({ priceCents: order.amountCents, paidCents: paid, refundedCents });
  const heldCents = Math.min(
    Math.max(0, taken - (await loweredByPartialRefunds(tx, voucher.id))),
    voucher.balanceCents,
  );
  return { onTheirWayCents, cancels: false, heldCents };
}

/** Cancels the order's voucher still usable (active), with its journal row; null when none was. */
export async function cancelIssuedVoucher(
  tx: Tx,
  orderId: string,
  details: { refundId?: string; reason: string },
) {
  const at = now();
  const [voucher] = await tx
    .update(vouchers)
    .set({ status: "cancelled", cancelledAt: at, updatedAt: at })
    .where(and(eq(vouchers.orderId, orderId), inArray(vouchers.status, ["active", "expired"])))
    .returning();
  if (!voucher) return null;
  await appendJournal(tx, {
    kind: "voucher_cancellation",
    orderId,
    refundId: details.refundId ?? null,
    voucherId: voucher.id,
    amountCents: -voucher.balanceCents,
    details: { code: voucher.code, reason: details.reason },
  });
  await cancelWaitingVoucherDelivery(tx, voucher.id);
  return voucher;
}
