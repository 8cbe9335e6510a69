import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lt,
  not,
  or,
  sql,
} from "drizzle-orm";
import type { BookingLine } from "~/lib/booking/agenda-lines";
import { csvCell } from "~/lib/csv";
import { formatDateTimeFr, isoDayInParis } from "~/lib/dates";
import {
  bookingStateLabel,
  type BookingState,
  type BookingStateReading,
} from "~/lib/booking/model";
import { bookingQuestionsSchema, type BookingQuestion } from "~/lib/booking/session-types";
import { UNKNOWN_TRAVEL_MINUTES } from "~/lib/booking/model";
import {
  addParisDays,
  freeSlots,
  parisWallRange,
  slotKeyOf,
  type FreeSlot,
} from "~/lib/booking/slots";
import { durationLabelFr, timeLabelFr } from "~/lib/booking/words";
import { isUuid } from "~/lib/forms";
import { cursorColumn, keysetPage, type KeysetOrder, type PagePosition } from "../db/keyset.server";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import {
  blockedPeriods,
  bookingEvents,
  bookings,
  photographers,
  sessionTypes,
  sessionTypeStudios,
  studios,
  users,
} from "../db/schema";
import {
  loadAvailability,
  loadBookingContext,
  slotCalendarOf,
  slotRulesOf,
} from "./availability.server";
import { depositAwaitedSql, depositHeldSql } from "./state-reading.server";

/*
 * What the owner's agenda reads (decision 0116): the bookings and blocked time of a range of Paris days with the
 * names they are shown with, one booking with its history, the free times to move it to, the CSV export,
 * and the dashboard's today and tomorrow.
 */

export type AgendaBooking = {
  id: string;
  startsAt: Date;
  endsAt: Date;
  state: BookingState;
  /** Its deposit was awaited (decision 0186): expired, it lapsed unpaid, no request. */
  depositAwaited: boolean;
  /** A card payment of its deposit waits for the owner's decision (decision 0172). */
  depositHeld: boolean;
  respondBy: Date | null;
  source: "client" | "owner";
  clientName: string;
  clientEmail: string;
  clientPhone: string;
  answers: Record<string, string>;
  createdAt: Date;
  sessionTypeId: string;
  sessionTypeName: string;
  studioId: string;
  studioName: string;
  photographerId: string;
  photographerName: string;
};

const agendaColumns = {
  id: bookings.id,
  startsAt: bookings.startsAt,
  endsAt: bookings.endsAt,
  state: bookings.state,
  depositAwaited: depositAwaitedSql,
  depositHeld: depositHeldSql,
  respondBy: bookings.respondBy,
  source: bookings.source,
  clientName: bookings.clientName,
  clientEmail: bookings.clientEmail,
  clientPhone: bookings.clientPhone,
  answers: bookings.answers,
  createdAt: bookings.createdAt,
  sessionTypeId: bookings.sessionTypeId,
  sessionTypeName: sessionTypes.name,
  studioId: bookings.studioId,
  studioName: sql<string>`${studios.data}->>'name'`,
  photographerId: bookings.photographerId,
  photographerName: photographers.name,
};

function agendaQuery() {
  return db()
    .select(agendaColumns)
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .innerJoin(studios, eq(studios.id, bookings.studioId))
    .innerJoin(photographers, eq(photographers.id, bookings.photographerId))
    .$dynamic();
}

/** The instants a range of Paris days covers: 00:00 of `fromDay` to 00:00 after `toDay`. */
export function daysRange(fromDay: string, toDay: string): { from: Date; to: Date } {
  return {
    from: new Date(parisWallRange(fromDay, "00:00", "00:00").start),
    to: new Date(parisWallRange(addParisDays(toDay, 1), "00:00", "00:00").start),
  };
}

export type AgendaFilter = {
  studioId?: string | null;
  states?: readonly BookingState[];
  /** A state as the owner reads it (her list's filter, `bookingStateReading`). */
  reading?: BookingStateReading | null;
};

