import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import { isIsoDay, isoDayInParis } from "~/lib/dates";
import {
  addCalendarDays,
  formatCalendarDayFr,
  isWithinWithdrawalPeriod,
  VOUCHER_WITHDRAWAL_DAYS,
  withdrawalLastDay,
} from "~/lib/vouchers/terms";
import { now } from "../clock.server";
import { db, type Database } from "../db/client.server";
import { moneyJournal, orders, voucherExpiryChanges, voucherUses, vouchers } from "../db/schema";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";
import { queueOwnerPaymentMail } from "../payments/emails.server";
import { appendJournal, type Tx } from "../payments/journal.server";
import type { OrderRecord } from "../payments/order-kinds.server";
import {
  insertRefund,
  lockOrder,
  refundablePayments,
  sendRefundAsked,
  type RefundRecord,
} from "../payments/orders.server";
import { cancelWaitingVoucherDelivery, queueVoucherReminderMail } from "./emails.server";
import type { VoucherRecord } from "./redemption.server";
import { VoucherRefusedError } from "./refusals.server";

/*
 * The end of a gift voucher's life (decision 0167): the buyer's withdrawal within 14 days while it is
 * unused (what is still paid refunded, in the transaction that cancels the voucher), its
 * expiry and the reminder 30 days before (a daily job), and the owner's extension.
 */

/** Days before its last day a voucher's holder is reminded. */
export const REMINDER_DAYS_BEFORE = 30;

type RefundablePayment = Awaited<ReturnType<typeof refundablePayments>>[number];

/** What a withdrawal gives back now: each payment for what is left of it (null: nothing left). */
async function withdrawalPayments(tx: Tx | Database, orderId: string) {
  const payments = await refundablePayments(tx, orderId);
  const leftCents = payments.reduce((sum, { leftCents }) => sum + leftCents, 0);
  return leftCents > 0 ? { payments, leftCents } : null;
}

/** The reason a withdrawal's refunds read. */
export const WITHDRAWAL_REASON = "Rétractation de l'acheteur";

/** What the owner's « Remboursement à faire » e-mail says happened, after the buyer's name. */
const WITHDRAWAL_OWNER_WORDS = `a annulé sa commande dans le délai de rétractation de ${VOUCHER_WITHDRAWAL_DAYS} jours : le bon cadeau est annulé et ne peut plus servir.`;

/** The reason of the `voucher_cancellation` row a withdrawal writes: the journal's mark that it happened. */
const WITHDRAWAL_JOURNAL_REASON = "withdrawal";

