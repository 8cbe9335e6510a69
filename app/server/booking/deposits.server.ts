import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { paymentHeldFor } from "../payments/held-attempts.server";
import {
  CARD_HOLD_MINUTES,
  DEPOSIT_MEANINGS,
  DEPOSIT_NATURE_LABELS,
  DEPOSIT_ON_STUDIO_CANCEL,
  depositPaidOnStudioCancel,
  balanceOrderKey,
  DEPOSIT_STATUS_WORDS,
  depositCents,
  depositOnClientCancel,
  depositRefundWay,
  depositUnpaidOnCancel,
  type DepositRule,
} from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { isActive, type BookingState } from "~/lib/booking/model";
import { managePath } from "~/lib/booking/urls";
import {
  OFFLINE_MEANS,
  OFFLINE_MEANS_LABELS,
  PAYMENT_HELD_MESSAGE,
  PAYMENT_METHOD_LABELS,
  type OfflineMeans,
  type PaymentMethod,
} from "~/lib/payments/model";
import { formatDateFr } from "~/lib/dates";
import { formatCents } from "~/lib/prices";
import { formatVoucherCode, parseVoucherCode } from "~/lib/vouchers/code";
import {
  givenBackVoucherDeposit,
  givenBackVoucherLine,
  paidByVoucherLine,
  voucherDepositBack,
  voucherDepositOnCancel,
  voucherDepositRule,
  voucherLineOfOwner,
  voucherUseOfBooking,
  type VoucherPayment,
} from "./vouchers.server";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import {
  bookingEvents,
  bookings,
  moneyJournal,
  orderLines,
  orders,
  refunds,
  sessionTypes,
  voucherUses,
  vouchers,
} from "../db/schema";
import { defineJob, PROVIDER_JOB_POLICY, type Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { defineOrderKind, type OrderRecord } from "../payments/order-kinds.server";
import {
  CHECKOUT_MINUTES,
  cancelUnpaidOrder,
  createOrder,
  endOpenCheckouts,
  markPaidOffline,
  receivedByCardOnly,
  refundablePayments,
  refundWhatIsLeft,
  transferAttemptsEndAt,
  type OrderCheckout,
} from "../payments/orders.server";
import { orderTokenFor } from "../payments/order-token.server";
import { OFFLINE_PROVIDERS } from "../payments/providers.server";
import { takeBalanceFromVoucher } from "../vouchers/redemption.server";
import { PaymentRefusedError } from "../payments/refusals.server";
import type { Tx } from "../payments/journal.server";
import { queueBookingMails, queueClientMail } from "./emails.server";
import { manageTokenFor } from "./manage-token.server";
import { BookingRefusedError } from "./refusals.server";
import {
  deleteBookingOccupancies,
  exclusionConflict,
  insertOccupancies,
  lockOccupants,
} from "./occupancies.server";

/*
 * The deposit of a booking (decision 0186): an order of kind `booking_deposit` per booking. Made after the
 * booking (`awaiting_payment`, its slot held for the payment window); paid, the booking is confirmed and
 * its e-mails go; the window closing frees the slot and tells the client nothing was charged; money that
 * arrives once the slot went to someone else is refunded at once (a job after the payment's commit: the
 * refund needs the paid order), with an apology offering the next free times.
 */

/** The session as orders and invoices name it: « Séance Portrait du samedi 12 décembre 2026 à 14 h 30 ». */
const sessionLabel = (typeName: string, startsAt: Date) =>
  `${typeName} du ${instantLabelFr(startsAt)}`;

/** The order's line: « Acompte : Séance Portrait du samedi 12 décembre 2026 à 14 h 30 ». */
export const depositLineLabel = (rule: DepositRule, typeName: string, startsAt: Date) =>
  `${DEPOSIT_NATURE_LABELS[rule.nature]} : ${sessionLabel(typeName, startsAt)}`;

/** A session's TVA when the seller is subject to it (services, 20 %); the invoice drops it under 293 B. */
const SESSION_VAT_RATE = 2000;

/** The states in which a booking's deposit may still be asked: waiting for it, or confirmed without it. */
const DEPOSIT_DUE_STATES: readonly BookingState[] = ["awaiting_payment", "confirmed"];

/** The refusal of a deposit's order for a booking called off (cancelled, lapsed) before it was made. */
const depositNoLongerDue = () =>
  new PaymentRefusedError(
    "not_awaiting_payment",
    "Cette réservation est annulée ou son délai de paiement est passé : il n'y a rien à payer.",
  );

/**
 * Asks for a booking's deposit: its order (the booking's own idempotency key, so a second call finds the
 * first order), linked to the booking in the order's transaction, then the provider's checkout. The
 * booking called off (cancelled, declined, expired) before the order's transaction held its row: nothing
 * is made (no order, no checkout, nothing `onCreated` queued) and the call is refused
 * (`not_awaiting_payment`).
 */
export async function createDepositOrder(input: {
  bookingId: string;
  method: PaymentMethod;
  now?: Date;
  /**
   * Run in the order's transaction when this call made it (not when it found an earlier one), with the
   * booking as its lock read it.
   */
  onCreated?: (tx: Tx, booking: typeof bookings.$inferSelect) => Promise<void>;
}): Promise<OrderCheckout> {
  const [row] = await db()
    .select({
      booking: bookings,
      typeName: sessionTypes.name,
      cutoffHours: sessionTypes.cancellationCutoffHours,
    })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .where(eq(bookings.id, input.bookingId));
  const rule = row?.booking.depositRules;
  if (!row || !rule) throw new PaymentRefusedError("not_found");
  const { booking } = row;
  const cents = depositCents(rule);
  const { payments } = (await readSiteContent()).documents;
  return createOrder({
    kind: "booking_deposit",
    method: input.method,
    buyer: { name: booking.clientName, email: booking.clientEmail, phone: booking.clientPhone },
    termsAcceptedAt: booking.consentAt ?? input.now ?? new Date(),
    rulesSnapshot: {
      deposit: rule,
      meaning: DEPOSIT_MEANINGS[rule.nature],
      bookingId: booking.id,
      startsAt: booking.startsAt.toISOString(),
      cancellationCutoffHours: row.cutoffHours,
      // The bank details as given to the client: her page keeps them if the owner's change.
      ...(input.method === "transfer"
        ? { transfer: { holder: payments.transferHolder, iban: payments.transferIban } }
        : {}),
    },
    lines: [
      {
        label: depositLineLabel(rule, row.typeName, booking.startsAt),
        quantity: 1,
        unitPriceCents: cents,
        vatRate: SESSION_VAT_RATE,
      },
    ],
    idempotencyKey: `booking-deposit:${booking.id}`,
    studioId: booking.studioId,
    // A transfer's deadline; for a card asked by e-mail after a request (decision 0186), the window in
    // which new checkouts may be opened.
    payBy: input.method === "studio" ? null : booking.respondBy,
    inTransaction: async (tx, order) => {
      // The booking's row, locked after the new order as a payment takes them, and read again: what was
      // committed since the read above (its deposit had no order to follow yet) is followed here, and a
      // move, a correction or a cancellation still to come waits for this order and finds it
      // (lockBookingAndDeposit, settleDepositOnCancellation).
      const [current] = await tx
        .select()
        .from(bookings)
        .where(eq(bookings.id, booking.id))
        .for("update");
      // Called off meanwhile (cancelled by her or the owner, lapsed): no order to pay is left behind, and
      // the whole transaction (the order, its attempt, its e-mails) rolls back.
      if (!current || !DEPOSIT_DUE_STATES.includes(current.state)) throw depositNoLongerDue();
      await tx
        .update(bookings)
        .set({ depositOrderId: order.id })
        .where(eq(bookings.id, booking.id));
      if (
        current.startsAt.getTime() !== booking.startsAt.getTime() ||
        current.studioId !== booking.studioId
      ) {
        await depositFollowsMove(tx, { ...current, depositOrderId: order.id }, current);
      }
      // Her details corrected by the owner meanwhile (correctBookingClient found no order to correct):
      // the order names her as corrected. An address emptied meanwhile is not the order's: it needs one,
      // and keeps the one she gave.
      if (
        current.clientName !== booking.clientName ||
        current.clientEmail !== booking.clientEmail ||
        current.clientPhone !== booking.clientPhone
      ) {
        await tx
          .update(orders)
          .set({
            buyerName: current.clientName.trim(),
            ...(current.clientEmail.trim() ? { buyerEmail: current.clientEmail.trim() } : {}),
            buyerPhone: current.clientPhone.trim(),
          })
          .where(eq(orders.id, order.id));
      }
      await input.onCreated?.(tx, current);
    },
  });
}

/**
 * The deposit's order of a booking about to move, locked before the booking, in the order a payment takes
 * them (its order, then its kind's onPaid the booking): a move and a payment at once wait for each other
 * instead of deadlocking, and the move reads whether the deposit is paid as the payment left it. Answers
 * the order's id (null: none yet); one linked before the booking's lock is taken was made meanwhile.
 */
export async function lockDepositOrderOf(tx: Tx, bookingId: string): Promise<string | null> {
  const [row] = await tx
    .select({ orderId: bookings.depositOrderId })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (!row?.orderId) return null;
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, row.orderId)).for("update");
  return row.orderId;
}

