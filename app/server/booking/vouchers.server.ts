import { and, eq, isNull, or, sql } from "drizzle-orm";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { db } from "../db/client.server";
import { voucherUses, vouchers } from "../db/schema";

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
