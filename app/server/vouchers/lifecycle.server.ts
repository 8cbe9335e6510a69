import { and, eq, gte, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { isIsoDay, isoDayInParis } from "~/lib/dates";
import {
  addCalendarDays,
  formatCalendarDayFr,
  isWithinWithdrawalPeriod,
  withdrawalLastDay,
} from "~/lib/vouchers/terms";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { orders, voucherExpiryChanges, voucherUses, vouchers } from "../db/schema";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";
import { appendJournal } from "../payments/journal.server";
import { requestRefund, type RefundRecord } from "../payments/orders.server";
import { queueVoucherReminderMail } from "./emails.server";
import type { VoucherRecord } from "./redemption.server";
import { VoucherRefusedError } from "./refusals.server";

/*
 * The end of a gift voucher's life (decision 0167): the buyer's withdrawal within 14 days while it is
 * unused (the whole price refunded, the voucher cancelled first so that no redemption can race it), its
 * expiry and the reminder 30 days before (a daily job), and the owner's extension.
 */

/** Days before its last day a voucher's holder is reminded. */
export const REMINDER_DAYS_BEFORE = 30;

/**
 * The buyer withdraws (« rétractation ») from a voucher's order: within the period (withdrawalLastDay) and
 * only while the voucher has not served. The voucher is cancelled by compare-and-set (a redemption at the
 * same moment finds it cancelled, or this finds it used), then the whole price is refunded: by card
 * through the provider, offline marked for the owner to give back.
 */
export async function withdrawVoucherOrder(orderId: string): Promise<RefundRecord> {
  const at = now();
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!order || order.kind !== "voucher") {
    throw new VoucherRefusedError("not_found", "Cette commande n'existe pas.", 404);
  }
  if (order.status !== "paid") {
    throw new VoucherRefusedError(
      "not_paid",
      "Cette commande n'est pas payée : il n'y a rien à rembourser.",
    );
  }
  if (!isWithinWithdrawalPeriod(order.createdAt, at)) {
    throw new VoucherRefusedError(
      "withdrawal_period_over",
      `Le délai de rétractation est passé : il courait jusqu'au ${formatCalendarDayFr(withdrawalLastDay(order.createdAt))}.`,
    );
  }
  const cancelled = await db().transaction(async (tx) => {
    const [voucher] = await tx
      .update(vouchers)
      .set({ status: "cancelled", cancelledAt: at, updatedAt: at })
      .where(
        and(
          eq(vouchers.orderId, orderId),
          eq(vouchers.status, "active"),
          eq(vouchers.balanceCents, vouchers.valueCents),
          sql`not exists (select 1 from ${voucherUses} where ${voucherUses.voucherId} = ${vouchers.id}
            and ${voucherUses.cancelledAt} is null)`,
        ),
      )
      .returning();
    if (!voucher) return null;
    await appendJournal(tx, {
      kind: "voucher_cancellation",
      orderId,
      voucherId: voucher.id,
      amountCents: -voucher.balanceCents,
      details: { code: voucher.code, reason: "withdrawal" },
    });
    return voucher;
  });
  if (!cancelled) {
    throw new VoucherRefusedError(
      "already_used",
      "Ce bon a déjà servi (ou n'est plus valable) : la commande ne peut plus être annulée.",
    );
  }
  return requestRefund(orderId, order.amountCents, "Rétractation de l'acheteur");
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
 * in the same transaction as its e-mail job); returns how many.
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