/**
 * A booking moved while its deposit is not paid yet: its order takes the new time and studio, its line
 * and its snapshot's `startsAt` (the « facture d'acompte » issued when it is paid prints both: its line,
 * its service date), its `studioId` (the session's studio, as the booking's) and a deadline no later than
 * the new start, its transfer's open attempt's end with it. An order not paid is no invoice yet and may
 * change; a paid deposit keeps its own, its invoice issued and immutable, and only later documents (the
 * balance's final invoice) name the new time. Its card checkouts open, whose page and receipt name the old
 * time, end now (endOpenCheckouts): answers their attempts, for closeEndedCheckouts once this commits.
 */
export async function depositFollowsMove(
  tx: Tx,
  booking: Pick<typeof bookings.$inferSelect, "depositOrderId" | "depositRules" | "sessionTypeId">,
  to: { startsAt: Date; studioId: string },
  at = new Date(),
): Promise<string[]> {
  if (!booking.depositOrderId || !booking.depositRules) return [];
  const { startsAt } = to;
  const [moved] = await tx
    .update(orders)
    .set({
      rulesSnapshot: sql`jsonb_set(${orders.rulesSnapshot}, '{startsAt}', ${JSON.stringify(startsAt.toISOString())}::jsonb)`,
      studioId: to.studioId,
      // Its payment is awaited no later than the session (the booking's hold ends there too); one paid
      // at the studio (no deadline) keeps none.
      payBy: sql`case when ${orders.payBy} is null then null
        else least(${orders.payBy}, ${startsAt.toISOString()}::timestamptz) end`,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, booking.depositOrderId), eq(orders.status, "awaiting_payment")))
    .returning({ id: orders.id, payBy: orders.payBy });
  if (!moved) return [];
  // A transfer's open attempt ends with the order's deadline, no later than the session either.
  if (moved.payBy) await transferAttemptsEndAt(tx, moved.id, moved.payBy);
  const [type] = await tx
    .select({ name: sessionTypes.name })
    .from(sessionTypes)
    .where(eq(sessionTypes.id, booking.sessionTypeId));
  const label = depositLineLabel(booking.depositRules, type?.name ?? "", startsAt);
  const changed = await tx
    .update(orderLines)
    .set({ label })
    .where(and(eq(orderLines.orderId, moved.id), ne(orderLines.label, label)))
    .returning({ id: orderLines.id });
  // The client pays for what she reads: a checkout naming the old day is closed, « Payer » opens one
  // naming the new (a move to another studio at the same time changes nothing she reads there).
  return changed.length > 0 ? endOpenCheckouts(tx, moved.id, at) : [];
}

/**
 * The client of a booking the owner corrected (her name, e-mail or phone): its orders not paid yet, its
 * deposit's and a balance entry's stopped before its payment, take her new details, since the invoice
 * issued when each is paid names its buyer and their e-mails go to her address. A paid (or refunded) order
 * keeps its buyer's name, that of its issued invoice, but takes her new address and phone: its refunds and
 * their credit notes are e-mailed there (an invoice keeps its own copy of its buyer). An order needs an
 * address: emptying the e-mail of a booking waiting for a payment is refused; its paid orders keep theirs.
 * Called after lockDepositOrderOf and the booking's lock.
 */
export async function ordersFollowClient(
  tx: Tx,
  booking: Pick<typeof bookings.$inferSelect, "id" | "depositOrderId">,
  client: { name: string; email: string; phone: string },
): Promise<void> {
  const ofBooking = or(
    booking.depositOrderId ? eq(orders.id, booking.depositOrderId) : undefined,
    eq(orders.idempotencyKey, balanceOrderKey(booking.id)),
  );
  const unpaid = and(ofBooking, eq(orders.status, "awaiting_payment"));
  if (client.email === "") {
    const [waiting] = await tx.select({ id: orders.id }).from(orders).where(unpaid);
    if (!waiting) return;
    throw new BookingRefusedError("invalid_details", {
      fieldErrors: {
        email:
          "Un paiement de cette réservation est attendu : sa facture et ses e-mails partent à cette adresse. Indiquez-en une.",
      },
    });
  }
  const at = new Date();
  await tx
    .update(orders)
    .set({
      buyerName: client.name,
      buyerEmail: client.email,
      buyerPhone: client.phone,
      updatedAt: at,
    })
    .where(unpaid);
  if (client.email === "") return;
  await tx
    .update(orders)
    .set({ buyerEmail: client.email, buyerPhone: client.phone, updatedAt: at })
    .where(and(ofBooking, ne(orders.status, "awaiting_payment")));
}

