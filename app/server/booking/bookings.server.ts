import { daytimeDeadline } from "~/lib/booking/deadline";
import { randomUUID } from "node:crypto";
import { and, asc, count, eq, gt, inArray, lte, sql } from "drizzle-orm";
import {
  ACTIVE_STATES,
  isActive,
  type BookingActor,
  type BookingEventKind,
} from "~/lib/booking/model";
import {
  bookingClientSchema,
  bookingQuestionsSchema,
  checkAnswers,
  INTERNAL_NOTE_MAX,
  ownerBookingClientSchema,
  type BookingClient,
} from "~/lib/booking/session-types";
import {
  addParisDays,
  checkSlot,
  horizonLastDay,
  instantOfSlotKey,
  occupiedWindow,
  parisWallRange,
  photographersFreeFor,
  type SlotRules,
} from "~/lib/booking/slots";
import { isUuid } from "~/lib/forms";
import {
  CARD_HOLD_MINUTES,
  acceptanceDepositNotice,
  acceptedDepositMethods,
  depositCents,
  depositMethodOnAcceptance,
  askedDepositOf,
  type DepositRule,
} from "~/lib/booking/deposit";
import type { PaymentMethod } from "~/lib/payments/model";
import { parseVoucherCode } from "~/lib/vouchers/code";
import { readSiteContent } from "../content/site-content.server";
import type { Executor } from "../jobs/queue.server";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import { unprintableFields } from "../pdf/printable.server";
import {
  blockedPeriods,
  bookingEvents,
  bookings,
  photographers,
  photographerStudios,
  sessionTypes,
} from "../db/schema";
import { photographerBusyReasons } from "./agenda.server";
import {
  loadAvailability,
  loadBookingContext,
  slotCalendarOf,
  slotRulesOf,
  type BookingContext,
} from "./availability.server";
import {
  depositFollowsMove,
  depositRequestJob,
  lockDepositOrderOf,
  releaseUnpaidBooking,
  settleDepositOnCancellation,
  ordersFollowClient,
  type DepositOnCancellation,
} from "./deposits.server";
import { closeEndedCheckouts } from "../payments/orders.server";
import { queueBookingMails, queueClientMail } from "./emails.server";
import { looksLikeManageToken, manageTokenFor, manageTokenHash } from "./manage-token.server";
import {
  deleteBookingOccupancies,
  exclusionConflict,
  insertOccupancies,
  isRetryable,
  lockOccupants,
  releaseLapsedRequests,
  type Tx,
} from "./occupancies.server";
import { BookingRefusedError, SlotTakenError, VoucherCodeRefusedError } from "./refusals.server";
import {
  giveBackBookingVoucher,
  payDepositWithAmountVoucher,
  redeemSessionVoucher,
} from "../vouchers/redemption.server";

/*
 * Bookings: made, answered, moved, cancelled, with their history, each in one transaction with what they
 * occupy (decision record 0113). Every refusal a visitor or the owner can cause is a BookingRefusedError
 * (French message, 4xx status); a slot someone else took is a SlotTakenError, decided by PostgreSQL's
 * exclusion constraints, never by a check in code alone. Each change queues its e-mails (emails.server.ts)
 * in its own transaction: the client's, with the `.ics`, and the owner's when the client acted.
 */

export type BookingRecord = typeof bookings.$inferSelect;
export type BookingEventRecord = typeof bookingEvents.$inferSelect;

/** Who acts: the client (from the booking pages or the manage link), or an administrator. */
export type BookingAuthor =
  { actor: "client" } | { actor: "owner"; userId: string | null; name: string };

/**
 * An administrator as a booking's history records her (decision 0138): her account, and her e-mail address
 * rather than the account's name (a login word such as « owner », which nobody reads as a person).
 */
export const ownerAuthor = (admin: {
  id: string;
  email: string;
}): Extract<BookingAuthor, { actor: "owner" }> => ({
  actor: "owner",
  userId: admin.id,
  name: admin.email,
});

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * A booking's deposit order linked while its lock was awaited (its making committed meanwhile, decision
 * 0186): the transaction runs again to take that order's lock before the booking's.
 */
class DepositOrderLinkedMeanwhile extends Error {}

/**
 * Runs a transaction again (twice at most) when PostgreSQL broke a deadlock between two bookings, or when a
 * deposit's order was linked while it waited for its booking.
 */
async function inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db().transaction(work);
    } catch (error) {
      const again = isRetryable(error) || error instanceof DepositOrderLinkedMeanwhile;
      if (attempt >= 3 || !again) throw error;
    }
  }
}

/**
 * Tries the photographers in turn, each in a savepoint, until the database accepts what `occupy` writes for
 * one of them; returns her id. The studio taken, or every photographer taken: SlotTakenError.
 */
async function occupyWithFirstFree(
  tx: Tx,
  photographerIds: readonly string[],
  occupy: (savepoint: Tx, photographerId: string) => Promise<void>,
): Promise<string> {
  for (const photographerId of photographerIds) {
    try {
      await tx.transaction((savepoint) => occupy(savepoint, photographerId));
      return photographerId;
    } catch (error) {
      const conflict = exclusionConflict(error);
      if (conflict === null) throw error;
      if (conflict === "studio") throw new SlotTakenError({ cause: error });
    }
  }
  throw new SlotTakenError();
}

async function addEvent(
  tx: Tx,
  bookingId: string,
  kind: BookingEventKind,
  by: BookingAuthor | { actor: Exclude<BookingActor, "owner">; name: string },
  detail: Record<string, unknown> = {},
): Promise<void> {
  await tx.insert(bookingEvents).values({
    bookingId,
    kind,
    actor: by.actor,
    actorUserId: by.actor === "owner" ? by.userId : null,
    actorName: "name" in by ? by.name : "",
    detail,
  });
}

/** The booking, locked until the transaction ends, with its type's cut-off. */
async function lockBooking(tx: Tx, bookingId: string) {
  if (!isUuid(bookingId)) throw new BookingRefusedError("not_found");
  const [row] = await tx
    .select({ booking: bookings, cutoffHours: sessionTypes.cancellationCutoffHours })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .where(eq(bookings.id, bookingId))
    .for("update", { of: bookings });
  if (!row) throw new BookingRefusedError("not_found");
  return row;
}

/**
 * A booking's row locked after its deposit's order (lockDepositOrderOf), in the order a payment takes them.
 * An order made while this waited for the booking (its making locks the booking's row and commits the link
 * under it) was not locked first: the transaction runs again (inTransaction) rather than take it second.
 */
async function lockBookingAndDeposit(tx: Tx, bookingId: string) {
  const orderId = await lockDepositOrderOf(tx, bookingId);
  const row = await lockBooking(tx, bookingId);
  if (row.booking.depositOrderId !== orderId) throw new DepositOrderLinkedMeanwhile();
  return row;
}

