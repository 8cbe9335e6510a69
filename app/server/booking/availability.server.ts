import { timingSafeEqual } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Closure, WeeklyHours } from "~/content/schemas";
import { isIsoDay, isoDayInParis } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { UNKNOWN_TRAVEL_MINUTES } from "~/lib/booking/model";
import {
  availabilityAt,
  freeSlots,
  horizonLastDay,
  parisWallRange,
  type Availability,
  type FreeDay,
  type SlotCalendar,
  type SlotRules,
} from "~/lib/booking/slots";
import { db } from "../db/client.server";
import { withExternalBusy } from "./external-busy.server";
import {
  photographers,
  photographerStudios,
  sessionTypes,
  sessionTypeStudios,
  studios,
  travelTimes,
} from "../db/schema";
import { BookingRefusedError } from "./refusals.server";

/*
 * What the slot computation needs for one studio and one session type, read in two round trips: the context
 * (studio, type, photographers, travel times: four small queries at once), then the occupancies of a date
 * range (one query).
 */

export type SessionTypeRecord = typeof sessionTypes.$inferSelect;

export type BookingContext = {
  studio: { id: string; slug: string; name: string; hours: WeeklyHours; closures: Closure[] };
  sessionType: SessionTypeRecord;
  /** The active photographers who cover the studio, in the owner's order (the first free one is chosen). */
  photographerIds: string[];
  /** Minutes of travel between two studios (the same both ways; UNKNOWN_TRAVEL_MINUTES when not set). */
  travelMinutes: (from: string, to: string) => number;
};

export type ContextOptions = {
  /** The secret of a private session type's link, as the visitor's address carries it. */
  privateToken?: string | null;
  /**
   * For an existing booking (its client moving it, the owner): its type may since have been archived or
   * made private, and the owner may book any type.
   */
  allowHidden?: boolean;
};

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The studio, the session type offered there, its photographers and the travel times. Refuses (404, French)
 * an unknown, forged or retired studio, and a session type that is unknown, archived, not offered at this
 * studio, or private without its link's secret.
 */
export async function loadBookingContext(
  studioId: string,
  sessionTypeId: string,
  options: ContextOptions = {},
): Promise<BookingContext> {
  if (!isUuid(studioId)) throw new BookingRefusedError("unknown_studio");
  if (!isUuid(sessionTypeId)) throw new BookingRefusedError("unknown_session_type");
  const [studioRows, typeRows, photographerRows, travelRows] = await Promise.all([
    db()
      .select({
        id: studios.id,
        slug: studios.slug,
        retiredAt: studios.retiredAt,
        name: sql<string>`${studios.data}->>'name'`,
        hours: sql<WeeklyHours>`${studios.data}->'hours'`,
        closures: sql<Closure[]>`${studios.data}->'closures'`,
      })
      .from(studios)
      .where(eq(studios.id, studioId)),
    db()
      .select({ sessionType: sessionTypes })
      .from(sessionTypes)
      .innerJoin(
        sessionTypeStudios,
        and(
          eq(sessionTypeStudios.sessionTypeId, sessionTypes.id),
          eq(sessionTypeStudios.studioId, studioId),
        ),
      )
      .where(eq(sessionTypes.id, sessionTypeId)),
    db()
      .select({ id: photographers.id })
      .from(photographers)
      .innerJoin(photographerStudios, eq(photographerStudios.photographerId, photographers.id))
      .where(and(eq(photographerStudios.studioId, studioId), eq(photographers.active, true)))
      .orderBy(asc(photographers.position), asc(photographers.createdAt)),
    db().select().from(travelTimes),
  ]);
  const studio = studioRows[0];
  if (!studio || studio.retiredAt) throw new BookingRefusedError("unknown_studio");
  const sessionType = typeRows[0]?.sessionType;
  const hidden =
    sessionType &&
    !options.allowHidden &&
    (sessionType.archivedAt !== null ||
      (sessionType.visibility === "private" &&
        !(
          sessionType.privateToken &&
          options.privateToken &&
          sameSecret(options.privateToken, sessionType.privateToken)
        )));
  if (!sessionType || hidden) throw new BookingRefusedError("unknown_session_type");

  const travel = new Map(travelRows.map((row) => [`${row.studioA} ${row.studioB}`, row.minutes]));
  return {
    studio: {
      id: studio.id,
      slug: studio.slug,
      name: studio.name,
      hours: studio.hours,
      closures: studio.closures ?? [],
    },
    sessionType,
    photographerIds: photographerRows.map((row) => row.id),
    travelMinutes: (from, to) => {
      if (from === to) return 0;
      const key = from < to ? `${from} ${to}` : `${to} ${from}`;
      return travel.get(key) ?? UNKNOWN_TRAVEL_MINUTES;
    },
  };
}