/** The conditions of the bookings starting between two Paris days (included) that `filter` keeps. */
function agendaConditions(fromDay: string, toDay: string, filter: AgendaFilter) {
  const { from, to } = daysRange(fromDay, toDay);
  const conditions = [gte(bookings.startsAt, from), lt(bookings.startsAt, to)];
  if (filter.studioId && isUuid(filter.studioId)) {
    conditions.push(eq(bookings.studioId, filter.studioId));
  }
  if (filter.states && filter.states.length > 0) {
    conditions.push(inArray(bookings.state, [...filter.states]));
  }
  // Each reading lists what its label says (`bookingStateReading`): a held deposit payment (decision
  // 0172) reads « paiement reçu, à vérifier » waiting or lapsed, never « de paiement » nor « non reçu ».
  switch (filter.reading) {
    case null:
    case undefined:
      break;
    case "awaiting_payment":
    case "awaiting_held":
      conditions.push(
        eq(bookings.state, "awaiting_payment"),
        filter.reading === "awaiting_held" ? depositHeldSql : not(depositHeldSql),
      );
      break;
    case "unpaid_held":
      conditions.push(eq(bookings.state, "expired"), depositHeldSql);
      break;
    case "unpaid":
      conditions.push(eq(bookings.state, "expired"), depositAwaitedSql, not(depositHeldSql));
      break;
    case "expired":
      conditions.push(eq(bookings.state, "expired"), not(depositAwaitedSql), not(depositHeldSql));
      break;
    default:
      conditions.push(eq(bookings.state, filter.reading));
  }
  return conditions;
}

/** The bookings starting between two Paris days (included), in time order. */
export async function agendaBookings(
  fromDay: string,
  toDay: string,
  filter: AgendaFilter = {},
): Promise<AgendaBooking[]> {
  const conditions = agendaConditions(fromDay, toDay, filter);
  return agendaQuery()
    .where(and(...conditions))
    .orderBy(asc(bookings.startsAt), asc(bookings.createdAt));
}

/** The agenda's list view in time order, the id breaking ties (decision 0130). */
export const AGENDA_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: bookings.startsAt, type: "timestamptz" },
    { expression: bookings.id, type: "uuid" },
  ],
  direction: "asc",
};

/** One page of the bookings of a range of Paris days (the agenda's list view), in time order. */
export async function agendaBookingPage(
  fromDay: string,
  toDay: string,
  filter: AgendaFilter,
  position: PagePosition,
) {
  const conditions = agendaConditions(fromDay, toDay, filter);
  const [page, [total]] = await Promise.all([
    keysetPage(AGENDA_LIST_ORDER, position, (query) =>
      db()
        .select({ ...agendaColumns, cursor: cursorColumn(AGENDA_LIST_ORDER) })
        .from(bookings)
        .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
        .innerJoin(studios, eq(studios.id, bookings.studioId))
        .innerJoin(photographers, eq(photographers.id, bookings.photographerId))
        .where(and(...conditions, query.where))
        .orderBy(...query.orderBy)
        .limit(query.limit),
    ),
    db()
      .select({ count: count() })
      .from(bookings)
      .where(and(...conditions)),
  ]);
  return { ...page, matching: total?.count ?? 0 };
}

/** The requests waiting for the owner's answer, the most urgent first. */
export async function pendingRequests(): Promise<AgendaBooking[]> {
  return agendaQuery()
    .where(eq(bookings.state, "pending"))
    .orderBy(asc(bookings.respondBy), asc(bookings.startsAt));
}

export type AgendaBlockedPeriod = {
  id: string;
  startsAt: Date;
  endsAt: Date;
  label: string;
  studioName: string | null;
  photographerName: string | null;
};

/** The blocked time overlapping a range of Paris days, in time order. */
export async function agendaBlockedPeriods(
  fromDay: string,
  toDay: string,
  studioId?: string | null,
): Promise<AgendaBlockedPeriod[]> {
  const { from, to } = daysRange(fromDay, toDay);
  const conditions = [lt(blockedPeriods.startsAt, to), sql`${blockedPeriods.endsAt} > ${from}`];
  if (studioId && isUuid(studioId)) {
    conditions.push(
      or(eq(blockedPeriods.studioId, studioId), sql`${blockedPeriods.studioId} is null`) ??
        sql`true`,
    );
  }
  return db()
    .select({
      id: blockedPeriods.id,
      startsAt: blockedPeriods.startsAt,
      endsAt: blockedPeriods.endsAt,
      label: blockedPeriods.label,
      studioName: sql<string | null>`${studios.data}->>'name'`,
      photographerName: photographers.name,
    })
    .from(blockedPeriods)
    .leftJoin(studios, eq(studios.id, blockedPeriods.studioId))
    .leftJoin(photographers, eq(photographers.id, blockedPeriods.photographerId))
    .where(and(...conditions))
    .orderBy(asc(blockedPeriods.startsAt));
}