/**
 * How many bookings to come an e-mail address holds: a request, one waiting for its payment (it holds its
 * time) or a confirmed one.
 */
export async function activeBookingsOf(
  email: string,
  now = new Date(),
  executor: Pick<Tx, "select"> = db(),
): Promise<number> {
  const [row] = await executor
    .select({ total: count() })
    .from(bookings)
    .where(
      and(
        sql`lower(${bookings.clientEmail}) = ${email.trim().toLowerCase()}`,
        inArray(bookings.state, [...ACTIVE_STATES]),
        gt(bookings.endsAt, now),
      ),
    );
  return row?.total ?? 0;
}

/**
 * At most `max` bookings to come per e-mail address (the visitor's form), held under any number of posts
 * at once: checked inside the booking's transaction, under a lock of that address taken before any other
 * (decision 0121), so that the second of two posts counts the first one's booking.
 */
async function checkBookingsToCome(tx: Tx, email: string, max: number, now: Date): Promise<void> {
  const address = email.trim().toLowerCase();
  await tx.execute(
    sql`select pg_advisory_xact_lock(${EMAIL_LOCK_SPACE}::int, hashtext(${address}::text))`,
  );
  if ((await activeBookingsOf(address, now, tx)) >= max) {
    throw new BookingRefusedError("too_many_bookings", {
      fieldErrors: {
        email: `Au plus ${max} réservations à venir par adresse e-mail : appelez le studio pour en prendre une autre.`,
      },
    });
  }
}

const NOTE_TOO_LONG = `La note interne fait au plus ${INTERNAL_NOTE_MAX.toLocaleString("fr-FR")} caractères.`;

const UNKNOWN_PHOTOGRAPHER =
  "Cette personne ne photographie pas dans ce studio : choisissez-en une autre.";

/**
 * The photographer the owner chose cannot take this time: refused with what she has then (decision 0138,
 * the reasons of decision 0123), or because she does not work at this studio (or no longer works).
 */
async function refuseChosenPhotographer(
  photographerId: string,
  studioId: string,
  rules: SlotRules,
  slot: string,
  at: { start: number; now: Date },
): Promise<never> {
  const [chosen] = await db()
    .select({ name: photographers.name, active: photographers.active })
    .from(photographers)
    .innerJoin(photographerStudios, eq(photographerStudios.photographerId, photographers.id))
    .where(and(eq(photographers.id, photographerId), eq(photographerStudios.studioId, studioId)));
  if (!chosen?.active) {
    throw new BookingRefusedError("invalid_details", {
      fieldErrors: { photographerId: UNKNOWN_PHOTOGRAPHER },
    });
  }
  const reasons = await photographerBusyReasons({
    studioId,
    photographerId,
    day: slot.slice(0, 10),
    window: occupiedWindow(rules, at.start),
    now: at.now,
  });
  const why =
    reasons.length > 0 ? `${reasons.join(" ; ")}.` : "Son agenda personnel indique un rendez-vous.";
  throw new BookingRefusedError("photographer_busy", {
    message: `${chosen.name} n'est pas libre à cette heure : ${why}`,
    fieldErrors: { photographerId: why },
  });
}

/** The first key of the e-mail addresses' advisory locks (the occupants' are 0x0b00c1 and 0x0b00c2). */
const EMAIL_LOCK_SPACE = 0x0b00c3;

/** A client may change a booking until its type's cut-off before the start; the owner always. */
function checkCutoff(by: BookingAuthor, startsAt: Date, cutoffHours: number, now: Date): void {
  if (by.actor === "client" && now.getTime() > startsAt.getTime() - cutoffHours * HOUR) {
    throw new BookingRefusedError("cutoff");
  }
}

/** The active photographers covering a studio, `first` first when given. */
async function photographersOf(tx: Tx, studioId: string, first?: string): Promise<string[]> {
  const rows = await tx
    .select({ id: photographers.id })
    .from(photographers)
    .innerJoin(photographerStudios, eq(photographerStudios.photographerId, photographers.id))
    .where(and(eq(photographerStudios.studioId, studioId), eq(photographers.active, true)))
    .orderBy(asc(photographers.position), asc(photographers.createdAt));
  const ids = rows.map((row) => row.id);
  return first ? [first, ...ids.filter((id) => id !== first)] : ids;
}

/**
 * The free photographers in the order a booking should try them (decision 0123): the one already at this
 * studio that day (a session or a blocked time there: she stays, no travel), then the one who covers fewer
 * studios (a photographer of every studio stays free for the others), then the owner's order (the order
 * given). Sending every booking to the first of the list filled the day of the photographer of three
 * studios, whose travel margins then closed the other studios.
 */
async function inPreferredOrder(
  candidates: readonly string[],
  studioId: string,
  day: string,
): Promise<string[]> {
  if (candidates.length < 2) return [...candidates];
  const { start } = parisWallRange(day, "00:00", "00:00");
  const end = parisWallRange(addParisDays(day, 1), "00:00", "00:00").start;
  const rows = await db().execute<{ id: string; here: boolean; studios: number }>(sql`
    select candidate.id::text as id,
      exists (
        select 1 from booking_occupancies o
        where o.photographer_id = candidate.id and o.studio_id = ${studioId}::uuid and o.real
          and o.during && tstzrange(${new Date(start).toISOString()}::timestamptz,
                                    ${new Date(end).toISOString()}::timestamptz)
      ) as here,
      (select count(*)::int from photographer_studios ps where ps.photographer_id = candidate.id) as studios
    from unnest(array[${sql.join(
      candidates.map((id) => sql`${id}`),
      sql`, `,
    )}]::uuid[]) as candidate(id)`);
  const facts = new Map(rows.rows.map((row) => [row.id, row]));
  const rank = (id: string) => {
    const fact = facts.get(id);
    return [fact?.here ? 0 : 1, fact?.studios ?? 0] as const;
  };
  // A stable sort: equal ranks keep the owner's order.
  return [...candidates].sort((a, b) => {
    const [hereA, studiosA] = rank(a);
    const [hereB, studiosB] = rank(b);
    return hereA - hereB || studiosA - studiosB;
  });
}

/**
 * Where a start can go, and who is free for it. A client's start is checked against every rule of the
 * session type (checkSlot); the owner's (a booking by phone, a move) only has to be a real Paris time.
 */
