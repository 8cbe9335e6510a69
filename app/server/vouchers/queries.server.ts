import { and, desc, eq, isNull, lt, or, type SQL } from "drizzle-orm";
import { isoDayInParis } from "~/lib/dates";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import type { VoucherRefundHold } from "~/lib/vouchers/refund-note";
import { orders, vouchers, type VoucherStatus } from "../db/schema";
import { voucherPdfFilename, voucherPdfOf } from "./emails.server";
import { cancelIssuedVoucher, voucherHeldByRefunds } from "./order-kind.server";
import { VoucherRefusedError } from "./refusals.server";
import type { VoucherRecord } from "./redemption.server";

/*
 * What the order's page and the admin read of gift vouchers (decision 0167): a voucher by its order, its
 * PDF, the list newest first, the day's deliveries, and the owner's cancellation.
 */

/** The voucher of an order; null for none (another kind of order). */
export async function voucherOfOrder(orderId: string): Promise<VoucherRecord | null> {
  const [voucher] = await db().select().from(vouchers).where(eq(vouchers.orderId, orderId));
  return voucher ?? null;
}

/** An issued voucher's PDF for its order's page; null before it is issued or once cancelled. */
export async function voucherPdfForOrder(
  orderId: string,
): Promise<{ filename: string; bytes: Uint8Array } | null> {
  const voucher = await voucherOfOrder(orderId);
  if (!voucher?.code || voucher.status === "cancelled" || voucher.status === "awaiting_payment") {
    return null;
  }
  return { filename: voucherPdfFilename(voucher.code), bytes: await voucherPdfOf(voucher) };
}

/**
 * What the refunds of an order still on their way will take of its voucher (the refund form's note, the
 * owner's list); null when it has no voucher or nothing is on its way.
 */
export async function voucherRefundHold(orderId: string): Promise<VoucherRefundHold | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({ voucher: vouchers, amountCents: orders.amountCents })
      .from(vouchers)
      .innerJoin(orders, eq(orders.id, vouchers.orderId))
      .where(eq(vouchers.orderId, orderId));
    if (!row) return null;
    const hold = await voucherHeldByRefunds(tx, row.voucher, {
      id: orderId,
      amountCents: row.amountCents,
    });
    return hold.onTheirWayCents > 0 ? hold : null;
  });
}

export type VoucherCursor = { createdAt: Date; id: string };

/** Vouchers newest first, `limit` at a time after `after` (the last of the previous page), by status. */
export async function listVouchers({
  status,
  limit = 50,
  after,
}: { status?: VoucherStatus; limit?: number; after?: VoucherCursor } = {}): Promise<
  VoucherRecord[]
> {
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(vouchers.status, status));
  if (after) {
    const older = or(
      lt(vouchers.createdAt, after.createdAt),
      and(eq(vouchers.createdAt, after.createdAt), lt(vouchers.id, after.id)),
    );
    if (older) conditions.push(older);
  }
  return db()
    .select()
    .from(vouchers)
    .where(and(...conditions))
    .orderBy(desc(vouchers.createdAt), desc(vouchers.id))
    .limit(Math.min(Math.max(limit, 1), 200));
}

/** Active vouchers still to deliver on `day` (Paris; today by default): the dashboard's count. */
export async function vouchersToDeliver(day: string = isoDayInParis(now())) {
  return db()
    .select()
    .from(vouchers)
    .where(
      and(
        eq(vouchers.status, "active"),
        isNull(vouchers.deliveredAt),
        eq(vouchers.deliveryDay, day),
      ),
    );
}

/**
 * The owner cancels a voucher still usable (active or expired), with its journal row; its money is
 * refunded, or not, from the order (« Rembourser »).
 */
export async function cancelVoucher(voucherId: string, reason: string): Promise<VoucherRecord> {
  const voucher = await db().transaction(async (tx) => {
    const [row] = await tx.select().from(vouchers).where(eq(vouchers.id, voucherId));
    if (!row) throw new VoucherRefusedError("not_found", "Ce bon n'existe pas.", 404);
    return cancelIssuedVoucher(tx, row.orderId, { reason: reason.trim() || "owner" });
  });
  if (!voucher) {
    throw new VoucherRefusedError(
      "not_active",
      "Ce bon n'est plus utilisable (utilisé, annulé ou pas encore payé) : rien à annuler.",
    );
  }
  return voucher;
}