/** Whether the buyer has withdrawn from this order (its `voucher_cancellation` row of a withdrawal). */
async function withdrawnAlready(tx: Tx | Database, orderId: string): Promise<boolean> {
  const [row] = await tx
    .select({ seq: moneyJournal.seq })
    .from(moneyJournal)
    .where(
      and(
        eq(moneyJournal.orderId, orderId),
        eq(moneyJournal.kind, "voucher_cancellation"),
        sql`${moneyJournal.details} ->> 'reason' = ${WITHDRAWAL_JOURNAL_REASON}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

const nothingToRefund = () =>
  new VoucherRefusedError(
    "nothing_to_refund",
    "Le prix de cette commande vous a déjà été remboursé, ou son remboursement est en cours : il n'y a plus rien à rembourser.",
  );

/**
 * What the buyer's page offers her to withdraw now: what she would get back (what was paid minus what is
 * refunded or on its way back, an earlier goodwill refund taken off). Null when she may not: not paid,
 * the voucher not usable or already served, the period over, nothing left to give back.
 */
export async function withdrawalOffer(
  order: Pick<OrderRecord, "id" | "status" | "createdAt">,
  voucher: Pick<VoucherRecord, "id" | "status"> | null,
  at: Date = now(),
): Promise<{ refundCents: number } | null> {
  if (order.status !== "paid" || voucher?.status !== "active") return null;
  if (!isWithinWithdrawalPeriod(order.createdAt, at)) return null;
  const [served] = await db()
    .select({ id: voucherUses.id })
    .from(voucherUses)
    .where(and(eq(voucherUses.voucherId, voucher.id), isNull(voucherUses.cancelledAt)))
    .limit(1);
  if (served) return null;
  const left = await withdrawalPayments(db(), order.id);
  return left ? { refundCents: left.leftCents } : null;
}

/**
 * The buyer withdraws (« rétractation ») from a voucher's order: within the period (withdrawalLastDay) and
 * only while the voucher has not served. Under the order's lock (refunds serialise on it), in one
 * transaction: the voucher cancelled by compare-and-set (a redemption at the same moment finds it
 * cancelled, or this finds it served), its `voucher_cancellation` row of its balance, and the refund of
 * what is still paid (what an earlier refund gave back taken off), each payment for what is left of it: a
 * voucher is never cancelled without its refund asked, nor a refund asked for a voucher that served. Then a
 * card's refund is sent to the provider (its key refunds once; one that gets no answer is asked again by
 * the reconciliation, decision 0171); an offline one waits for the owner (`to_refund_offline`). Asked again
 * once withdrawn (a double click, a resubmitted form, a second tab), nothing more is done and no refund
 * returned: the buyer is answered as the first time.
 */
export async function withdrawVoucherOrder(orderId: string): Promise<RefundRecord[]> {
  const at = now();
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!order || order.kind !== "voucher") {
    throw new VoucherRefusedError("not_found", "Cette commande n'existe pas.", 404);
  }
  if (await withdrawnAlready(db(), orderId)) return [];
  // An order refunded in full by the owner was paid: never told it was not.
  const notPaid = (status: OrderRecord["status"]) =>
    status === "refunded"
      ? nothingToRefund()
      : new VoucherRefusedError(
          "not_paid",
          "Cette commande n'est pas payée : il n'y a rien à rembourser.",
        );
  if (order.status !== "paid") throw notPaid(order.status);
  if (!isWithinWithdrawalPeriod(order.createdAt, at)) {
    throw new VoucherRefusedError(
      "withdrawal_period_over",
      `Le délai de rétractation est passé : il courait jusqu'au ${formatCalendarDayFr(withdrawalLastDay(order.createdAt))}.`,
    );
  }
  const asked = await db().transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    // The same withdrawal posted twice at once: the second waited for the first's lock.
    if (await withdrawnAlready(tx, orderId)) return null;
    if (locked.status !== "paid") throw notPaid(locked.status);
    const left = await withdrawalPayments(tx, orderId);
    if (!left) throw nothingToRefund();
    const [current] = await tx.select().from(vouchers).where(eq(vouchers.orderId, orderId));
    // The balance read under the order's lock: an amount used since (its row changed) no longer matches,
    // which the re-check of a row updated concurrently sees where a subquery on its uses would not.
    const [voucher] = current
      ? await tx
          .update(vouchers)
          .set({ status: "cancelled", cancelledAt: at, updatedAt: at })
          .where(
            and(
              eq(vouchers.id, current.id),
              eq(vouchers.status, "active"),
              eq(vouchers.balanceCents, current.balanceCents),
              sql`not exists (select 1 from ${voucherUses} where ${voucherUses.voucherId} = ${vouchers.id}
                and ${voucherUses.cancelledAt} is null)`,
            ),
          )
          .returning()
      : [];
    if (!voucher) {
      throw new VoucherRefusedError(
        "already_used",
        "Ce bon a déjà servi (ou n'est plus valable) : la commande ne peut plus être annulée.",
      );
    }
    await cancelWaitingVoucherDelivery(tx, voucher.id);
    const made: { refund: RefundRecord; attempt: RefundablePayment["attempt"] }[] = [];
    for (const { attempt, leftCents } of left.payments) {
      made.push({ refund: await insertRefund(tx, attempt, leftCents, WITHDRAWAL_REASON), attempt });
    }
    await appendJournal(tx, {
      kind: "voucher_cancellation",
      orderId,
      refundId: made[0]?.refund.id ?? null,
      voucherId: voucher.id,
      amountCents: -voucher.balanceCents,
      details: { code: voucher.code, reason: WITHDRAWAL_JOURNAL_REASON },
    });
    // Paid by transfer or at the studio: only the owner can give it back, and nothing else tells her.
    const byHand = made.filter(({ refund }) => refund.status === "to_refund_offline");
    if (byHand.length > 0) {
      await queueOwnerPaymentMail(
        {
          orderId,
          refundIds: byHand.map(({ refund }) => refund.id),
          why: WITHDRAWAL_OWNER_WORDS,
          event: "refund_to_make",
        },
        { tx, once: `refund-to-make:${orderId}` },
      );
    }
    return made;
  });
  if (!asked) return [];
  log.info("voucher_withdrawn", { orderId, refunds: asked.map(({ refund }) => refund.id) });
  const sent: RefundRecord[] = [];
  for (const { refund, attempt } of asked) sent.push(await sendRefundAsked(refund, attempt));
  return sent;
}
/** Marks the vouchers past their last day `expired`; returns how many. */
export async function expireVouchers(at: Date = now()): Promise<number> {
  const expired = await db()
    .update(vouchers)
    .set({ status: "expired", updatedAt: at })
    .where(and(eq(vouchers.status, "active"), lt(vouchers.expiresOn, isoDayInParis(at))))
    .returning({ id: vouchers.id });
  return expired.length;
}