async function resolveStart(
  context: BookingContext,
  rules: SlotRules,
  slot: string,
  by: BookingAuthor,
  now: Date,
  exceptBookingId?: string,
): Promise<{ start: number; photographerIds: string[] }> {
  const parsed = instantOfSlotKey(slot);
  if (typeof parsed === "string") throw new BookingRefusedError(parsed);
  // Past the type's horizon a client's time is refused before anything is read (decision 0122).
  if (by.actor === "client" && parsed.day > horizonLastDay(rules, now)) {
    throw new BookingRefusedError("horizon");
  }
  const availability = await loadAvailability(
    context,
    { fromDay: parsed.day, toDay: parsed.day },
    now,
    { exceptBookingId },
  );
  if (by.actor === "owner") {
    const free = photographersFreeFor(availability, occupiedWindow(rules, parsed.start));
    return {
      start: parsed.start,
      photographerIds: await inPreferredOrder(free, context.studio.id, parsed.day),
    };
  }
  const check = checkSlot({ rules, calendar: slotCalendarOf(context), availability, now }, slot);
  if (!check.ok) {
    throw check.refusal === "taken" ? new SlotTakenError() : new BookingRefusedError(check.refusal);
  }
  return {
    start: check.slot.start.getTime(),
    photographerIds: await inPreferredOrder(
      check.slot.photographerIds,
      context.studio.id,
      parsed.day,
    ),
  };
}

export type NewBooking = {
  studioId: string;
  sessionTypeId: string;
  /** The chosen start as a slot key, Paris wall time « 2026-03-29T10:30 » (FreeSlot.key). */
  slot: string;
  client: BookingClient;
  /** Answers to the type's questions, by question id (« oui »/« non » or true/false for yes/no). */
  answers?: Readonly<Record<string, unknown>>;
  /** When the client accepted the terms; required from a client, null for the owner's bookings. */
  consentAt: Date | null;
  /** The secret of a private type's link. */
  privateToken?: string | null;
  /** Default: the client. The owner's booking skips the type's rules (hours, notice, step) and is confirmed. */
  by?: BookingAuthor;
  /** At most this many bookings to come with the client's e-mail address (the visitor's form's rule). */
  maxBookingsToCome?: number;
  /**
   * The owner's choice of photographer: she must cover the studio and be free then, else a refusal that
   * says why (decision 0138); else the first free one in the preferred order (decision 0123).
   */
  photographerId?: string;
  /** The owner's note, shown on the booking's page only (decision 0138). */
  internalNote?: string;
  /** False: the owner books silently, no e-mail to the client about this booking (decision 0138). */
  notifyClient?: boolean;
  /**
   * A session voucher's code as typed (decision 0170): redeemed in the booking's own transaction, so the
   * booking and the voucher's use are made together or not at all; refused: VoucherCodeRefusedError.
   */
  voucherCode?: string;
  /**
   * How the client pays the type's deposit (decision 0186), one of the methods it allows. A card or a
   * transfer makes the booking `awaiting_payment`, holding its slot for the payment window.
   */
  paymentMethod?: string;
  /**
   * The SHA-256 of the visitor's form's key, stored on the booking in its transaction: a second post of
   * the same form finds this booking (visitor-form.server.ts). None by phone.
   */
  formKeyHash?: string | null;
  /** The SHA-256 of what that form posted, kept with its key (visitor-form.server.ts). */
  requestFingerprint?: string | null;
  now?: Date;
};

export type CreatedBooking = {
  id: string;
  state: "pending" | "confirmed" | "awaiting_payment";
  startsAt: Date;
  endsAt: Date;
  photographerId: string;
  /** A request's answer deadline (the slot is held until then), else null. */
  respondBy: Date | null;
  /** The raw manage token for /reservation/{token}: returned this once, stored only hashed. */
  manageToken: string;
  /** The deposit to ask for now (decision 0186), null: none (none set, a request, a voucher, the owner). */
  deposit: { rule: DepositRule; method: PaymentMethod; cents: number } | null;
};

/**
 * A booking's client as the booking forms check her (the visitor's, the owner's by phone, the owner's
 * correction of a booking): the visitor's schema, or the owner's, where the e-mail may be left empty
 * (decision 0138); then her name, the buyer of her booking's invoices (deposit, balance), refused when the
 * invoices' fonts cannot print it: an invoice can never be drawn nor changed once issued. Field errors by
 * field name, and the parsed client when its schema accepted it.
 */
async function checkClient(
  input: BookingClient,
  byOwner: boolean,
): Promise<{ client: ParsedClient | null; fieldErrors: Record<string, string> }> {
  const fieldErrors: Record<string, string> = {};
  const parsed = (byOwner ? ownerBookingClientSchema : bookingClientSchema).safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
  }
  // Said with the other fields' errors: a form corrected once, not once per message.
  const name = bookingClientSchema.shape.name.safeParse(input.name);
  if (name.success) {
    Object.assign(fieldErrors, await unprintableFields({ name: name.data }, "la facture"));
  }
  return { client: parsed.success ? parsed.data : null, fieldErrors };
}
/** A client as her schema answers it: trimmed, each on one line, the phone "" when not given. */
type ParsedClient = { name: string; email: string; phone: string };

/**
 * Books a slot: checks the studio, the type (private link), the client's details and answers, the start
 * against the type's rules (past, notice, horizon, step, hours, closures, clock-change gap), then writes
 * the booking, its occupancies and its first history line in one transaction with the first photographer
 * the database accepts. A request (type in « demande » mode) is `pending` and holds its slot until its
 * answer deadline. Refusals: BookingRefusedError; the slot taken: SlotTakenError.
 */
