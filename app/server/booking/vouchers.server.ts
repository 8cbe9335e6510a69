import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { db } from "../db/client.server";
import { orders, voucherUses, vouchers } from "../db/schema";

/*
 * The booking side of session vouchers (decision 0170): whether the details form offers the code's field,
 * and the code that pays a booking, for its page and its e-mails.
 */

/**
 * Whether a session voucher could pay this session type at this studio today: an active one exists for
 * it (this studio or any). The field follows the vouchers in people's hands, not the shop's switch: a
 * voucher sold before the owner stopped selling stays valid for its 12 months.
 */
export async function sessionVouchersRedeemable(
  sessionTypeId: string,
  studioId: string,
): Promise<boolean> {
  const [row] = await db()
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(
      and(
        eq(vouchers.kind, "session"),
        eq(vouchers.status, "active"),
        eq(vouchers.sessionTypeId, sessionTypeId),
        or(isNull(vouchers.studioId), eq(vouchers.studioId, studioId)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The code (« 7K3Q-M2XD-9PTX ») of the voucher paying this booking, null when none or given back. */
export async function voucherCodeOfBooking(bookingId: string): Promise<string | null> {
  const [row] = await db()
    .select({ code: vouchers.code })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .where(
      and(
        eq(voucherUses.bookingId, bookingId),
        isNull(voucherUses.cancelledAt),
        sql`${vouchers.code} is not null`,
      ),
    )
    .limit(1);
  return row?.code ? formatVoucherCode(row.code) : null;
}

/** What the booking's page and e-mails say of its payment by voucher. */
export const paidByVoucherLine = (code: string) => `Réglée par bon cadeau ${code}`;

/**
 * What the booking's admin page says of the voucher that pays it, or paid it: « Réglée par bon cadeau … »
 * while its use stands, with a warning once its order was refunded in full (cancelled in time, the booking
 * will not give it back); after a cancellation, that it did not come back when its order was refunded.
 * Null when none, or given back as usual.
 */
export async function voucherLineForOwner(bookingId: string): Promise<string | null> {
  const [row] = await db()
    .select({
      code: vouchers.code,
      voucherStatus: vouchers.status,
      orderStatus: orders.status,
      givenBackAt: voucherUses.cancelledAt,
    })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .where(eq(voucherUses.bookingId, bookingId))
    .orderBy(desc(voucherUses.at))
    .limit(1);
  if (!row?.code) return null;
  const code = formatVoucherCode(row.code);
  const refunded = row.orderStatus === "refunded";
  if (row.givenBackAt === null) {
    return refunded
      ? `${paidByVoucherLine(code)}, dont la commande a été remboursée en entier : si cette séance est annulée, le bon ne redeviendra pas utilisable.`
      : paidByVoucherLine(code);
  }
  return refunded && row.voucherStatus === "cancelled"
    ? `Le bon cadeau ${code} qui réglait cette séance est annulé : sa commande a été remboursée en entier.`
    : null;
}