async function lockBookingOfOrder(tx: Tx, orderId: string) {
  const [booking] = await tx
    .select()
    .from(bookings)
    .where(eq(bookings.depositOrderId, orderId))
    .for("update");
  return booking ?? null;
}

const system = { actor: "system", actorName: "" } as const;

/**
 * Takes the booking's time again for good: its held rows made permanent, or written again when a later
 * booking's transaction deleted them as lapsed. False when someone else has it now.
 */
async function holdForGood(tx: Tx, booking: typeof bookings.$inferSelect): Promise<boolean> {
  await lockOccupants(tx, {
    studioIds: [booking.studioId],
    photographerIds: [booking.photographerId],
  });
  // Rows past their window no longer count for others: deleted, then written again below.
  const kept = await tx.execute(sql`update booking_occupancies set holds_until = null
    where booking_id = ${booking.id}::uuid and (holds_until is null or holds_until > now())`);
  if (kept.rowCount) return true;
  await deleteBookingOccupancies(tx, booking.id);
  try {
    await tx.transaction((savepoint) =>
      insertOccupancies(savepoint, {
        owner: { bookingId: booking.id },
        photographerId: booking.photographerId,
        studioId: booking.studioId,
        start: booking.startsAt,
        end: booking.endsAt,
        bufferBeforeMinutes: booking.bufferBeforeMinutes,
        bufferAfterMinutes: booking.bufferAfterMinutes,
        holdsUntil: null,
      }),
    );
    return true;
  } catch (error) {
    if (exclusionConflict(error) === null) throw error;
    return false;
  }
}

/** Why a deposit goes back, as its refund's reason reads. */
const REFUND_REASONS = {
  lost_slot: "Paiement arrivé après que le créneau a été réservé par quelqu'un d'autre",
  client: "Séance annulée par le client dans les délais",
  studio: "Séance annulée par le studio",
  after_cancel: "Paiement arrivé après l'annulation de la séance",
} as const;
export type DepositRefundReason = keyof typeof REFUND_REASONS;

/**
 * Refunds what is left of a paid deposit (the job `booking-deposit-refund`, queued in the transaction
 * that decided it: a payment once its slot was gone, a cancellation); a deposit still unpaid when its
 * booking was cancelled has its order cancelled instead (a payment on its open checkout then comes back
 * as `after_cancel`). Run twice, the second finds nothing left to do.
 */
export async function refundDeposit(
  orderId: string,
  reason: DepositRefundReason = "lost_slot",
): Promise<void> {
  const [order] = await db()
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (order?.status === "awaiting_payment") {
    await cancelUnpaidOrder(orderId);
    return;
  }
  if ((await refundWhatIsLeft(orderId, REFUND_REASONS[reason])) === 0) {
    log.info("deposit_refund_skipped", { orderId, reason: "nothing_left" });
  }
}

/**
 * The queue `booking-deposit-refund`: a deposit refunded after the commit of what decided it (the refund
 * asks the provider). `reason` absent: a job queued before cancellations used it, a lost slot.
 */
export const depositRefundJob = defineJob<{ orderId: string; reason?: DepositRefundReason }>({
  name: "booking-deposit-refund",
  policy: PROVIDER_JOB_POLICY,
  handler: async (jobs) => {
    for (const job of jobs) await refundDeposit(job.data.orderId, job.data.reason);
  },
});

/**
 * The queue `booking-deposit-request`: the deposit of a « sur demande » booking, asked once the owner's
 * acceptance is committed (queued in it): its order, and in the order's own transaction the acceptance
 * e-mail that carries its link. A booking cancelled or expired meanwhile, before the job or while it makes
 * the order, is asked nothing: no order, no e-mail, and the job ends (nothing to try again).
 */
export const depositRequestJob = defineJob<{ bookingId: string; method: PaymentMethod }>({
  name: "booking-deposit-request",
  policy: PROVIDER_JOB_POLICY,
  handler: async (jobs) => {
    for (const job of jobs) await requestAcceptedDeposit(job.data.bookingId, job.data.method);
  },
});

/** The deposit of an accepted request (depositRequestJob): its order, and the e-mail with its link. */
export async function requestAcceptedDeposit(
  bookingId: string,
  method: PaymentMethod,
): Promise<void> {
  const [booking] = await db()
    .select({ state: bookings.state })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (!booking || !DEPOSIT_DUE_STATES.includes(booking.state)) return;
  try {
    await createDepositOrder({
      bookingId,
      method,
      onCreated: async (tx, current) => {
        if (current.clientMail) await queueClientMail({ bookingId, event: "accepted" }, { tx });
      },
    });
  } catch (error) {
    // Called off while its order was being made: the order and its e-mail were rolled back.
    if (!(error instanceof PaymentRefusedError && error.code === "not_awaiting_payment")) {
      throw error;
    }
    log.info("deposit_request_skipped", { bookingId, reason: "no_longer_due" });
  }
}

