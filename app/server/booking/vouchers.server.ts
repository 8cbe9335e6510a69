import { and, desc, eq, isNotNull, isNull, or } from "drizzle-orm";
import { DEPOSIT_NATURE_LABELS, type DepositNature } from "~/lib/booking/deposit";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { db } from "../db/client.server";
import { bookings, orders, voucherUses, vouchers } from "../db/schema";

/*
 * The booking side of vouchers (decisions 0170 and 0199): whether the details form offers the code's
 * field, and the voucher that pays a booking (a session, or an amount its deposit), for its pages and
 * e-mails.
 */

/**
 * Whether a voucher could pay this session type at this studio today: an active session voucher for it
 * (this studio or any), or, when the booking asks a deposit, any active amount voucher (it pays the
 * deposit, decision 0199). The field follows the vouchers in people's hands, not the shop's switch: a
 * voucher sold before the owner stopped selling stays valid for its 12 months.
 */
export async function vouchersRedeemable(
  sessionTypeId: string,
  studioId: string,
  depositAsked: boolean,
): Promise<boolean> {
  const session = and(
    eq(vouchers.kind, "session"),
    eq(vouchers.sessionTypeId, sessionTypeId),
    or(isNull(vouchers.studioId), eq(vouchers.studioId, studioId)),
  );
  const [row] = await db()
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(
      and(
        eq(vouchers.status, "active"),
        depositAsked ? or(session, eq(vouchers.kind, "amount")) : session,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The voucher paying a booking: a session voucher the session, an amount voucher its deposit. */
export type VoucherPayment = {
  /** Formatted: « 7K3Q-M2XD-9PTX ». */
  code: string;
  kind: "session" | "amount";
  amountCents: number;
  /** The deposit's word an amount voucher paid (the booking's rules); null for a session voucher. */
  nature: DepositNature | null;
};

/** The booking's last use of a voucher standing (or given back, `givenBack`), as a payment; null else. */
async function voucherUseOfBooking(
  bookingId: string,
  givenBack: boolean,
): Promise<VoucherPayment | null> {
  const [row] = await db()
    .select({
      code: vouchers.code,
      kind: vouchers.kind,
      amountCents: voucherUses.amountCents,
      rules: bookings.depositRules,
    })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .innerJoin(bookings, eq(bookings.id, voucherUses.bookingId))
    .where(
      and(
        eq(voucherUses.bookingId, bookingId),
        givenBack ? isNotNull(voucherUses.cancelledAt) : isNull(voucherUses.cancelledAt),
        isNotNull(vouchers.code),
      ),
    )
    .orderBy(desc(voucherUses.at))
    .limit(1);
  return row?.code ? paymentOf({ ...row, code: row.code }) : null;
}

/** A use of a voucher by a booking (its voucher's code, kind, the sum, the booking's rules), as a payment. */
function paymentOf(row: {
  code: string;
  kind: VoucherPayment["kind"];
  amountCents: number;
  rules: { nature: DepositNature } | null;
}): VoucherPayment {
  return {
    code: formatVoucherCode(row.code),
    kind: row.kind,
    amountCents: row.amountCents,
    nature: row.kind === "amount" ? (row.rules?.nature ?? "acompte") : null,
  };
}

/** The voucher paying this booking, null when none or given back. */
export const voucherPaymentOfBooking = (bookingId: string) => voucherUseOfBooking(bookingId, false);

/** The deposit an amount voucher paid for this booking and got back (its last use given back); null else. */
export async function givenBackVoucherDeposit(bookingId: string): Promise<VoucherPayment | null> {
  const back = await voucherUseOfBooking(bookingId, true);
  return back?.kind === "amount" ? back : null;
}

/**
 * What the booking's page and e-mails say of its payment by voucher: « Réglée par bon cadeau … » for a
 * session voucher, « Arrhes de 30 € réglées par le bon cadeau … » for an amount voucher's deposit.
 */
export function paidByVoucherLine(payment: VoucherPayment): string {
  if (payment.kind === "session") return `Réglée par bon cadeau ${payment.code}`;
  const nature = payment.nature ?? "acompte";
  return `${DEPOSIT_NATURE_LABELS[nature]} de ${formatCents(payment.amountCents)} réglé${nature === "arrhes" ? "es" : ""} par le bon cadeau ${payment.code}`;
}

/** « Arrhes de 30 € réglées par le bon cadeau … : rendues sur votre bon cadeau. », for `whose` voucher. */
export const givenBackVoucherLine = (payment: VoucherPayment, whose: "votre" | "son") =>
  `${paidByVoucherLine(payment)} : ${payment.nature === "arrhes" ? "rendues" : "rendu"} sur ${whose} bon cadeau.`;

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
      kind: vouchers.kind,
      amountCents: voucherUses.amountCents,
      rules: bookings.depositRules,
      voucherStatus: vouchers.status,
      orderStatus: orders.status,
      givenBackAt: voucherUses.cancelledAt,
    })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .innerJoin(bookings, eq(bookings.id, voucherUses.bookingId))
    .where(eq(voucherUses.bookingId, bookingId))
    .orderBy(desc(voucherUses.at))
    .limit(1);
  if (!row?.code) return null;
  const payment = paymentOf({ ...row, code: row.code });
  const { code } = payment;
  const paid = paidByVoucherLine(payment);
  const refunded = row.orderStatus === "refunded";
  if (row.givenBackAt === null) {
    return refunded
      ? `${paid}, dont la commande a été remboursée en entier : si cette séance est annulée, le bon ne redeviendra pas utilisable.`
      : paid;
  }
  return refunded && row.voucherStatus === "cancelled"
    ? `Le bon cadeau ${code} qui réglait cette séance est annulé : sa commande a été remboursée en entier.`
    : null;
}