export type BookingDetail = {
  booking: AgendaBooking & {
    icsSequence: number;
    consentAt: Date | null;
    bufferBeforeMinutes: number;
    bufferAfterMinutes: number;
    internalNote: string;
    clientMail: boolean;
  };
  questions: BookingQuestion[];
  /** Its history, each line with the current address of the administrator who did it (decision 0138). */
  events: (typeof bookingEvents.$inferSelect & { actorEmail: string | null })[];
};

/** One booking with its names, its type's questions (to label the answers) and its history. */
export async function bookingDetail(id: string): Promise<BookingDetail | null> {
  if (!isUuid(id)) return null;
  const [row] = await agendaQuery().where(eq(bookings.id, id)).limit(1);
  if (!row) return null;
  const [[extra], [type], events] = await Promise.all([
    db()
      .select({
        icsSequence: bookings.icsSequence,
        consentAt: bookings.consentAt,
        bufferBeforeMinutes: bookings.bufferBeforeMinutes,
        bufferAfterMinutes: bookings.bufferAfterMinutes,
        internalNote: bookings.internalNote,
        clientMail: bookings.clientMail,
      })
      .from(bookings)
      .where(eq(bookings.id, id)),
    db()
      .select({ questions: sessionTypes.questions })
      .from(sessionTypes)
      .where(eq(sessionTypes.id, row.sessionTypeId)),
    db()
      .select({ ...getTableColumns(bookingEvents), actorEmail: users.email })
      .from(bookingEvents)
      .leftJoin(users, eq(users.id, bookingEvents.actorUserId))
      .where(eq(bookingEvents.bookingId, id))
      .orderBy(asc(bookingEvents.at), asc(bookingEvents.id)),
  ]);
  const questions = bookingQuestionsSchema.safeParse(type?.questions ?? []);
  return {
    booking: {
      ...row,
      icsSequence: extra?.icsSequence ?? 0,
      consentAt: extra?.consentAt ?? null,
      bufferBeforeMinutes: extra?.bufferBeforeMinutes ?? 0,
      bufferAfterMinutes: extra?.bufferAfterMinutes ?? 0,
      internalNote: extra?.internalNote ?? "",
      clientMail: extra?.clientMail ?? true,
    },
    questions: questions.success ? questions.data : [],
    events,
  };
}

/** The studios offering a session type that are still on the site (where a booking can move). */
export async function studiosOffering(
  sessionTypeId: string,
): Promise<{ id: string; name: string }[]> {
  if (!isUuid(sessionTypeId)) return [];
  return db()
    .select({ id: studios.id, name: sql<string>`${studios.data}->>'name'` })
    .from(sessionTypeStudios)
    .innerJoin(studios, eq(studios.id, sessionTypeStudios.studioId))
    .where(
      and(eq(sessionTypeStudios.sessionTypeId, sessionTypeId), sql`${studios.retiredAt} is null`),
    )
    .orderBy(asc(studios.position));
}

/**
 * The free starts of one Paris day for a booking of `durationMinutes` (its buffers), at a studio offering
 * the type, as the owner sees them: the type's hours and step, no notice, `exceptBookingId` not standing in
 * its own way (a move). Empty when the studio does not offer the type.
 */
export async function ownerFreeSlots(query: {
  studioId: string;
  sessionTypeId: string;
  day: string;
  exceptBookingId?: string;
  booking?: { durationMinutes: number; bufferBeforeMinutes: number; bufferAfterMinutes: number };
  now?: Date;
}): Promise<FreeSlot[]> {
  const now = query.now ?? new Date();
  let context;
  try {
    context = await loadBookingContext(query.studioId, query.sessionTypeId, { allowHidden: true });
  } catch {
    return [];
  }
  const rules = { ...slotRulesOf(context.sessionType), ...query.booking, minimumNoticeHours: 0 };
  // The owner may look as far ahead as she likes: the horizon is the visitor's.
  rules.horizonDays = 7300;
  const availability = await loadAvailability(
    context,
    { fromDay: query.day, toDay: query.day },
    now,
    { exceptBookingId: query.exceptBookingId },
  );
  const days = freeSlots({
    rules,
    calendar: slotCalendarOf(context),
    availability,
    now,
    fromDay: query.day,
    toDay: query.day,
  });
  return days[0]?.slots ?? [];
}