/** What a deposit order does to its booking (decision 0186), inside the payment's transaction. */
export const depositOrderKind = defineOrderKind("booking_deposit", {
  onPaid: async (tx, order) => {
    const booking = await lockBookingOfOrder(tx, order.id);
    if (!booking) return;
    const now = new Date();
    if (booking.state === "confirmed" || booking.state === "done" || booking.state === "no_show") {
      // Paid at the studio, or after the owner accepted the request: the booking stands already.
      await tx
        .insert(bookingEvents)
        .values({ bookingId: booking.id, kind: "deposit_paid", ...system });
      return;
    }
    const waiting = booking.state === "awaiting_payment" || booking.state === "expired";
    if (waiting && booking.startsAt > now && (await holdForGood(tx, booking))) {
      await tx
        .update(bookings)
        .set({
          state: "confirmed",
          respondBy: null,
          icsSequence: booking.icsSequence + 1,
          updatedAt: now,
        })
        .where(eq(bookings.id, booking.id));
      await tx
        .insert(bookingEvents)
        .values({ bookingId: booking.id, kind: "deposit_paid", ...system });
      await queueBookingMails(tx, booking.id, "booked", "client", { toClient: booking.clientMail });
      return;
    }
    if (booking.state === "cancelled" || booking.state === "declined") {
      // Paid on a checkout left open after she (or the studio) called the booking off: the money goes
      // back, and the refund's own e-mail says why (no apology for a slot she gave up).
      await tx
        .insert(bookingEvents)
        .values({ bookingId: booking.id, kind: "deposit_paid", ...system });
      await depositRefundJob.send({ orderId: order.id, reason: "after_cancel" }, { tx });
      return "given_back";
    }
    // Its time went to someone else (or passed): the money goes back.
    await deleteBookingOccupancies(tx, booking.id);
    if (booking.state === "awaiting_payment") {
      await tx
        .update(bookings)
        .set({ state: "expired", icsSequence: booking.icsSequence + 1, updatedAt: now })
        .where(eq(bookings.id, booking.id));
    }
    await tx.insert(bookingEvents).values({
      bookingId: booking.id,
      kind: "expired",
      ...system,
      detail: { lateDeposit: true },
    });
    await depositRefundJob.send({ orderId: order.id, reason: "lost_slot" }, { tx });
    await queueClientMail({ bookingId: booking.id, event: "slot_lost" }, { tx });
    return "given_back";
  },
  // A checkout opened again from the order's page (the first lapsed) is payable 30 minutes: the booking
  // holds its slot as long, with the margin of its first hold, never past its start. Its occupancy is
  // still there while the booking awaits payment (a lapsed hold is deleted only with the booking's
  // expiry, or by another booking's transaction, which waits for this one's row lock and then sees the
  // new end); gone, the slot went to someone else, and no checkout is opened.
  onCheckoutOpened: async (tx, order, { expiresAt }) => {
    const booking = await lockBookingOfOrder(tx, order.id);
    // Confirmed (the owner took it at its word), it holds its slot for good.
    if (!booking || ["confirmed", "done", "no_show"].includes(booking.state)) return;
    if (booking.state === "cancelled" || booking.state === "declined") {
      throw new PaymentRefusedError(
        "not_awaiting_payment",
        "Cette réservation est annulée : il n'y a plus rien à payer.",
      );
    }
    const until = new Date(
      Math.min(
        expiresAt.getTime() + (CARD_HOLD_MINUTES - CHECKOUT_MINUTES) * 60_000,
        booking.startsAt.getTime(),
      ),
    );
    const held =
      booking.state === "awaiting_payment"
        ? await tx.execute(
            sql`update booking_occupancies
              set holds_until = greatest(holds_until, ${until.toISOString()}::timestamptz)
              where booking_id = ${booking.id}::uuid`,
          )
        : null;
    if (!held?.rowCount) {
      throw new PaymentRefusedError(
        "not_awaiting_payment",
        "Le délai de paiement de cette réservation est passé : le créneau a été libéré et rien n'a été débité. Réservez à nouveau sur le site.",
      );
    }
    if (!booking.respondBy || booking.respondBy < until) {
      await tx
        .update(bookings)
        .set({ respondBy: until, updatedAt: new Date() })
        .where(eq(bookings.id, booking.id));
    }
  },
  onReleased: async (tx, order) => {
    const booking = await lockBookingOfOrder(tx, order.id);
    if (!booking || booking.state !== "awaiting_payment") return;
    await releaseUnpaidBooking(tx, booking);
  },
  // Its « rien n'a été débité » (releaseUnpaidBooking) is the client's one e-mail of a lapsed deposit.
  tellsBuyerOfRelease: true,
  onRefunded: async (tx, order, { fullyRefunded }) => {
    if (!fullyRefunded) return;
    const [booking] = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.depositOrderId, order.id));
    if (booking) {
      await tx
        .insert(bookingEvents)
        .values({ bookingId: booking.id, kind: "deposit_refunded", ...system });
    }
  },
});

/**
 * A booking whose payment window closed unpaid: its time freed, `expired`, the client told nothing was
 * charged, or, her card payment taken for another total waiting for the owner (decision 0172), that it
 * came and is being checked (from the order's release or the booking's own expiry, whichever comes first).
 */
export async function releaseUnpaidBooking(
  tx: Tx,
  booking: Pick<typeof bookings.$inferSelect, "id" | "icsSequence" | "clientMail">,
): Promise<void> {
  await deleteBookingOccupancies(tx, booking.id);
  const released = await tx
    .update(bookings)
    .set({ state: "expired", icsSequence: booking.icsSequence + 1, updatedAt: new Date() })
    .where(and(eq(bookings.id, booking.id), inArray(bookings.state, ["awaiting_payment"])))
    .returning({ id: bookings.id });
  if (released.length === 0) return;
  await tx.insert(bookingEvents).values({
    bookingId: booking.id,
    kind: "expired",
    ...system,
    detail: { unpaid: true },
  });
  if (booking.clientMail) {
    await queueClientMail({ bookingId: booking.id, event: "payment_expired" }, { tx });
  }
}

/** A booking an order's page leads back to: its state and her page's address; null once purged. */
async function bookingWithPage(
  which: SQL,
): Promise<{ id: string; state: BookingState; href: string } | null> {
  const [booking] = await db()
    .select({ id: bookings.id, state: bookings.state })
    .from(bookings)
    .where(which);
  if (!booking) return null;
  return { ...booking, href: managePath(await manageTokenFor(booking.id)) };
}

/** The booking a deposit's order pays, with its page's address (the order's page links to it). */
export async function bookingOfDeposit(orderId: string) {
  return bookingWithPage(eq(bookings.depositOrderId, orderId));
}

/**
 * The booking a balance order paid (decision 0186), with her page's address: its order's page, which the
 * payments core's e-mails of it (« Paiement reçu », a refund's) link, leads back to it. Null once purged.
 */
export async function bookingOfBalance(order: Pick<OrderRecord, "kind" | "rulesSnapshot">) {
  const bookingId = order.rulesSnapshot.bookingId;
  if (order.kind !== "booking_balance" || typeof bookingId !== "string") return null;
  return bookingWithPage(eq(bookings.id, bookingId));
}

/** What a cancellation did with a paid deposit (decision 0186). */
export type DepositOnCancellation = "none" | "refunded" | "proposed";

/**
 * A paid deposit when its booking is cancelled, decided in the cancellation's transaction: the studio
 * cancelled, or the client in time with the type's « rembourser aussitôt », and what is left of it goes
 * back (a refund job queued in `tx`: it asks the provider once this commits); the client in time otherwise
 * proposes the refund to the owner (a history line; the booking's page links to the order's
 * « Rembourser »). Past the cut-off a client cannot cancel online: the deposit stays the studio's, under
 * the rules copied onto the booking.
 */
