import { sql } from "drizzle-orm";
import { UNKNOWN_TRAVEL_MINUTES } from "~/lib/booking/model";
import type { db } from "../db/client.server";

/*
 * The rows of `booking_occupancies` (decision record 0113): written and deleted only here, always inside the
 * transaction that changes the booking or blocked period they belong to.
 */

export type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

/** What one booking or blocked period occupies. */
export type Occupation = {
  owner: { bookingId: string } | { blockedPeriodId: string };
  /** Null: a studio-wide block (works, a closure the hours do not say). */
  photographerId: string | null;
  /** Null: a photographer's time off wherever she is (« congés »). */
  studioId: string | null;
  start: Date;
  end: Date;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** A request's answer deadline; null for what holds its time for good. */
  holdsUntil: Date | null;
};

/**
 * Inserts the real row and, when both a photographer and a studio are set, a travel margin at every other
 * studio (every studio, not only those she covers: a change of her studios later cannot open a hole), in
 * one statement. Throws PostgreSQL's exclusion_violation (23P01) when the time is taken: see
 * exclusionConflict.
 */
export async function insertOccupancies(tx: Tx, occupation: Occupation): Promise<void> {
  const bookingId = "bookingId" in occupation.owner ? occupation.owner.bookingId : null;
  const blockedPeriodId =
    "blockedPeriodId" in occupation.owner ? occupation.owner.blockedPeriodId : null;
  const start = sql`${occupation.start.toISOString()}::timestamptz - make_interval(mins => ${occupation.bufferBeforeMinutes}::int)`;
  const end = sql`${occupation.end.toISOString()}::timestamptz + make_interval(mins => ${occupation.bufferAfterMinutes}::int)`;
  const holdsUntil = occupation.holdsUntil?.toISOString() ?? null;
  const studioId = occupation.studioId;
  const photographerId = occupation.photographerId;
  // Travel is one figure per pair (travel_times keeps the smaller id first).
  const travel = sql`make_interval(mins => coalesce(travel.minutes, ${UNKNOWN_TRAVEL_MINUTES}::int))`;
  await tx.execute(sql`
    insert into booking_occupancies
      (booking_id, blocked_period_id, studio_id, photographer_id, during, real, holds_until)
    select ${bookingId}::uuid, ${blockedPeriodId}::uuid, ${studioId}::uuid, ${photographerId}::uuid,
           tstzrange(${start}, ${end}, '[)'), true, ${holdsUntil}::timestamptz
    union all
    select ${bookingId}::uuid, ${blockedPeriodId}::uuid, other.id, ${photographerId}::uuid,
           tstzrange(${start} - ${travel}, ${end} + ${travel}, '[)'), false, ${holdsUntil}::timestamptz
    from studios other
    left join travel_times travel
      on travel.studio_a = least(other.id, ${studioId}::uuid)
     and travel.studio_b = greatest(other.id, ${studioId}::uuid)
    where ${photographerId}::uuid is not null and other.id <> ${studioId}::uuid`);
}

/** The first keys of the occupants' advisory locks: no other lock of the site uses them. */
const STUDIO_LOCK_SPACE = 0x0b00c1;
const PHOTOGRAPHER_LOCK_SPACE = 0x0b00c2;

/**
 * Takes, until the transaction ends, one advisory lock per studio and per photographer whose rows it may
 * write, always in one order, before it deletes or writes any row (decision 0121). A booking writes a row
 * at its studio and a travel margin at every other one: two bookings of one photographer at two studios,
 * each inserting in its own order, each waited for the other's row (a deadlock). Any two writes the
 * exclusion constraints compare share a studio (two sessions in one room) or a photographer: serialised on
 * it, the second reads the first one's committed rows and gets its exclusion violation at once,
 * « Ce créneau vient d'être réservé. ». A transaction that may try several photographers locks them all
 * here, first. Locks taken in a rolled-back savepoint would be released, so this runs outside them.
 */
export async function lockOccupants(
  tx: Tx,
  occupants: { studioIds: readonly (string | null)[]; photographerIds: readonly (string | null)[] },
): Promise<void> {
  const keys = [
    ...[...new Set(occupants.studioIds)].flatMap((id) =>
      id === null ? [] : [sql`(${STUDIO_LOCK_SPACE}::int, ${id}::text)`],
    ),
    ...[...new Set(occupants.photographerIds)].flatMap((id) =>
      id === null ? [] : [sql`(${PHOTOGRAPHER_LOCK_SPACE}::int, ${id}::text)`],
    ),
  ];
  if (keys.length === 0) return;
  // The sorted subquery hands its rows to the lock in its order (offset 0 keeps it from being flattened).
  await tx.execute(sql`
    select pg_advisory_xact_lock(space, key)
    from (
      select space, hashtext(id) as key
      from (values ${sql.join(keys, sql`, `)}) as occupant(space, id)
      order by space, key offset 0
    ) ordered`);
}

export async function deleteBookingOccupancies(tx: Tx, bookingId: string): Promise<void> {
  await tx.execute(sql`delete from booking_occupancies where booking_id = ${bookingId}::uuid`);
}

/**
 * Frees the time of requests whose answer deadline has passed (their rows already no longer count for the
 * free slots). Called inside the transactions that take time, before they insert.
 */
export async function releaseLapsedRequests(tx: Tx, now: Date): Promise<void> {
  await tx.execute(
    sql`delete from booking_occupancies where holds_until <= ${now.toISOString()}::timestamptz`,
  );
}

/** Which exclusion constraint refused a write: the studio's, the photographer's, or her travel margins. */
export type ExclusionConflict = "studio" | "photographer" | "travel";

type PgErrorFields = { code?: string; constraint?: string };

/** PostgreSQL's error fields, on the error itself (pg) or on its cause (drizzle wraps driver errors). */
function pgFields(error: unknown): PgErrorFields {
  if (typeof error !== "object" || error === null) return {};
  const own = error as PgErrorFields & { cause?: unknown };
  if (own.code) return own;
  return typeof own.cause === "object" && own.cause !== null ? (own.cause as PgErrorFields) : {};
}

/** The constraint an exclusion_violation (23P01) names; null for any other error. */
export function exclusionConflict(error: unknown): ExclusionConflict | null {
  const { code, constraint } = pgFields(error);
  if (code !== "23P01") return null;
  if (constraint === "booking_occupancies_studio_excl") return "studio";
  if (constraint === "booking_occupancies_photographer_excl") return "photographer";
  return "travel";
}

/**
 * True for a deadlock (40P01) or a serialisation failure (40001): two bookings racing for each other's
 * travel margins can each wait for the other; PostgreSQL cancels one, which is tried again.
 */
export function isRetryable(error: unknown): boolean {
  const { code } = pgFields(error);
  return code === "40P01" || code === "40001";
}