type BusyRow = {
  studio_id: string | null;
  photographer_id: string | null;
  photographer: string | null;
  studio: string | null;
  label: string | null;
  travel: number | null;
  start: Date;
  end: Date;
};

/**
 * What occupies a Paris day at a studio, or for the photographers who cover it wherever they are (or only
 * `photographerId`), with the travel from each place back to the studio.
 */
async function busyRowsOf(query: {
  studioId: string;
  day: string;
  photographerId?: string;
  now: Date;
}): Promise<BusyRow[]> {
  const from = new Date(parisWallRange(query.day, "00:00", "00:00").start);
  const to = new Date(parisWallRange(addParisDays(query.day, 1), "00:00", "00:00").start);
  const whose = query.photographerId
    ? sql`o.photographer_id = ${query.photographerId}::uuid`
    : sql`(o.studio_id = ${query.studioId}::uuid
           or o.photographer_id in (
             select ps.photographer_id from photographer_studios ps
             join photographers active on active.id = ps.photographer_id and active.active
             where ps.studio_id = ${query.studioId}::uuid))`;
  const result = await db().execute<BusyRow>(sql`
    select o.studio_id, o.photographer_id, p.name as photographer, s.data->>'name' as studio, bp.label,
           travel.minutes as travel, lower(o.during) as start, upper(o.during) as end
    from booking_occupancies o
    left join photographers p on p.id = o.photographer_id
    left join studios s on s.id = o.studio_id
    left join blocked_periods bp on bp.id = o.blocked_period_id
    left join travel_times travel
      on travel.studio_a = least(o.studio_id, ${query.studioId}::uuid)
     and travel.studio_b = greatest(o.studio_id, ${query.studioId}::uuid)
    where o.real
      and o.during && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)
      and (o.holds_until is null or o.holds_until > ${query.now.toISOString()}::timestamptz)
      and ${whose}
    order by lower(o.during), p.name`);
  return result.rows.map((row) => ({ ...row, start: new Date(row.start), end: new Date(row.end) }));
}

/** One line of what occupies a studio's day, as the owner reads it (decision 0123). */
function busyReason(row: BusyRow, studioId: string): string {
  const time = (instant: Date) => timeLabelFr(slotKeyOf(instant).slice(11, 16));
  const at = (studio: string) => (/^studio\b/i.test(studio) ? `au ${studio}` : `à ${studio}`);
  const when = `de ${time(row.start)} à ${time(row.end)}`;
  const label = row.label ? ` (${row.label})` : "";
  if (row.photographer === null) return `Le studio est bloqué ${when}${label}`;
  if (row.studio === null) return `${row.photographer} n'est pas disponible ${when}${label}`;
  if (row.studio_id === studioId)
    return `${row.photographer} est ${at(row.studio)} ${when}${label}`;
  const travel = durationLabelFr(row.travel ?? UNKNOWN_TRAVEL_MINUTES);
  return `${row.photographer} est ${at(row.studio)} ${when}${label} (${travel} de trajet jusqu'ici)`;
}

/**
 * Why times of a Paris day are not free at a studio, as the owner reads it beside its free times (decision
 * 0123): each session and blocked time of that day at the studio, and of the photographers who cover it
 * wherever they are, with the travel back here: « Claire est au Studio de Brive de 10 h à 11 h 15 (1 h 15
 * de trajet jusqu'ici) ». Buffers are included in the times (they occupy the room and the photographer).
 */
export async function busyReasonsOf(query: {
  studioId: string;
  day: string;
  now?: Date;
}): Promise<string[]> {
  if (!isUuid(query.studioId)) return [];
  const rows = await busyRowsOf({ ...query, now: query.now ?? new Date() });
  return rows.map((row) => busyReason(row, query.studioId));
}