export async function createBooking(input: NewBooking): Promise<CreatedBooking> {
  const now = input.now ?? new Date();
  const by = input.by ?? { actor: "client" };
  const byOwner = by.actor === "owner";
  const context = await loadBookingContext(input.studioId, input.sessionTypeId, {
    privateToken: input.privateToken,
    allowHidden: byOwner,
  });
  const { sessionType } = context;

  const { client, fieldErrors } = await checkClient(input.client, byOwner);
  const questions = bookingQuestionsSchema.safeParse(sessionType.questions);
  const checked = checkAnswers(questions.success ? questions.data : [], input.answers ?? {});
  for (const [id, message] of Object.entries(checked.errors))
    fieldErrors[`answers.${id}`] = message;
  if (!byOwner && !input.consentAt) {
    fieldErrors.consent = "Veuillez accepter les conditions de réservation.";
  }
  if (input.photographerId !== undefined && !isUuid(input.photographerId)) {
    fieldErrors.photographerId = UNKNOWN_PHOTOGRAPHER;
  }
  const typedCode = (input.voucherCode ?? "").trim();
  const parsedCode = typedCode ? parseVoucherCode(typedCode) : null;
  if (parsedCode && !parsedCode.ok) fieldErrors.voucherCode = parsedCode.message;
  // The type's deposit (decision 0186), due from a client (the owner's phone bookings ask none): asked at
  // once without a voucher; a request is asked once accepted; a session voucher pays the whole session,
  // an amount voucher the deposit (decision 0199).
  const depositRule = byOwner ? null : askedDepositOf(sessionType.deposit);
  const depositAsked = depositRule !== null && !typedCode;
  // A request's client chooses her method now; she pays once the owner accepts.
  const paymentMethod = depositAsked
    ? depositRule.methods.find((method) => method === input.paymentMethod)
    : undefined;
  if (depositAsked && !paymentMethod) {
    fieldErrors.paymentMethod = "Choisissez l'un des moyens de paiement proposés.";
  }
  const internalNote = byOwner ? (input.internalNote ?? "").trim() : "";
  if (internalNote.length > INTERNAL_NOTE_MAX) {
    fieldErrors.internalNote = NOTE_TOO_LONG;
  }
  if (!client || Object.keys(fieldErrors).length > 0) {
    throw new BookingRefusedError("invalid_details", { fieldErrors });
  }

  const rules = slotRulesOf(sessionType);
  const resolved = await resolveStart(context, rules, input.slot, by, now);
  if (input.photographerId && !resolved.photographerIds.includes(input.photographerId)) {
    await refuseChosenPhotographer(input.photographerId, context.studio.id, rules, input.slot, {
      start: resolved.start,
      now,
    });
  }
  const candidates = input.photographerId ? [input.photographerId] : resolved.photographerIds;
  if (candidates.length === 0) throw new SlotTakenError();
  // No e-mail without an address, nor when the owner books silently (decision 0138).
  const mailClient = client.email !== "" && input.notifyClient !== false;

  const startsAt = new Date(resolved.start);
  const endsAt = new Date(resolved.start + rules.durationMinutes * MINUTE);
  const isRequest = !byOwner && sessionType.mode === "request";
  // The owner answers before the deadline, and in any case before the session; never in the night (0125).
  // A card or a transfer holds the slot for its payment window, never beyond the start (decision 0186).
  const awaitsPayment = !isRequest && (paymentMethod === "card" || paymentMethod === "transfer");
  const paymentWindow =
    paymentMethod === "card"
      ? CARD_HOLD_MINUTES * MINUTE
      : (depositRule?.transferHours ?? 0) * HOUR;
  const respondBy = isRequest
    ? daytimeDeadline(
        new Date(
          Math.min(now.getTime() + sessionType.responseDeadlineHours * HOUR, resolved.start),
        ),
        startsAt,
      )
    : awaitsPayment
      ? new Date(Math.min(now.getTime() + paymentWindow, resolved.start))
      : null;
  const state = isRequest ? "pending" : awaitsPayment ? "awaiting_payment" : "confirmed";
  const id = randomUUID();
  // Derived from the id (decision 0115): later e-mails can give the link again; only its hash is stored.
  const manageToken = await manageTokenFor(id);

  const created = await inTransaction(async (tx) => {
    if (input.maxBookingsToCome !== undefined) {
      await checkBookingsToCome(tx, client.email, input.maxBookingsToCome, now);
    }
    await lockOccupants(tx, { studioIds: [context.studio.id], photographerIds: candidates });
    await releaseLapsedRequests(tx, now);
    const photographerId = await occupyWithFirstFree(tx, candidates, async (savepoint, chosen) => {
      await savepoint.insert(bookings).values({
        id,
        sessionTypeId: sessionType.id,
        studioId: context.studio.id,
        photographerId: chosen,
        startsAt,
        endsAt,
        bufferBeforeMinutes: rules.bufferBeforeMinutes,
        bufferAfterMinutes: rules.bufferAfterMinutes,
        state,
        respondBy,
        source: by.actor,
        clientName: client.name,
        clientEmail: client.email,
        clientPhone: client.phone,
        internalNote,
        clientMail: mailClient,
        answers: checked.answers,
        consentAt: input.consentAt,
        depositRules: depositAsked ? depositRule : null,
        manageTokenHash: manageTokenHash(manageToken),
        idempotencyKey: input.formKeyHash ?? null,
        requestFingerprint: input.requestFingerprint ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await insertOccupancies(savepoint, {
        owner: { bookingId: id },
        photographerId: chosen,
        studioId: context.studio.id,
        start: startsAt,
        end: endsAt,
        bufferBeforeMinutes: rules.bufferBeforeMinutes,
        bufferAfterMinutes: rules.bufferAfterMinutes,
        holdsUntil: respondBy,
      });
    });
    // After the slot is won (a taken slot never touches the voucher), before anything is mailed.
    let voucherCode: string | null = null;
    if (typedCode) {
      let redeemed = await redeemSessionVoucher(tx, {
        code: typedCode,
        sessionTypeId: sessionType.id,
        studioId: context.studio.id,
        bookingId: id,
        by: byOwner ? "owner" : "client",
      });
      // An amount voucher pays the deposit, all of it (decision 0199): the booking keeps the deposit's
      // rules she accepted, as one paid otherwise does.
      if (!redeemed.ok && redeemed.reason === "not_session" && depositRule) {
        await tx.update(bookings).set({ depositRules: depositRule }).where(eq(bookings.id, id));
        redeemed = await payDepositWithAmountVoucher(tx, {
          code: typedCode,
          depositCents: depositCents(depositRule),
          bookingId: id,
        });
      }
      if (!redeemed.ok) throw new VoucherCodeRefusedError(redeemed.reason, redeemed.message);
      voucherCode = redeemed.voucher.code;
    }
    await addEvent(
      tx,
      id,
      isRequest ? "requested" : "booked",
      byOwner ? by : { actor: "client", name: client.name },
      {
        ...(mailClient ? {} : { clientMail: client.email === "" ? "no_address" : "not_sent" }),
        ...(voucherCode ? { voucherCode } : {}),
        ...(paymentMethod ? { paymentMethod } : {}),
      },
    );
    // Awaiting its payment, the booking is not made yet: its e-mails go when paid (decision 0186).
    if (!awaitsPayment) {
      await queueBookingMails(tx, id, isRequest ? "requested" : "booked", by.actor, {
        toClient: mailClient,
      });
    }
    return { id, photographerId };
  });
  const deposit =
    depositRule && paymentMethod && !isRequest
      ? { rule: depositRule, method: paymentMethod, cents: depositCents(depositRule) }
      : null;
  return { ...created, state, startsAt, endsAt, respondBy, manageToken, deposit };
}

/**
 * The owner accepts a request: it becomes `confirmed` and holds its time for good, or `awaiting_payment`
 * when a deposit is now asked of the client (its link by e-mail: refused while she has no address). A
 * request past its answer deadline has let its time go; it takes it again if still free, else
 * SlotTakenError (another booking came meanwhile: two requests for one time can exist only that way).
 * Answers the state it is left in.
 */
export async function acceptRequest(
  bookingId: string,
  by: Extract<BookingAuthor, { actor: "owner" }>,
  now = new Date(),
): Promise<"confirmed" | "awaiting_payment"> {
  return inTransaction(async (tx) => {
    const { booking } = await lockBooking(tx, bookingId);
    if (booking.state === "expired") throw new BookingRefusedError("expired");
    if (booking.state !== "pending") throw new BookingRefusedError("not_pending");
    // A deposit is asked only now (decision 0186): by card or transfer the booking waits for it, its
    // slot held for the owner's transfer hours (the client reads the e-mail first), never past the start.
    const requested = booking.depositRules ? await requestedMethod(tx, booking.id) : null;
    // The way she chose may be one the owner no longer takes (her payment settings changed since): the
    // deposit is asked another way of the type she takes, never by a way that leads to a dead end; none
    // left, the request is not accepted online (decision 0186, amended 2026-12-02).
    const method =
      booking.depositRules && requested
        ? depositMethodOnAcceptance(
            booking.depositRules,
            requested,
            acceptedDepositMethods((await readSiteContent()).documents.payments),
          )
        : null;
    if (requested !== null && method === null) {
      throw new BookingRefusedError("deposit_unpayable");
    }
    // Its order names its buyer by her address: none, the job making it would fail for good.
    if (method !== null && booking.clientEmail.trim() === "") {
      throw new BookingRefusedError("deposit_needs_email");
    }
    const payUntil =
      booking.depositRules && (method === "card" || method === "transfer")
        ? new Date(
            Math.min(
              now.getTime() + booking.depositRules.transferHours * HOUR,
              booking.startsAt.getTime(),
            ),
          )
        : null;
    const candidates = await photographersOf(tx, booking.studioId, booking.photographerId);
    await lockOccupants(tx, { studioIds: [booking.studioId], photographerIds: candidates });
    await releaseLapsedRequests(tx, now);
    const held = await tx.execute(
      sql`update booking_occupancies set holds_until = ${payUntil?.toISOString() ?? null}::timestamptz
        where booking_id = ${booking.id}::uuid`,
    );
    if (!held.rowCount) {
      const photographerId = await occupyWithFirstFree(tx, candidates, (savepoint, chosen) =>
        insertOccupancies(savepoint, {
          owner: { bookingId: booking.id },
          photographerId: chosen,
          studioId: booking.studioId,
          start: booking.startsAt,
          end: booking.endsAt,
          bufferBeforeMinutes: booking.bufferBeforeMinutes,
          bufferAfterMinutes: booking.bufferAfterMinutes,
          holdsUntil: payUntil,
        }),
      );
      if (photographerId !== booking.photographerId) {
        await tx.update(bookings).set({ photographerId }).where(eq(bookings.id, booking.id));
      }
    }
    // The client's calendar turns the tentative event into a confirmed one: a new SEQUENCE.
    await tx
      .update(bookings)
      .set({
        state: payUntil ? "awaiting_payment" : "confirmed",
        ...(payUntil ? { respondBy: payUntil } : {}),
        icsSequence: booking.icsSequence + 1,
        updatedAt: now,
      })
      .where(eq(bookings.id, booking.id));
    await addEvent(
      tx,
      booking.id,
      "accepted",
      by,
      method && method !== requested ? { paymentMethod: method } : {},
    );
    // With a deposit the e-mail waits for its order, whose link it carries: both made by a job once
    // this commits (the order may ask the card provider for its checkout).
    if (method) await depositRequestJob.send({ bookingId: booking.id, method }, { tx });
    else await queueBookingMails(tx, booking.id, "accepted", "owner");
    return payUntil ? "awaiting_payment" : "confirmed";
  });
}

/**
 * What the owner reads above « Accepter la demande » of a request whose client chose a way of paying its
 * deposit she no longer takes (decision 0186, amended 2026-12-02): what accepting will ask instead, or that
 * nothing can pay it. Null when the way still works, or for a request without a deposit.
 */
export async function depositAcceptanceNotice(bookingId: string): Promise<string | null> {
  const [booking] = await db()
    .select({ state: bookings.state, rules: bookings.depositRules })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (booking?.state !== "pending" || !booking.rules) return null;
  const requested = await requestedMethod(db(), bookingId);
  if (!requested) return null;
  const accepted = acceptedDepositMethods((await readSiteContent()).documents.payments);
  return acceptanceDepositNotice(booking.rules, requested, accepted);
}

/** The method the client chose when she asked (her request's history line). */
async function requestedMethod(tx: Executor, bookingId: string): Promise<PaymentMethod | null> {
  const [row] = await tx
    .select({ detail: bookingEvents.detail })
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, "requested")));
  const method = row?.detail.paymentMethod;
  return method === "card" || method === "transfer" || method === "studio" ? method : null;
}