/** The session type's rules in the slot computation's terms. */
export function slotRulesOf(sessionType: SessionTypeRecord): SlotRules {
  return {
    durationMinutes: sessionType.durationMinutes,
    bufferBeforeMinutes: sessionType.bufferBeforeMinutes,
    bufferAfterMinutes: sessionType.bufferAfterMinutes,
    minimumNoticeHours: sessionType.minimumNoticeHours,
    horizonDays: sessionType.horizonDays,
    stepMinutes: sessionType.stepMinutes,
  };
}

/** The studio's week and closures with the session type's own hours. */
export function slotCalendarOf(context: BookingContext): SlotCalendar {
  return {
    hours: context.studio.hours,
    closures: context.studio.closures,
    override: context.sessionType.bookableHours ?? null,
  };
}

const DAY = 86_400_000;

/**
 * What is busy for the context's studio and photographers between two Paris days (included), from the
 * occupancies that hold now (a lapsed request's do not). `exceptBookingId`: a booking being moved does not
 * stand in its own way. The busy times imported from the photographers' own calendars are added to theirs.
 */
export async function loadAvailability(
  context: BookingContext,
  days: { fromDay: string; toDay: string },
  now: Date,
  options: { exceptBookingId?: string } = {},
): Promise<Availability> {
  // Two days on each side: a margin reaches at most a day of travel and ten hours of buffers away.
  const from = new Date(parisWallRange(days.fromDay, "00:00", "00:00").start - 2 * DAY);
  const to = new Date(parisWallRange(days.toDay, "00:00", "00:00").start + 3 * DAY);
  const photographerList = `{${context.photographerIds.join(",")}}`;
  const except = options.exceptBookingId ?? null;
  const result = await db().execute<{
    photographer_id: string | null;
    studio_id: string | null;
    real: boolean;
    start: number;
    end: number;
  }>(sql`
    select photographer_id, studio_id, real,
           (extract(epoch from lower(during)) * 1000)::float8 as start,
           (extract(epoch from upper(during)) * 1000)::float8 as end
    from booking_occupancies
    where during && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)
      and (holds_until is null or holds_until > ${now.toISOString()}::timestamptz)
      and ((real and studio_id = ${context.studio.id}::uuid)
           or photographer_id = any(${photographerList}::uuid[]))
      and (${except}::uuid is null or booking_id is distinct from ${except}::uuid)`);
  const occupancies = result.rows.map((row) => ({
    photographerId: row.photographer_id,
    studioId: row.studio_id,
    real: row.real,
    start: row.start,
    end: row.end,
  }));
  // The photographers' own calendars (imported every 15 minutes) count as busy too.
  return withExternalBusy(
    availabilityAt(context.studio.id, context.photographerIds, occupancies, context.travelMinutes),
    from,
    to,
  );
}

/**
 * The free slots of a session type at a studio, by Paris day, from `fromDay` (default today) to `toDay`
 * (default and at most the type's horizon): what /reserver/{studio} shows. Refuses like loadBookingContext.
 */
export async function findFreeSlots(query: {
  studioId: string;
  sessionTypeId: string;
  privateToken?: string | null;
  fromDay?: string;
  toDay?: string;
  now?: Date;
  /** A booking being moved: its own time does not stand in its way (the client's page, decision 0115). */
  exceptBookingId?: string;
}): Promise<{ context: BookingContext; days: FreeDay[] }> {
  const now = query.now ?? new Date();
  const context = await loadBookingContext(query.studioId, query.sessionTypeId, {
    privateToken: query.privateToken,
  });
  const rules = slotRulesOf(context.sessionType);
  const today = isoDayInParis(now);
  const lastDay = horizonLastDay(rules, now);
  // A day from the address that is no real date is ignored, never an error.
  const fromDay = isIsoDay(query.fromDay) && query.fromDay > today ? query.fromDay : today;
  const toDay = isIsoDay(query.toDay) && query.toDay < lastDay ? query.toDay : lastDay;
  if (fromDay > toDay) return { context, days: [] };
  const availability = await loadAvailability(context, { fromDay, toDay }, now, {
    exceptBookingId: query.exceptBookingId,
  });
  const days = freeSlots({
    rules,
    calendar: slotCalendarOf(context),
    availability,
    now,
    fromDay,
    toDay,
  });
  return { context, days };
}