export async function settleDepositOnCancellation(
  tx: Tx,
  bookingId: string,
  by: "client" | "owner",
  inTime: boolean,
): Promise<DepositOnCancellation> {
  const [row] = await tx
    .select({ rules: bookings.depositRules, orderId: orders.id, status: orders.status })
    .from(bookings)
    .innerJoin(orders, eq(orders.id, bookings.depositOrderId))
    .where(eq(bookings.id, bookingId));
  if (!row?.rules) return "none";
  if (row.status === "awaiting_payment") {
    // Not paid yet: its order is cancelled by the same job, after this commits.
    await depositRefundJob.send(
      { orderId: row.orderId, reason: by === "owner" ? "studio" : "client" },
      { tx },
    );
    return "none";
  }
  if (row.status !== "paid") return "none";
  if (by === "owner" || (inTime && row.rules.refundAtOnce)) {
    await depositRefundJob.send(
      { orderId: row.orderId, reason: by === "owner" ? "studio" : "client" },
      { tx },
    );
    return "refunded";
  }
  if (!inTime) return "none";
  await tx.insert(bookingEvents).values({ bookingId, kind: "refund_proposed", ...system });
  return "proposed";
}

/**
 * What the owner reads of a booking's deposit on its page (decision 0186): paid or awaited, the rules the
 * client accepted, and, for arrhes after the studio cancelled, that the law owes the client twice the sum.
 */
export async function depositForOwner(bookingId: string): Promise<{
  lines: string[];
  /** Its order; null for a deposit an amount voucher paid (decision 0199). */
  orderId: string | null;
  /** A card payment of it waits for the owner's decision on its order's page (decision 0172). */
  held: boolean;
  /** What cancelling the booking now does with a deposit not paid yet (null: paid, or no longer due). */
  onCancel: string | null;
} | null> {
  const [row] = await db()
    .select({ booking: bookings, order: orders })
    .from(bookings)
    .innerJoin(orders, eq(orders.id, bookings.depositOrderId))
    .where(eq(bookings.id, bookingId));
  if (!row) return voucherDepositForOwner(bookingId);
  if (!row.booking.depositRules) return null;
  const { booking, order } = row;
  const rules = booking.depositRules;
  if (!rules) return null;
  const word = DEPOSIT_NATURE_LABELS[rules.nature];
  // Her card payment came for another total and waits for the owner's decision (decision 0172): it is no
  // payment « en attente » nor « non réglé », and she decides on the order's page.
  const held =
    (order.status === "awaiting_payment" || order.status === "expired") &&
    (await paymentHeldFor(order.id));
  const lines = [
    `${word} de ${formatCents(order.amountCents)} : ${held ? "paiement reçu, à vérifier" : DEPOSIT_STATUS_WORDS[rules.nature][order.status]} (${PAYMENT_METHOD_LABELS[order.method].toLowerCase()}).`,
    ...(held
      ? [
          `Le paiement par carte de la cliente est arrivé pour un autre montant que celui demandé : rien n'est appliqué tant que vous n'avez pas décidé. « Paiement à vérifier » : acceptez-le ou remboursez-le depuis la commande (lien ci-dessous).${
            booking.state === "expired"
              ? " Le créneau n'est plus retenu : accepté, le paiement confirme la séance si son heure est encore libre, sinon il est rendu en entier à la cliente."
              : ""
          }`,
        ]
      : []),
    DEPOSIT_MEANINGS[rules.nature],
  ];
  const [proposed] = await db()
    .select({ id: bookingEvents.id })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, "refund_proposed")));
  if (proposed && order.status === "paid") {
    lines.push(
      "La cliente a annulé dans les délais : remboursez-la depuis la commande (« Rembourser »).",
    );
  }
  // A transfer or money taken at the studio is not refunded by the site: the owner gives it back.
  const [offline] = await db()
    .select({ cents: sql<number>`sum(${refunds.amountCents})::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), eq(refunds.status, "to_refund_offline")));
  if (offline?.cents) {
    lines.push(
      `${formatCents(offline.cents)} à rembourser par vous : rendez-les à la cliente, puis cliquez sur « Remboursé » dans la commande (l'e-mail qui le lui confirme part alors).`,
    );
  }
  const [cancelled] = await db()
    .select({ actor: bookingEvents.actor })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, "cancelled")));
  // Owed only on arrhes she paid: an order cancelled unpaid took nothing.
  const received = order.status === "paid" || order.status === "refunded";
  if (
    rules.nature === "arrhes" &&
    received &&
    booking.state === "cancelled" &&
    cancelled?.actor === "owner"
  ) {
    const amount = formatCents(order.amountCents);
    // Given back by the site on her card, or by the owner's hand (the line above says how much is left).
    const back = offline?.cents
      ? `Rendez-lui les ${amount} payés (ci-dessus) et ${amount} de plus.`
      : (await receivedByCardOnly(order.id))
        ? `Les ${amount} payés lui sont remboursés sur sa carte ; versez-lui ${amount} de plus vous-même.`
        : `Les ${amount} payés lui ont été rendus ; versez-lui ${amount} de plus.`;
    lines.push(
      `Vous avez annulé une séance réservée avec des arrhes : la loi (article L214-1 du Code de la consommation) vous oblige à rendre le double, soit ${formatCents(order.amountCents * 2)}. ${back}`,
    );
  }
  return {
    lines,
    orderId: order.id,
    held,
    onCancel: held
      ? // Cancelling calls off its order, not the payment held on it: that stays hers to decide.
        "Son paiement par carte, arrivé pour un autre montant, attend votre décision : l'annulation ne le rend pas. Remboursez-le ensuite depuis la commande (« Rembourser ce paiement ») ; accepté, il lui serait rendu en entier, la séance étant annulée."
      : order.status === "awaiting_payment"
        ? depositUnpaidOnCancel(rules.nature, "owner")
        : order.status === "paid"
          ? await paidDepositOnStudioCancel(rules.nature, order)
          : null,
  };
}

/** What cancelling now does with a paid deposit, said to the owner before she confirms. */
async function paidDepositOnStudioCancel(
  nature: DepositRule["nature"],
  order: typeof orders.$inferSelect,
): Promise<string | null> {
  // One read of what is left: its sum, and whether it all goes back on a card (as paidByCardOnly).
  const payments = await refundablePayments(db(), order.id);
  const left = payments.reduce((sum, payment) => sum + payment.leftCents, 0);
  if (left === 0) return null;
  return depositPaidOnStudioCancel(nature, {
    amount: formatCents(order.amountCents),
    twice: formatCents(order.amountCents * 2),
    left: formatCents(left),
    byCard: payments.every(({ attempt }) => !OFFLINE_PROVIDERS.includes(attempt.provider)),
  });
}