/**
 * Requests left unanswered past their deadline expire: their time is free (it already no longer counted
 * for the free slots), the client is told the studio could not answer in time and may book again, the owner
 * is told too. From the reminders' job every 5 minutes (booking/jobs.server.ts); a request being answered at
 * that instant is locked and skipped, and answered. Until the job passes, a late acceptance still takes its
 * time if free (acceptRequest). Returns how many expired.
 *
 * One transaction per request: one that cannot be expired (a bug, unexpected data) is logged and left for
 * the next pass, and holds back none of the others; and a request's voucher given back (a credit note, its
 * order locked) never waits with the previous one's locks still held.
 */
export async function expireLapsedRequests(now = new Date()): Promise<number> {
  const lapsed = await db()
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(inArray(bookings.state, ["pending", "awaiting_payment"]), lte(bookings.respondBy, now)),
    )
    .orderBy(asc(bookings.respondBy))
    .limit(200);
  let expired = 0;
  for (const { id } of lapsed) {
    try {
      if (await expireLapsedRequest(id, now)) expired += 1;
    } catch (error) {
      log.error("booking_expiry_failed", { bookingId: id, error });
    }
  }
  return expired;
}

/** Expires one lapsed request, in its own transaction; false when it was answered or locked meanwhile. */
function expireLapsedRequest(bookingId: string, now: Date): Promise<boolean> {
  return inTransaction(async (tx) => {
    const [booking] = await tx
      .select({
        id: bookings.id,
        icsSequence: bookings.icsSequence,
        state: bookings.state,
        clientMail: bookings.clientMail,
      })
      .from(bookings)
      .where(
        and(
          eq(bookings.id, bookingId),
          inArray(bookings.state, ["pending", "awaiting_payment"]),
          lte(bookings.respondBy, now),
        ),
      )
      .for("update", { skipLocked: true });
    if (!booking) return false;
    // A deposit's payment window closed (decision 0186): freed, the client told nothing was charged.
    if (booking.state === "awaiting_payment") {
      await releaseUnpaidBooking(tx, booking);
      return true;
    }
    await endRequest(tx, booking, "expired", { actor: "system", name: "" }, { now });
    return true;
  });
}

/**
 * A request that will not take place, declined by the owner or lapsed unanswered: its time is free, its
 * voucher comes back (decision 0170), its history says so and both sides are told.
 */