/**
 * Queues the reminder of each active voucher whose last day is within 30 days, once (reminder_sent_at set
 * in the same transaction as its e-mail job); returns how many. Only a voucher delivered: one still waiting
 * for its day would give its code to the recipient before the gift (it is reminded once delivered).
 */
export async function remindExpiringVouchers(at: Date = now()): Promise<number> {
  const today = isoDayInParis(at);
  const due = await db()
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(
      and(
        eq(vouchers.status, "active"),
        isNull(vouchers.reminderSentAt),
        isNotNull(vouchers.deliveredAt),
        gte(vouchers.expiresOn, today),
        lte(vouchers.expiresOn, addCalendarDays(today, REMINDER_DAYS_BEFORE)),
      ),
    );
  let sent = 0;
  for (const { id } of due) {
    await db().transaction(async (tx) => {
      const [marked] = await tx
        .update(vouchers)
        .set({ reminderSentAt: at })
        .where(and(eq(vouchers.id, id), isNull(vouchers.reminderSentAt)))
        .returning({ id: vouchers.id });
      if (!marked) return;
      await queueVoucherReminderMail({ voucherId: id }, { tx, once: `voucher-reminder:${id}` });
      sent += 1;
    });
  }
  return sent;
}

/**
 * The owner extends a voucher to `newExpiry` (a later day, not past): an expired one becomes usable again,
 * and its holder will be reminded again before the new day. `by`: the administrator's user id (null: not
 * known). The change is recorded in `voucher_expiry_changes` in the same transaction, with the last day it
 * replaces: the accountant's file at a past day reads the last day that applied then (decision 0182).
 */
export async function extendVoucher(
  voucherId: string,
  newExpiry: string,
  by: string | null = null,
): Promise<VoucherRecord> {
  const at = now();
  if (!isIsoDay(newExpiry) || newExpiry < isoDayInParis(at)) {
    throw new VoucherRefusedError(
      "invalid_day",
      "Choisissez une date à venir pour la nouvelle fin de validité.",
      400,
    );
  }
  const extended = await db().transaction(async (tx) => {
    // Locked first, so that the last day read is the one this update replaces.
    const [before] = await tx
      .select({ expiresOn: vouchers.expiresOn })
      .from(vouchers)
      .where(eq(vouchers.id, voucherId))
      .for("update");
    const [voucher] = await tx
      .update(vouchers)
      .set({ expiresOn: newExpiry, status: "active", reminderSentAt: null, updatedAt: at })
      .where(
        and(
          eq(vouchers.id, voucherId),
          inArray(vouchers.status, ["active", "expired"]),
          lt(vouchers.expiresOn, newExpiry),
        ),
      )
      .returning();
    if (!voucher || !before?.expiresOn) return null;
    await tx.insert(voucherExpiryChanges).values({
      voucherId,
      previousExpiresOn: before.expiresOn,
      newExpiresOn: newExpiry,
      at,
      by,
    });
    return voucher;
  });
  if (extended) return extended;
  const [voucher] = await db().select().from(vouchers).where(eq(vouchers.id, voucherId));
  if (!voucher) throw new VoucherRefusedError("not_found", "Ce bon n'existe pas.", 404);
  if (voucher.status !== "active" && voucher.status !== "expired") {
    throw new VoucherRefusedError(
      "not_active",
      voucher.status === "used"
        ? "Ce bon a déjà été utilisé : il n'y a rien à prolonger."
        : voucher.status === "cancelled"
          ? "Ce bon est annulé : il ne peut pas être prolongé."
          : "Ce bon n'est pas encore payé.",
    );
  }
  throw new VoucherRefusedError(
    "invalid_day",
    `Choisissez une date après sa fin actuelle (${formatCalendarDayFr(voucher.expiresOn ?? "")}).`,
    400,
  );
}

/**
 * The queue `vouchers.expiry`: at 09:30 Paris time (the reminders leave at a decent hour), the vouchers past their last day marked expired and
 * the reminders of those ending within 30 days queued. `singleton`, once across servers; `missed: once`.
 */
export const voucherExpiryJob = defineJob({
  name: "vouchers.expiry",
  policy: {
    retryLimit: 5,
    retryDelay: 5 * 60,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "30 9 * * *", tz: "Europe/Paris", missed: "once" },
  handler: async () => {
    const expired = await expireVouchers();
    const reminded = await remindExpiringVouchers();
    if (expired + reminded > 0) log.info("vouchers_expiry", { expired, reminded });
  },
});
