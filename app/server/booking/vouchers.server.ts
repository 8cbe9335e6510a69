import { and, desc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import { DEPOSIT_NATURE_LABELS, type DepositNature } from "~/lib/booking/deposit";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { formatCalendarDayFr } from "~/lib/vouchers/terms";
import { db } from "../db/client.server";
import { bookings, moneyJournal, orders, voucherUses, vouchers } from "../db/schema";
import { PARTIAL_REFUND } from "../vouchers/order-kind.server";

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

/**
 * Why the voucher paying a booking does not come back into use when the booking gives it back
 * (giveBackBookingVoucher): its order refunded in full, or the voucher cancelled otherwise (the owner's
 * « Annuler le bon »).
 */
export type VoucherLost = "refunded" | "cancelled";

/** The voucher paying a booking: a session voucher the session, an amount voucher its deposit. */
export type VoucherPayment = {
  /** Formatted: « 7K3Q-M2XD-9PTX ». */
  code: string;
  kind: "session" | "amount";
  amountCents: number;
  /** The deposit's word an amount voucher paid (the booking's rules); null for a session voucher. */
  nature: DepositNature | null;
  /** Why it stays cancelled (its use standing: will stay; given back: stayed); null when it comes back. */
  lost: VoucherLost | null;
  /**
   * The voucher's last day (ISO) when it is expired now: given back after it, it came back expired
   * (statusBack), usable again only once the owner extends it. Null otherwise.
   */
  expiredOn: string | null;
};

/**
 * Whether the voucher of a booking's use stays cancelled, as giveBackBookingVoucher decides it, read from
 * the voucher, its order and its journal rows (the one place that says it): `refunded` when its order was
 * refunded in full (the use standing, or given back to a voucher that stayed cancelled), `cancelled` when
 * it was cancelled otherwise (a cancellation row other than a partial refund's: one emptied by a partial
 * refund comes back). A function: the constant it reads is another module's.
 */
const lostVoucher = () => sql<VoucherLost | null>`case
  when ${orders.status} = 'refunded'
    and (${voucherUses.cancelledAt} is null or ${vouchers.status} = 'cancelled') then 'refunded'
  when ${vouchers.status} = 'cancelled' and exists (select 1 from ${moneyJournal}
    where ${moneyJournal.voucherId} = ${vouchers.id} and ${moneyJournal.kind} = 'voucher_cancellation'
      and coalesce(${moneyJournal.details} ->> 'reason', '') <> ${PARTIAL_REFUND}) then 'cancelled'
  end`;

/** The booking's uses of vouchers to read: those standing, those given back, or any. */
type UsesRead = "standing" | "givenBack" | "any";

/** The booking's last use of a voucher (`which`), as a payment, and whether it was given back; null else. */
async function lastUseOfBooking(
  bookingId: string,
  which: UsesRead,
): Promise<{ payment: VoucherPayment; givenBack: boolean } | null> {
  const [row] = await db()
    .select({
      code: vouchers.code,
      kind: vouchers.kind,
      amountCents: voucherUses.amountCents,
      rules: bookings.depositRules,
      lost: lostVoucher(),
      status: vouchers.status,
      expiresOn: vouchers.expiresOn,
      givenBackAt: voucherUses.cancelledAt,
    })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .innerJoin(orders, eq(orders.id, vouchers.orderId))
    .innerJoin(bookings, eq(bookings.id, voucherUses.bookingId))
    .where(
      and(
        eq(voucherUses.bookingId, bookingId),
        which === "any"
          ? undefined
          : which === "givenBack"
            ? isNotNull(voucherUses.cancelledAt)
            : isNull(voucherUses.cancelledAt),
        isNotNull(vouchers.code),
      ),
    )
    .orderBy(desc(voucherUses.at))
    .limit(1);
  if (!row?.code) return null;
  return { payment: paymentOf({ ...row, code: row.code }), givenBack: row.givenBackAt !== null };
}

/** A use of a voucher by a booking (its voucher's code, kind, the sum, the booking's rules), as a payment. */
function paymentOf(row: {
  code: string;
  kind: VoucherPayment["kind"];
  amountCents: number;
  rules: { nature: DepositNature } | null;
  lost: VoucherLost | null;
  status: string;
  expiresOn: string | null;
}): VoucherPayment {
  return {
    code: formatVoucherCode(row.code),
    kind: row.kind,
    amountCents: row.amountCents,
    nature: row.kind === "amount" ? (row.rules?.nature ?? "acompte") : null,
    lost: row.lost,
    expiredOn: row.status === "expired" ? row.expiresOn : null,
  };
}

/**
 * The booking's last use of a voucher, standing or given back (`givenBack`), for what its e-mails say of
 * it; null when it has none.
 */
export const voucherUseOfBooking = (bookingId: string) => lastUseOfBooking(bookingId, "any");

/** The voucher paying this booking, null when none or given back. */
export const voucherPaymentOfBooking = async (bookingId: string) =>
  (await lastUseOfBooking(bookingId, "standing"))?.payment ?? null;

/** The deposit an amount voucher paid for this booking and got back (its last use given back); null else. */
export async function givenBackVoucherDeposit(bookingId: string): Promise<VoucherPayment | null> {
  const back = (await lastUseOfBooking(bookingId, "givenBack"))?.payment;
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

/** Why the sum does not come back: « Le bon ayant été remboursé » (`capital`) or « le bon ayant été annulé ». */
const lostReason = (lost: VoucherLost, capital = false) =>
  `${capital ? "Le" : "le"} bon ayant été ${lost === "refunded" ? "remboursé" : "annulé"}`;

/** How the client asks the studio to extend her voucher: by answering the e-mail she reads, or else. */
export type ClientReads = "email" | "page";

/**
 * What a voucher that came back expired (its last day past, decision 0199 amended) leaves to do, for
 * `whose` reader: the client, that its validity ended and the studio can extend it (the expiry reminder's
 * words); the owner, that her client cannot use it until she extends it.
 */
function expiredBack(day: string, whose: "votre" | "son", reads: ClientReads): string {
  const ended = formatCalendarDayFr(day);
  return whose === "votre"
    ? `, mais sa validité a pris fin le ${ended}. Le studio peut le prolonger : ${reads === "email" ? "répondez à cet e-mail" : "contactez-le"}.`
    : `, expiré depuis sa fin de validité le ${ended} : la cliente ne peut pas s'en servir tant que vous ne le prolongez pas.`;
}

/**
 * A voucher given back by its booking, for `whose` voucher: « Arrhes de 30 € réglées par le bon cadeau … :
 * rendues sur votre bon cadeau. », or, the voucher having stayed cancelled, « … : le bon ayant été
 * remboursé, elles ne reviennent pas sur le bon. »; come back expired, with what to do (expiredBack), as
 * for a session voucher then: « Réglée par bon cadeau … : la séance revient sur votre bon cadeau, mais sa
 * validité a pris fin le 31 mars 2027. Le studio peut le prolonger : répondez à cet e-mail. ». `reads`:
 * where the client reads it.
 */
export function givenBackVoucherLine(
  payment: VoucherPayment,
  whose: "votre" | "son",
  reads: ClientReads = "page",
): string {
  const arrhes = payment.nature === "arrhes";
  const back =
    payment.kind === "session"
      ? `la séance revient sur ${whose} bon cadeau`
      : `${arrhes ? "rendues" : "rendu"} sur ${whose} bon cadeau`;
  if (!payment.lost && payment.expiredOn) {
    return `${paidByVoucherLine(payment)} : ${back}${expiredBack(payment.expiredOn, whose, reads)}`;
  }
  const where = payment.lost
    ? `${lostReason(payment.lost)}, ${arrhes ? "elles ne reviennent" : "il ne revient"} pas sur le bon`
    : back;
  return `${paidByVoucherLine(payment)} : ${where}.`;
}

/**
 * The voucher paying a booking as its owner reads it: « Arrhes de 30 € réglées par le bon cadeau … », with
 * a warning once it will stay cancelled: « …, dont la commande a été remboursée en entier : si cette séance
 * est annulée, le bon ne redeviendra pas utilisable. ».
 */
export function voucherLineOfOwner(payment: VoucherPayment): string {
  const paid = paidByVoucherLine(payment);
  if (!payment.lost) return paid;
  const why =
    payment.lost === "refunded" ? "dont la commande a été remboursée en entier" : "annulé depuis";
  return `${paid}, ${why} : si cette séance est annulée, le bon ne redeviendra pas utilisable.`;
}

/**
 * What cancelling the booking does with the deposit an amount voucher pays, for `whose` voucher: « Les 30 €
 * réglés par votre bon cadeau … reviennent sur son solde. », or that they do not, the voucher cancelled.
 */
export function voucherDepositOnCancel(payment: VoucherPayment, whose: "votre" | "son"): string {
  const paid = `${formatCents(payment.amountCents)} réglés par ${whose === "votre" ? `votre bon cadeau ${payment.code}` : "son bon cadeau"}`;
  return payment.lost
    ? `${lostReason(payment.lost, true)}, les ${paid} ne reviennent pas sur son solde.`
    : `Les ${paid} reviennent sur son solde.`;
}

/**
 * The sum an amount voucher paid, not back on its balance when the studio cancelled (the law's twice the
 * sum): « Les 30 € sont revenus sur son bon cadeau », or, the voucher cancelled, that they are not.
 */
export const voucherDepositBack = (payment: VoucherPayment) =>
  payment.lost
    ? `${lostReason(payment.lost, true)}, les ${formatCents(payment.amountCents)} ne sont pas revenus sur son bon cadeau`
    : `Les ${formatCents(payment.amountCents)} sont revenus sur son bon cadeau`;

/**
 * The client's rule of a deposit her voucher pays: it comes back when cancelled in time (or by the studio),
 * or, the voucher cancelled, that it does not.
 */
export const voucherDepositRule = (payment: VoucherPayment, cutoffHours: number) =>
  payment.lost
    ? `${lostReason(payment.lost, true)}, la somme ne revient pas sur le bon si la séance est annulée.`
    : `Annulée en ligne jusqu'à ${cutoffHours} h avant la séance, ou par le studio, la somme revient sur votre bon cadeau ; après ce délai, elle reste acquise au studio.`;

/**
 * What the booking's admin page says of the voucher that pays it, or paid it, from one reading of its last
 * use. `line`: « Réglée par bon cadeau … » while its use stands, with a warning once it will stay cancelled
 * (voucherLineOfOwner); after a cancellation, that it did not come back when its order was refunded, or
 * that it came back expired; null when none, or given back as usual. `toExtend`: the code of the voucher
 * it gave back expired (after its last day), for her way to extend it (`/admin/bons-cadeaux?q=…`).
 */
export async function voucherForOwner(
  bookingId: string,
): Promise<{ line: string | null; toExtend: string | null }> {
  const use = await lastUseOfBooking(bookingId, "any");
  if (!use) return { line: null, toExtend: null };
  const { payment } = use;
  if (!use.givenBack) return { line: voucherLineOfOwner(payment), toExtend: null };
  if (payment.lost === "refunded") {
    return {
      line: `Le bon cadeau ${payment.code} qui réglait cette séance est annulé : sa commande a été remboursée en entier.`,
      toExtend: null,
    };
  }
  const expired = !payment.lost && payment.expiredOn !== null;
  return {
    line: payment.expiredOn ? givenBackVoucherLine(payment, "son") : null,
    toExtend: expired ? payment.code : null,
  };
}

/**
 * What the client's booking page says of the session voucher that pays it: « Réglée par bon cadeau … »
 * while its use stands; given back to a voucher past its last day, that it came back expired and the
 * studio can extend it. Null otherwise (an amount voucher's deposit is said in its own section).
 */
export async function voucherLineForClient(bookingId: string): Promise<string | null> {
  const use = await lastUseOfBooking(bookingId, "any");
  if (use?.payment.kind !== "session") return null;
  if (!use.givenBack) return paidByVoucherLine(use.payment);
  return use.payment.expiredOn ? givenBackVoucherLine(use.payment, "votre") : null;
}