/** Whether the studio cancelled the booking (its « cancelled » history line by the owner). */
async function cancelledByStudio(booking: { id: string; state: string }): Promise<boolean> {
  if (booking.state !== "cancelled") return false;
  const [cancelled] = await db()
    .select({ actor: bookingEvents.actor })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, booking.id), eq(bookingEvents.kind, "cancelled")));
  return cancelled?.actor === "owner";
}

/** A line as a sentence of the deposit's section: with its full stop. */
const fullStop = (line: string) => (line.endsWith(".") ? line : `${line}.`);

/**
 * A deposit an amount voucher paid (decision 0199), as the owner reads it: paid by the voucher (with a
 * warning once the voucher will stay cancelled), or given back to it (or not, it stayed cancelled), the
 * rules, and for arrhes after the studio cancelled, that the law owes twice the sum.
 */
async function voucherDepositForOwner(bookingId: string) {
  const [booking] = await db().select().from(bookings).where(eq(bookings.id, bookingId));
  const rules = booking?.depositRules;
  if (!booking || !rules) return null;
  const use = await voucherUseOfBooking(bookingId);
  const payment = use?.payment;
  if (payment?.kind !== "amount") return null;
  const standing = !use?.givenBack;
  const lines = [
    standing
      ? // The warning while the session is still to come: cancelled, the sum stays the studio's.
        fullStop(isActive(booking.state) ? voucherLineOfOwner(payment) : paidByVoucherLine(payment))
      : givenBackVoucherLine(payment, "son"),
    DEPOSIT_MEANINGS[rules.nature],
  ];
  if (rules.nature === "arrhes" && (await cancelledByStudio(booking))) {
    lines.push(
      `Vous avez annulé une séance réservée avec des arrhes : la loi (article L214-1 du Code de la consommation) vous oblige à rendre le double, soit ${formatCents(payment.amountCents * 2)}. ${voucherDepositBack(payment)} ; versez la même somme en plus à la cliente.`,
    );
  }
  return {
    lines,
    orderId: null,
    held: false,
    onCancel: standing ? voucherDepositOnCancel(payment, "son") : null,
  };
}

/**
 * Whether what is left of a paid deposit goes back by itself: every payment of it a card's (the provider
 * refunds it at once). A transfer, or money taken at the studio, refundDeposit leaves to the owner
 * (`requestRefund` makes it `to_refund_offline`), whatever the type's « rembourser aussitôt ».
 */
async function paidByCardOnly(orderId: string): Promise<boolean> {
  const payments = await refundablePayments(db(), orderId);
  return (
    payments.length > 0 &&
    payments.every(({ attempt }) => !OFFLINE_PROVIDERS.includes(attempt.provider))
  );
}

/**
 * What the client reads of her deposit on her booking's page (decision 0186): the rules she accepted when
 * she booked (copied onto the booking), whether it is paid, and her order's page (to pay, or her invoice).
 */
export async function depositForClient(
  booking: Pick<typeof bookings.$inferSelect, "id" | "depositOrderId" | "depositRules">,
  cutoffHours: number,
  /** The voucher paying the booking: an amount voucher's pays the deposit (decision 0199). */
  voucher: VoucherPayment | null = null,
): Promise<{
  lines: string[];
  orderHref: string | null;
  waiting: boolean;
  /**
   * Her card payment, taken for another total, waits for the owner's decision (decision 0172): it came,
   * she is never asked to pay again nor told nothing was charged.
   */
  held: boolean;
  /** What her cancelling now does with her deposit, paid or still awaited (null: none asked yet). */
  onCancel: string | null;
} | null> {
  const rules = booking.depositRules;
  if (!rules) return null;
  const word = DEPOSIT_NATURE_LABELS[rules.nature];
  if (voucher?.kind === "amount" && !booking.depositOrderId) {
    return {
      lines: [
        `${paidByVoucherLine(voucher)}.`,
        DEPOSIT_MEANINGS[rules.nature],
        voucherDepositRule(voucher, cutoffHours),
      ],
      orderHref: null,
      waiting: false,
      held: false,
      onCancel: voucherDepositOnCancel(voucher, "votre"),
    };
  }
  // Given back to her voucher (cancelled in time, a request declined or lapsed), or not when it stayed
  // cancelled (its order refunded): nothing is owed.
  const givenBack = booking.depositOrderId ? null : await givenBackVoucherDeposit(booking.id);
  if (givenBack) {
    return {
      lines: [givenBackVoucherLine(givenBack, "votre")],
      orderHref: null,
      waiting: false,
      held: false,
      onCancel: null,
    };
  }
  const [order] = booking.depositOrderId
    ? await db().select().from(orders).where(eq(orders.id, booking.depositOrderId))
    : [];
  const amount = formatCents(order?.amountCents ?? depositCents(rules));
  // Paid, how it was paid; awaited, how she chose to pay; asked later (a request), not known yet.
  const paidByCard =
    order?.status === "paid"
      ? await paidByCardOnly(order.id)
      : order
        ? order.method === "card"
        : null;
  // Taken for another total, waiting for the owner (lapsed meanwhile, it still came): never « à payer ».
  const held =
    order !== undefined &&
    (order.status === "awaiting_payment" || order.status === "expired") &&
    (await paymentHeldFor(order.id));
  const lines = [
    `${word} de ${amount} : ${held ? "paiement reçu, à vérifier" : order ? DEPOSIT_STATUS_WORDS[rules.nature][order.status] : "à régler une fois la demande acceptée"}.`,
    ...(held ? [PAYMENT_HELD_MESSAGE] : []),
    DEPOSIT_MEANINGS[rules.nature],
    `Annulée en ligne jusqu'à ${cutoffHours} h avant la séance, la somme versée vous est remboursée ${depositRefundWay(rules.refundAtOnce, paidByCard)} ; après, elle reste acquise au studio. ${DEPOSIT_ON_STUDIO_CANCEL[rules.nature]}`,
  ];
  return {
    lines,
    orderHref: order ? `/commande/${await orderTokenFor(order.id)}` : null,
    waiting: order?.status === "awaiting_payment" && !held,
    held,
    onCancel:
      order?.status === "paid"
        ? depositOnClientCancel(rules.nature, amount, rules.refundAtOnce, paidByCard === true)
        : held && order.status === "awaiting_payment"
          ? // Accepted once the booking is cancelled, or given back by the owner: either way it goes back.
            "Le studio vérifie le paiement par carte qu'il a reçu : si vous annulez, il vous est rendu."
          : order?.status === "awaiting_payment"
            ? depositUnpaidOnCancel(rules.nature, "client")
            : null,
  };
}