async function endRequest(
  tx: Tx,
  booking: { id: string; icsSequence: number },
  state: "expired" | "declined",
  by: Extract<BookingAuthor, { actor: "owner" }> | { actor: "system"; name: string },
  { now, detail = {} }: { now: Date; detail?: Record<string, unknown> },
): Promise<void> {
  await deleteBookingOccupancies(tx, booking.id);
  await giveBackBookingVoucher(tx, booking.id);
  await tx
    .update(bookings)
    .set({ state, icsSequence: booking.icsSequence + 1, updatedAt: now })
    .where(eq(bookings.id, booking.id));
  await addEvent(tx, booking.id, state, by, detail);
  await queueBookingMails(tx, booking.id, state, by.actor);
}

/** The owner declines a request, with an optional message for the client: its time is free at once. */
export async function declineRequest(
  bookingId: string,
  by: Extract<BookingAuthor, { actor: "owner" }>,
  options: { message?: string; now?: Date } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  await inTransaction(async (tx) => {
    const { booking } = await lockBooking(tx, bookingId);
    if (booking.state === "expired") throw new BookingRefusedError("expired");
    if (booking.state !== "pending") throw new BookingRefusedError("not_pending");
    await endRequest(tx, booking, "declined", by, { now, detail: messageDetail(options.message) });
  });
}

const messageDetail = (message: string | undefined) =>
  message?.trim() ? { message: message.trim().slice(0, 2000) } : {};

/**
 * Cancels a booking or a request (the client until the type's cut-off, the owner always): its time is free
 * at once; the calendar event's SEQUENCE grows (the e-mail's `.ics` says STATUS:CANCELLED). Returns the new
 * SEQUENCE.
 */
export async function cancelBooking(
  bookingId: string,
  by: BookingAuthor,
  options: { message?: string; now?: Date } = {},
): Promise<{ icsSequence: number; mailed: boolean; deposit: DepositOnCancellation }> {
  const now = options.now ?? new Date();
  return inTransaction(async (tx) => {
    const { booking, cutoffHours } = await lockBooking(tx, bookingId);
    if (!isActive(booking.state)) throw new BookingRefusedError("not_active");
    checkCutoff(by, booking.startsAt, cutoffHours, now);
    await deleteBookingOccupancies(tx, booking.id);
    // A session voucher comes back when the booking is called off before the cut-off, whoever cancels;
    // later, as after a no-show, it stays used (decision 0170). A deposit an amount voucher paid comes
    // back too whenever the studio cancels, as a deposit paid in money is refunded then (decision 0199).
    if (now.getTime() <= booking.startsAt.getTime() - cutoffHours * HOUR) {
      await giveBackBookingVoucher(tx, booking.id);
    } else if (by.actor === "owner") {
      await giveBackBookingVoucher(tx, booking.id, { amountOnly: true });
    }
    const icsSequence = booking.icsSequence + 1;
    await tx
      .update(bookings)
      .set({ state: "cancelled", icsSequence, updatedAt: now })
      .where(eq(bookings.id, booking.id));
    await addEvent(
      tx,
      booking.id,
      "cancelled",
      by.actor === "client" ? { actor: "client", name: booking.clientName } : by,
      messageDetail(options.message),
    );
    const mailed = by.actor !== "client" || (await clientMailAllowed(tx, booking.id, now));
    await queueBookingMails(tx, booking.id, "cancelled", by.actor, { toClient: mailed });
    const inTime = now.getTime() <= booking.startsAt.getTime() - cutoffHours * HOUR;
    // Its deposit (decision 0186): a refund is queued here and asked of the provider once this commits.
    const deposit = await settleDepositOnCancellation(tx, booking.id, by.actor, inTime);
    return { icsSequence, mailed, deposit };
  });
}

/** Moves a client may make of one booking in 24 hours (decision 0123); then she calls the studio. */
export const MAX_CLIENT_MOVES_PER_DAY = 3;
/**
 * E-mails a client's own actions (booking, moving, cancelling) may send in 24 hours to an address not yet
 * confirmed (decision 0123): a booking made with someone else's address must not flood her mailbox.
 */
export const MAX_CLIENT_MAILS_PER_DAY_UNCONFIRMED = 4;

/**
 * Whether the client's e-mail for what she just did may go: yes to a confirmed address (one the owner knows:
 * a booking she took or accepted for it, or a session done), else while the address's bookings have had
 * at most MAX_CLIENT_MAILS_PER_DAY_UNCONFIRMED client actions in 24 hours (this one included:
 * called after its history line).
 */
async function clientMailAllowed(tx: Tx, bookingId: string, now: Date): Promise<boolean> {
  const result = await tx.execute<{ confirmed: boolean; recent: number }>(sql`
    with address as (select lower(client_email) as email from bookings where id = ${bookingId}::uuid),
    same as (
      select b.id, b.state, b.source from bookings b, address where lower(b.client_email) = address.email
    )
    select
      exists (
        select 1 from same
        where same.state = 'done' or same.source = 'owner'
           or exists (select 1 from booking_events e where e.booking_id = same.id and e.kind = 'accepted')
      ) as confirmed,
      (select count(*)::int from booking_events e join same on same.id = e.booking_id
        where e.actor = 'client' and e.kind in ('booked', 'requested', 'moved', 'cancelled')
          and e.at > ${now.toISOString()}::timestamptz - interval '24 hours') as recent`);
  const row = result.rows[0];
  return Boolean(row?.confirmed) || (row?.recent ?? 0) <= MAX_CLIENT_MAILS_PER_DAY_UNCONFIRMED;
}

/** A client's moves of one booking in the last 24 hours. */
async function recentClientMoves(tx: Tx, bookingId: string, now: Date): Promise<number> {
  const result = await tx.execute<{ count: number }>(sql`
    select count(*)::int as count from booking_events
    where booking_id = ${bookingId}::uuid and kind = 'moved' and actor = 'client'
      and at > ${now.toISOString()}::timestamptz - interval '24 hours'`);
  return result.rows[0]?.count ?? 0;
}

/**
 * Moves a booking (or a request) to another start, at its studio or, for the owner, another one offering
 * its type: the same booking, its SEQUENCE + 1, its occupancies replaced in one transaction (it never stands
 * in its own way). A client's new start follows the type's rules and the cut-off applies to the current
 * one. Keeps the booking's own duration and buffers. The new time taken: SlotTakenError, nothing changed.
 */