/**
 * Why one photographer cannot take a booking occupying `window` at a studio (the owner chose her, decision
 * 0138): what she has that day that meets the window, counting the travel between the two studios; empty
 * when nothing of the agenda explains it (her own calendar's busy times, decision 0116).
 */
export async function photographerBusyReasons(query: {
  studioId: string;
  photographerId: string;
  day: string;
  window: { start: number; end: number };
  now?: Date;
}): Promise<string[]> {
  if (!isUuid(query.studioId) || !isUuid(query.photographerId)) return [];
  const rows = await busyRowsOf({ ...query, now: query.now ?? new Date() });
  const MINUTE = 60_000;
  return rows
    .filter((row) => {
      const travel =
        row.studio_id === null || row.studio_id === query.studioId
          ? 0
          : (row.travel ?? UNKNOWN_TRAVEL_MINUTES) * MINUTE;
      return (
        row.start.getTime() - travel < query.window.end &&
        row.end.getTime() + travel > query.window.start
      );
    })
    .map((row) => busyReason(row, query.studioId));
}

/** The dashboard's two days: today's and tomorrow's bookings that still hold (requests and bookings waiting for their payment included). */
export async function todayAndTomorrow(now = new Date()) {
  const today = isoDayInParis(now);
  const tomorrow = addParisDays(today, 1);
  const rows = await agendaBookings(today, tomorrow, {
    states: ["pending", "awaiting_payment", "confirmed", "done", "no_show"],
  });
  return {
    today,
    tomorrow,
    todays: rows.filter((row) => isoDayInParis(row.startsAt) === today),
    tomorrows: rows.filter((row) => isoDayInParis(row.startsAt) === tomorrow),
  };
}

/** Every booking for the CSV export, newest session first (at most 20,000 rows). */
export async function bookingsForExport(): Promise<AgendaBooking[]> {
  return agendaQuery().orderBy(desc(bookings.startsAt)).limit(20_000);
}

const CSV_HEADER = [
  "debut",
  "fin",
  "etat",
  "seance",
  "studio",
  "photographe",
  "client",
  "email",
  "telephone",
  "reponses",
  "origine",
  "creee_le",
];

/** The bookings as CSV (semicolons, Paris times, answers as « clé : réponse » lines), with a BOM for Excel. */
export function bookingsCsv(rows: readonly AgendaBooking[]): string {
  const lines = [CSV_HEADER.map(csvCell).join(";")];
  for (const row of rows) {
    lines.push(
      [
        formatDateTimeFr(row.startsAt),
        formatDateTimeFr(row.endsAt),
        bookingStateLabel(row.state, row.depositAwaited, row.depositHeld),
        row.sessionTypeName,
        row.studioName,
        row.photographerName,
        row.clientName,
        row.clientEmail,
        row.clientPhone,
        Object.entries(row.answers)
          .map(([key, value]) => `${key} : ${value}`)
          .join("\n"),
        row.source === "owner" ? "Téléphone" : "Site",
        formatDateTimeFr(row.createdAt),
      ]
        .map(csvCell)
        .join(";"),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** A booking as the agenda's lines show it (the agenda and the dashboard): what a page needs, as JSON. */
export const agendaLine = (row: AgendaBooking): BookingLine => ({
  id: row.id,
  startsAt: row.startsAt.toISOString(),
  endsAt: row.endsAt.toISOString(),
  state: row.state,
  depositAwaited: row.depositAwaited,
  depositHeld: row.depositHeld,
  clientName: row.clientName,
  sessionTypeName: row.sessionTypeName,
  studioName: row.studioName,
  photographerName: row.photographerName,
});

/**
 * What the dashboard shows of the bookings, as its page takes it; null when it cannot be read (the
 * dashboard still opens).
 */
export async function dashboardBookings(now = new Date()) {
  try {
    const [days, requests] = await Promise.all([todayAndTomorrow(now), pendingRequests()]);
    return {
      today: days.today,
      tomorrow: days.tomorrow,
      todays: days.todays.map(agendaLine),
      tomorrows: days.tomorrows.map(agendaLine),
      pendingCount: requests.length,
    };
  } catch (error) {
    log.error("admin_dashboard_bookings_failed", { error });
    return null;
  }
}