/** The part of a booking's balance an amount voucher paid at the studio (decision 0201). */
export type BalanceVoucherPart = { voucherId: string; code: string; amountCents: number };

/**
 * The balance recorded for a booking, once paid (then maybe refunded, in part or whole: one balance a
 * booking, corrected from its order): its order and the money received (0 and no order when an amount
 * voucher paid it all), the means, the voucher's part (decision 0201), and the sentence the owner's booking
 * page shows in place of the form, and her client's page under « Solde reçu » (« 90,00 € réglés le 3
 * février 2027, carte au studio, dont 20,00 € remboursés depuis, et 30,00 € par le bon cadeau
 * ABCD-EFGH-JKLM. »). What was refunded is the money journal's: what left, not what was asked.
 */
export async function recordedBalance(bookingId: string): Promise<{
  orderId: string | null;
  amountCents: number;
  means: OfflineMeans | null;
  voucher: BalanceVoucherPart | null;
  sentence: string;
} | null> {
  const [keyed] = await db()
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, balanceOrderKey(bookingId)));
  const order = keyed?.status === "paid" || keyed?.status === "refunded" ? keyed : undefined;
  const use = await balanceUseOf(db(), bookingId);
  const voucher: BalanceVoucherPart | null = use
    ? { voucherId: use.voucherId, code: use.code, amountCents: use.amountCents }
    : null;
  const byVoucher = voucher
    ? `${formatCents(voucher.amountCents)} par le bon cadeau ${voucher.code}`
    : "";
  if (!order) {
    // Nothing yet, or an entry with money stopped before its payment (its order made, with its voucher's
    // part in the same transaction): the form again, to finish it.
    if (!use || keyed) return null;
    return {
      orderId: null,
      amountCents: 0,
      means: null,
      voucher,
      sentence: `${formatCents(use.amountCents)} réglés le ${formatDateFr(use.at)} par le bon cadeau ${use.code}.`,
    };
  }
  const entries = await db()
    .select({
      kind: moneyJournal.kind,
      method: moneyJournal.method,
      at: moneyJournal.at,
      cents: moneyJournal.amountCents,
    })
    .from(moneyJournal)
    .where(
      and(eq(moneyJournal.orderId, order.id), inArray(moneyJournal.kind, ["payment", "refund"])),
    )
    .orderBy(asc(moneyJournal.seq));
  const payment = entries.find((entry) => entry.kind === "payment");
  const refundedCents = -entries
    .filter((entry) => entry.kind === "refund")
    .reduce((sum, entry) => sum + entry.cents, 0);
  const means = OFFLINE_MEANS.find((candidate) => candidate === payment?.method) ?? null;
  const how = means ? `, ${OFFLINE_MEANS_LABELS[means].toLowerCase()}` : "";
  const refunded =
    order.status === "refunded" || refundedCents >= order.amountCents
      ? ", remboursés depuis"
      : refundedCents > 0
        ? `, dont ${formatCents(refundedCents)} remboursés depuis`
        : "";
  return {
    orderId: order.id,
    amountCents: order.amountCents,
    means,
    voucher,
    sentence: `${formatCents(order.amountCents)} réglés le ${formatDateFr(payment?.at ?? order.paidAt ?? new Date())}${how}${refunded}${byVoucher ? `, et ${byVoucher}` : ""}.`,
  };
}

/** A booking's balance paid at the studio (decision 0186): its order's effects are its invoice only. */
export const balanceOrderKind = defineOrderKind("booking_balance", {
  onPaid: async () => {},
  onReleased: async () => {},
  onRefunded: async () => {},
});

/** What the owner enters in « Solde payé au studio ». */
type BalanceEntry = {
  bookingId: string;
  /** The money she received; 0 when an amount voucher pays the whole balance. */
  amountCents: number;
  means: OfflineMeans;
  /** The part an amount voucher pays (decision 0201): its code as typed, the amount taken from it. */
  voucher?: { code: string; amountCents: number } | null;
};

type RecordedBalance = NonNullable<Awaited<ReturnType<typeof recordedBalance>>>;

/** True when the voucher's part recorded is the one typed (none in both, or the same voucher and amount). */
function samePart(
  recorded: { code: string; amountCents: number } | null,
  typed: BalanceEntry["voucher"],
): boolean {
  if (!recorded || !typed) return !recorded && !typed;
  const parsed = parseVoucherCode(typed.code);
  return (
    parsed.ok &&
    recorded.code === formatVoucherCode(parsed.code) &&
    recorded.amountCents === typed.amountCents
  );
}

/** True when `recorded` is what this entry records (the same form posted again). */
function sameEntry(recorded: RecordedBalance, entry: BalanceEntry): boolean {
  return (
    recorded.amountCents === entry.amountCents &&
    (entry.amountCents === 0 || recorded.means === entry.means) &&
    samePart(recorded.voucher, entry.voucher ?? null)
  );
}

/**
 * The owner records the balance the client paid at the studio (decision 0186): an order of kind
 * `booking_balance` paid « au studio » through the core, which issues its final invoice (the session's
 * whole price less the deposit's invoice, when it had one). Part or all of it may come from an amount
 * voucher (decision 0201): that part is a use of this booking's balance, taken in the order's own
 * transaction, with its own invoice (when the seller charges TVA), which the final invoice deducts; paid
 * whole by the voucher, there is no order and the use's invoice is the balance's. One per booking: a
 * second click finds the first (the order and the use are both keyed by the booking). Refusals in French
 * (PaymentRefusedError).
 */