export async function moveBooking(
  bookingId: string,
  to: { slot: string; studioId?: string },
  by: BookingAuthor,
  now = new Date(),
): Promise<{
  startsAt: Date;
  endsAt: Date;
  icsSequence: number;
  photographerId: string;
  /** False when the client's e-mail was not sent (decision 0123: too many to an unconfirmed address). */
  mailed: boolean;
}> {
  if (!isUuid(bookingId)) throw new BookingRefusedError("not_found");
  const [current] = await db().select().from(bookings).where(eq(bookings.id, bookingId));
  if (!current) throw new BookingRefusedError("not_found");
  if (!isActive(current.state)) throw new BookingRefusedError("not_active");
  const studioId = by.actor === "owner" && to.studioId ? to.studioId : current.studioId;
  const context = await loadBookingContext(studioId, current.sessionTypeId, { allowHidden: true });
  const rules: SlotRules = {
    ...slotRulesOf(context.sessionType),
    durationMinutes: (current.endsAt.getTime() - current.startsAt.getTime()) / MINUTE,
    bufferBeforeMinutes: current.bufferBeforeMinutes,
    bufferAfterMinutes: current.bufferAfterMinutes,
  };
  checkCutoff(by, current.startsAt, context.sessionType.cancellationCutoffHours, now);
  const resolved = await resolveStart(context, rules, to.slot, by, now, current.id);
  const startsAt = new Date(resolved.start);
  const endsAt = new Date(resolved.start + rules.durationMinutes * MINUTE);
  // Her own photographer first when she is free there.
  const candidates = resolved.photographerIds.includes(current.photographerId)
    ? [
        current.photographerId,
        ...resolved.photographerIds.filter((id) => id !== current.photographerId),
      ]
    : resolved.photographerIds;
  if (candidates.length === 0) throw new SlotTakenError();

  const { endedCheckouts, ...moved } = await inTransaction(async (tx) => {
    // Its deposit's order first, as a payment takes them: an unpaid one follows the move (below). One
    // being made meanwhile waits for this move and reads the booking after it (createDepositOrder).
    const { booking } = await lockBookingAndDeposit(tx, bookingId);
    if (!isActive(booking.state)) throw new BookingRefusedError("not_active");
    // A request or a payment no longer awaited (its deadline passed; the sweep that expires it runs every
    // few minutes): nothing is held for it any more, and the move would write a hold already lapsed.
    if (
      (booking.state === "pending" || booking.state === "awaiting_payment") &&
      booking.respondBy &&
      booking.respondBy <= now
    ) {
      throw new BookingRefusedError("hold_lapsed");
    }
    if (
      by.actor === "client" &&
      (await recentClientMoves(tx, booking.id, now)) >= MAX_CLIENT_MOVES_PER_DAY
    ) {
      throw new BookingRefusedError("too_many_moves");
    }
    await lockOccupants(tx, {
      studioIds: [booking.studioId, studioId],
      photographerIds: [booking.photographerId, ...candidates],
    });
    await releaseLapsedRequests(tx, now);
    await deleteBookingOccupancies(tx, booking.id);
    // A request's answer or a deposit's payment is awaited until its deadline, never beyond the start
    // (as when it was made): moved sooner, its hold ends at the new start.
    const respondBy =
      booking.respondBy && booking.respondBy > startsAt ? startsAt : booking.respondBy;
    const photographerId = await occupyWithFirstFree(tx, candidates, (savepoint, chosen) =>
      insertOccupancies(savepoint, {
        owner: { bookingId: booking.id },
        photographerId: chosen,
        studioId,
        start: startsAt,
        end: endsAt,
        bufferBeforeMinutes: booking.bufferBeforeMinutes,
        bufferAfterMinutes: booking.bufferAfterMinutes,
        holdsUntil:
          booking.state === "pending" || booking.state === "awaiting_payment" ? respondBy : null,
      }),
    );
    const icsSequence = booking.icsSequence + 1;
    await tx
      .update(bookings)
      .set({ startsAt, endsAt, studioId, photographerId, icsSequence, respondBy, updatedAt: now })
      .where(eq(bookings.id, booking.id));
    // Its deposit not paid yet: its order, and the invoice it will have, name the new time and studio
    // (decision 0186); its card checkouts naming the old time end, closed at the provider below.
    const endedCheckouts = await depositFollowsMove(tx, booking, { startsAt, studioId }, now);
    await addEvent(
      tx,
      booking.id,
      "moved",
      by.actor === "client" ? { actor: "client", name: booking.clientName } : by,
      {
        from: booking.startsAt.toISOString(),
        to: startsAt.toISOString(),
        ...(studioId !== booking.studioId && {
          fromStudioId: booking.studioId,
          toStudioId: studioId,
        }),
      },
    );
    const mailed = by.actor !== "client" || (await clientMailAllowed(tx, booking.id, now));
    await queueBookingMails(tx, booking.id, "moved", by.actor, { toClient: mailed });
    return { startsAt, endsAt, icsSequence, photographerId, mailed, endedCheckouts };
  });
  // Once the move commits: a payment made on one of them meanwhile is applied (the booking confirmed at
  // its new time); one the provider cannot close now, the expiry job closes.
  await closeEndedCheckouts(endedCheckouts);
  return moved;
}

/**
 * The owner writes or rewrites a booking's internal note (decision 0138), whatever its state: it is hers,
 * seen on the booking's page only. Too long: a refusal naming the field.
 */
export async function setInternalNote(bookingId: string, note: string): Promise<void> {
  const internalNote = note.trim();
  if (internalNote.length > INTERNAL_NOTE_MAX) {
    throw new BookingRefusedError("invalid_details", {
      fieldErrors: {
        internalNote: NOTE_TOO_LONG,
      },
    });
  }
  if (!isUuid(bookingId)) throw new BookingRefusedError("not_found");
  const updated = await db()
    .update(bookings)
    .set({ internalNote })
    .where(eq(bookings.id, bookingId))
    .returning({ id: bookings.id });
  if (updated.length === 0) throw new BookingRefusedError("not_found");
}

/** What a correction of a booking's client did: whether anything changed, and where its recap goes. */
export type ClientCorrection = {
  changed: boolean;
  /** The address now (empty: none, the site no longer writes to the client). */
  email: string;
  emailChanged: boolean;
  recapTo: string | null;
};

/**
 * The owner corrects a booking's client, whatever its state (a typo in her name, an e-mail that never
 * reached her, a name the invoices cannot print): her name, e-mail and phone checked as the owner's phone
 * booking checks them (checkClient; the visitors' limit of bookings per address is not the owner's). In one
 * transaction, in the order a deposit's payment takes them (its order, then the booking): the booking, its
 * orders (ordersFollowClient: the unpaid ones her details, the paid ones her address; issued invoices keep
 * their own buyer), and a history line
 * keeping the details before and after. Nothing changed: nothing written. A new address of a booking still
 * to come gets the booking's recap with its link when `sendRecap` (once per address: a second submit queues
 * nothing), and the site writes to the client again; an emptied address stops its e-mails. A booking
 * erased by the retention, like an unknown one: not_found.
 */
export async function correctBookingClient(
  bookingId: string,
  input: BookingClient,
  by: Extract<BookingAuthor, { actor: "owner" }>,
  options: { sendRecap?: boolean; now?: Date } = {},
): Promise<ClientCorrection> {
  const now = options.now ?? new Date();
  const { client, fieldErrors } = await checkClient(input, true);
  if (!client || Object.keys(fieldErrors).length > 0) {
    throw new BookingRefusedError("invalid_details", { fieldErrors });
  }
  if (!isUuid(bookingId)) throw new BookingRefusedError("not_found");
  return inTransaction(async (tx) => {
    const { booking } = await lockBookingAndDeposit(tx, bookingId);
    const before = {
      name: booking.clientName,
      email: booking.clientEmail,
      phone: booking.clientPhone,
    };
    const after = { name: client.name, email: client.email, phone: client.phone };
    if (
      before.name === after.name &&
      before.email === after.email &&
      before.phone === after.phone
    ) {
      return { changed: false, email: after.email, emailChanged: false, recapTo: null };
    }
    const emailChanged = before.email.toLowerCase() !== after.email.toLowerCase();
    const recapTo =
      emailChanged && after.email !== "" && options.sendRecap && isActive(booking.state)
        ? after.email
        : null;
    await tx
      .update(bookings)
      .set({
        clientName: after.name,
        clientEmail: after.email,
        clientPhone: after.phone,
        // The owner chose to write to the new address: its later e-mails (reminders, changes) go too.
        ...(recapTo ? { clientMail: true } : after.email === "" ? { clientMail: false } : {}),
        updatedAt: now,
      })
      .where(eq(bookings.id, booking.id));
    await ordersFollowClient(tx, booking, after);
    await addEvent(tx, booking.id, "client_changed", by, {
      before,
      after,
      ...(recapTo ? { recapTo } : {}),
    });
    if (recapTo) {
      await queueClientMail(
        { bookingId: booking.id, event: "recap", to: recapTo },
        { tx, once: `booking-recap:${booking.id}:${recapTo.toLowerCase()}` },
      );
    }
    return { changed: true, email: after.email, emailChanged, recapTo };
  });
}

/** After the session: the owner marks a confirmed booking done or the client absent (its time stays taken). */
export async function markBookingOutcome(
  bookingId: string,
  outcome: "done" | "no_show",
  by: Extract<BookingAuthor, { actor: "owner" }>,
  now = new Date(),
): Promise<void> {
  await inTransaction(async (tx) => {
    const { booking } = await lockBooking(tx, bookingId);
    if (booking.state !== "confirmed") throw new BookingRefusedError("not_active");
    await tx
      .update(bookings)
      .set({ state: outcome, updatedAt: now })
      .where(eq(bookings.id, booking.id));
    await addEvent(tx, booking.id, outcome, by);
  });
}

/** The booking a manage link names, or null (a forged, unknown or malformed token: the same null). */
export async function findBookingByManageToken(token: unknown): Promise<BookingRecord | null> {
  if (!looksLikeManageToken(token)) return null;
  const [booking] = await db()
    .select()
    .from(bookings)
    .where(eq(bookings.manageTokenHash, manageTokenHash(token)));
  return booking ?? null;
}

/** A booking and its history, oldest line first (the agenda's detail). */
export async function findBooking(
  bookingId: string,
): Promise<{ booking: BookingRecord; events: BookingEventRecord[] } | null> {
  if (!isUuid(bookingId)) return null;
  const [booking] = await db().select().from(bookings).where(eq(bookings.id, bookingId));
  if (!booking) return null;
  const events = await db()
    .select()
    .from(bookingEvents)
    .where(eq(bookingEvents.bookingId, bookingId))
    .orderBy(asc(bookingEvents.at), asc(bookingEvents.id));
  return { booking, events };
}

export type NewBlockedPeriod = {
  /** Null: the photographer's time off wherever she is. */
  studioId: string | null;
  /** Null: the whole studio (any photographer). */
  photographerId: string | null;
  start: Date;
  end: Date;
  /** « Congés », « Séance en extérieur »… */
  label: string;
  createdBy?: string | null;
};

/**
 * Blocks time off the agenda (a studio, a photographer, or a photographer at a studio with her travel
 * margins like a booking). Time that a booking already holds is refused (`period_taken`): move or cancel it
 * first. Returns the period's id.
 */
export async function blockPeriod(period: NewBlockedPeriod): Promise<string> {
  const label = period.label.trim();
  const fieldErrors: Record<string, string> = {};
  if (period.studioId === null && period.photographerId === null) {
    fieldErrors.studioId = "Choisissez un studio, un photographe ou les deux.";
  }
  if (period.studioId !== null && !isUuid(period.studioId))
    fieldErrors.studioId = "Studio inconnu.";
  if (period.photographerId !== null && !isUuid(period.photographerId)) {
    fieldErrors.photographerId = "Photographe inconnu.";
  }
  if (label.length === 0 || label.length > 200) {
    fieldErrors.label = "Indiquez un libellé de 200 caractères au plus.";
  }
  if (Object.keys(fieldErrors).length > 0) {
    throw new BookingRefusedError("invalid_details", { fieldErrors });
  }
  if (!(period.end.getTime() > period.start.getTime())) {
    throw new BookingRefusedError("invalid_period", {
      fieldErrors: { end: "La fin doit suivre le début." },
    });
  }
  try {
    return await inTransaction(async (tx) => {
      await lockOccupants(tx, {
        studioIds: [period.studioId],
        photographerIds: [period.photographerId],
      });
      const [row] = await tx
        .insert(blockedPeriods)
        .values({
          studioId: period.studioId,
          photographerId: period.photographerId,
          startsAt: period.start,
          endsAt: period.end,
          label,
          createdBy: period.createdBy ?? null,
        })
        .returning({ id: blockedPeriods.id });
      if (!row) throw new Error("blocked period not inserted");
      await insertOccupancies(tx, {
        owner: { blockedPeriodId: row.id },
        photographerId: period.photographerId,
        studioId: period.studioId,
        start: period.start,
        end: period.end,
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        holdsUntil: null,
      });
      return row.id;
    });
  } catch (error) {
    if (exclusionConflict(error)) throw new BookingRefusedError("period_taken", { cause: error });
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === "23503") throw new BookingRefusedError("invalid_details", { cause: error });
    throw error;
  }
}

/** Gives blocked time back (its occupancies go with it). False when there was no such period. */
export async function unblockPeriod(periodId: string): Promise<boolean> {
  if (!isUuid(periodId)) return false;
  const deleted = await db()
    .delete(blockedPeriods)
    .where(eq(blockedPeriods.id, periodId))
    .returning({ id: blockedPeriods.id });
  return deleted.length > 0;
}