export async function recordBalancePaid(
  input: BalanceEntry & { voucher?: null },
): Promise<{ orderId: string }>;
export async function recordBalancePaid(input: BalanceEntry): Promise<{ orderId: string | null }>;
export async function recordBalancePaid(input: BalanceEntry): Promise<{ orderId: string | null }> {
  const [row] = await db()
    .select({ booking: bookings, typeName: sessionTypes.name })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .where(eq(bookings.id, input.bookingId));
  if (!row) throw new PaymentRefusedError("not_found");
  const { booking } = row;
  if (booking.state !== "confirmed" && booking.state !== "done") {
    throw new PaymentRefusedError(
      "invalid_order",
      "Le solde s'enregistre pour une séance confirmée ou effectuée.",
    );
  }
  const part = input.voucher ?? null;
  if (
    !Number.isInteger(input.amountCents) ||
    input.amountCents < 0 ||
    (input.amountCents === 0 && !part)
  ) {
    throw new PaymentRefusedError(
      "invalid_order",
      "Indiquez le montant reçu, par exemple 90 ou 89,50.",
    );
  }
  if (part && (!Number.isInteger(part.amountCents) || part.amountCents <= 0)) {
    throw new PaymentRefusedError(
      "invalid_order",
      "Indiquez le montant pris sur le bon cadeau en euros (par exemple 50 ou 49,50).",
    );
  }
  if (!booking.clientEmail) {
    throw new PaymentRefusedError(
      "invalid_order",
      "Ajoutez d'abord l'adresse e-mail du client (« Modifier les coordonnées du client ») : la facture lui est adressée.",
    );
  }
  // Recorded before by another entry: nothing taken from a voucher for it.
  const before = await recordedBalance(booking.id);
  if (before && !sameEntry(before, input)) throw balanceTaken(before);
  const key = balanceOrderKey(booking.id);
  // Every entry's writes hold the booking's row first (then the voucher's order and the voucher, as
  // every use does): two entries of its balance, one by money and one whole by a voucher, cannot both
  // pass.
  const takePart = async (tx: Tx) => {
    if (!part) return;
    const taken = await takeBalanceFromVoucher(tx, {
      code: part.code,
      amountCents: part.amountCents,
      bookingId: booking.id,
      idempotencyKey: key,
    });
    if (!taken.ok) throw new VoucherPartRefusedError(taken.message);
  };
  /**
   * The voucher's part of this entry in a transaction of its own, the booking locked: the same part
   * already taken (the same form again) is this entry's, another part refuses it; else it is taken, unless
   * an entry with money made its order (`orderMayExist` false: paid whole by the voucher).
   */
  const partOnce = (options: { orderMayExist: boolean }) =>
    db().transaction(async (tx) => {
      await lockBooking(tx, booking.id);
      const use = await balanceUseOf(tx, booking.id);
      if (use) {
        if (!samePart(use, part)) throw anotherEntry();
        return;
      }
      if (!options.orderMayExist) {
        const [order] = await tx
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.idempotencyKey, key));
        if (order) throw anotherEntry();
      }
      await takePart(tx);
    });
  let orderId: string | null = null;
  if (input.amountCents === 0) {
    // Paid whole by the voucher: its use alone, unless an entry with money came first (its order,
    // recorded or on its way).
    await partOnce({ orderMayExist: false });
  } else {
    const session = sessionLabel(row.typeName, booking.startsAt);
    const checkout = await createOrder({
      kind: "booking_balance",
      method: "studio",
      buyer: { name: booking.clientName, email: booking.clientEmail, phone: booking.clientPhone },
      termsAcceptedAt: booking.consentAt ?? new Date(),
      rulesSnapshot: {
        bookingId: booking.id,
        startsAt: booking.startsAt.toISOString(),
        // The final invoice's whole-price line, when it deducts the deposit's invoice.
        sessionLabel: session,
      },
      lines: [
        {
          label: `Solde : ${session}`,
          quantity: 1,
          unitPriceCents: input.amountCents,
          vatRate: SESSION_VAT_RATE,
        },
      ],
      idempotencyKey: key,
      studioId: booking.studioId,
      // The voucher's part in the order's own transaction: both exist, or neither (a voucher refused
      // leaves no order behind, an order left by another entry takes nothing from the voucher).
      inTransaction: async (tx) => {
        await lockBooking(tx, booking.id);
        // Paid whole by a voucher meanwhile: this entry is another one.
        if (await balanceUseOf(tx, booking.id)) throw anotherEntry();
        await takePart(tx);
      },
    });
    // Another entry made the order first (recorded before, sent at the same moment, or one that stopped
    // before its payment): paid at its amount, it would record what the owner did not type.
    if (!checkout.created && checkout.amountCents !== input.amountCents) {
      throw balanceTaken(await recordedBalance(booking.id));
    }
    if (!checkout.created) {
      // The same entry again, or one that stopped before its payment: its voucher's part as typed,
      // taken then (with its order) or now; another part is another entry, refused before any payment.
      await partOnce({ orderMayExist: true });
    }
    try {
      await markPaidOffline(checkout.orderId, input.means);
    } catch (error) {
      // The same entry again (a second click): the first recorded it.
      if (!(error instanceof PaymentRefusedError && error.code === "already_paid")) throw error;
    }
    orderId = checkout.orderId;
  }
  // Recorded otherwise by another entry (other means, another voucher or amount): this one says so
  // instead of « Solde enregistré ».
  const recorded = await recordedBalance(booking.id);
  if (!recorded || !sameEntry(recorded, input)) throw balanceTaken(recorded);
  return { orderId };
}

/** The booking's row, locked in `tx`: one entry of its balance at a time. */
const lockBooking = (tx: Tx, bookingId: string) =>
  tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId)).for("update");

/**
 * The use of an amount voucher that paid (part of) the booking's balance (its key: one a booking), read
 * with `executor`, its code as printed; null for none.
 */
async function balanceUseOf(executor: Executor, bookingId: string) {
  const [use] = await executor
    .select({
      voucherId: voucherUses.voucherId,
      code: vouchers.code,
      amountCents: voucherUses.amountCents,
      at: voucherUses.at,
    })
    .from(voucherUses)
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .where(
      and(
        eq(voucherUses.idempotencyKey, balanceOrderKey(bookingId)),
        isNull(voucherUses.cancelledAt),
      ),
    );
  return use ? { ...use, code: formatVoucherCode(use.code ?? "") } : null;
}

/** The refusal of an entry that another one, at the same moment, made before it. */
const anotherEntry = () =>
  new PaymentRefusedError(
    "already_paid",
    "Un autre solde de cette séance vient d'être enregistré : rechargez la page pour le voir.",
  );

/** The voucher's part of a balance refused (unknown code, too little left…): said at the code's field. */
export class VoucherPartRefusedError extends PaymentRefusedError {
  constructor(message: string) {
    super("invalid_order", message);
  }
}

/** The refusal of a balance entry that another one, recorded or on its way, already made. */
function balanceTaken(
  recorded: { sentence: string; orderId: string | null } | null,
): PaymentRefusedError {
  return new PaymentRefusedError(
    "already_paid",
    recorded
      ? `Le solde de cette séance est déjà enregistré : ${recorded.sentence}${recorded.orderId ? " Pour le corriger, ouvrez sa commande." : ""}`
      : "Un autre solde de cette séance est en cours d'enregistrement : rechargez la page pour le voir.",
  );
}
