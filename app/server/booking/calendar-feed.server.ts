import { createHash, randomBytes } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import ical from "ical-generator";
import { BOOKING_EVENT_STATUS, icalStatus } from "~/lib/booking/ics";
import { bookingStateLabel } from "~/lib/booking/model";
import { depositAwaitedSql, depositHeldSql } from "./state-reading.server";
import { db } from "../db/client.server";
import { bookingCalendarFeeds, bookings, photographers, sessionTypes, studios } from "../db/schema";
import { env } from "../env.server";

/*
 * The owner's own calendar (decision 0116): one secret address, /calendrier/{token}.ics, that her phone's
 * calendar subscribes to. The token (32 random bytes, base64url) is shown once when it is made; only its
 * SHA-256 is kept, and making a new one deletes the old: the old address answers 404 at once.
 * Each booking is one event: UID `{booking id}@{site host}` (stable), SEQUENCE the booking's ics_sequence
 * (the client's .ics and this feed agree), STATUS:CANCELLED once cancelled or declined.
 */

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** The feed's address for a token (path only; the page adds the site's origin). */
export const calendarFeedPath = (token: string) => `/calendrier/${token}.ics`;

/** When the current address was made, or null when there is none. */
export async function calendarFeedCreatedAt(): Promise<Date | null> {
  const [row] = await db()
    .select({ createdAt: bookingCalendarFeeds.createdAt })
    .from(bookingCalendarFeeds)
    .orderBy(asc(bookingCalendarFeeds.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}

/** A new secret address; the previous one stops working. Returns the token (shown once). */
export async function renewCalendarFeed(createdBy: string | null): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db().transaction(async (tx) => {
    await tx.delete(bookingCalendarFeeds);
    await tx.insert(bookingCalendarFeeds).values({ tokenHash: hashOf(token), createdBy });
  });
  return token;
}

/** Stops the feed: no address works any more. */
export async function revokeCalendarFeed(): Promise<void> {
  await db().delete(bookingCalendarFeeds);
}

/** True when `token` is the current feed's. Anything not shaped like a token is refused before any query. */
export async function isCalendarFeedToken(token: unknown): Promise<boolean> {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) return false;
  const [row] = await db()
    .select({ id: bookingCalendarFeeds.id })
    .from(bookingCalendarFeeds)
    .where(eq(bookingCalendarFeeds.tokenHash, hashOf(token)));
  return row !== undefined;
}

/** The host the events' UIDs end with (the client's e-mailed .ics uses the same). */
export const calendarHost = () => new URL(env().SITE_URL).host;

/** Every booking as an iCalendar document (text/calendar), oldest first. */
export async function calendarFeed(): Promise<string> {
  const rows = await db()
    .select({
      id: bookings.id,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      state: bookings.state,
      depositAwaited: depositAwaitedSql,
      depositHeld: depositHeldSql,
      icsSequence: bookings.icsSequence,
      clientName: bookings.clientName,
      clientEmail: bookings.clientEmail,
      clientPhone: bookings.clientPhone,
      createdAt: bookings.createdAt,
      updatedAt: bookings.updatedAt,
      typeName: sessionTypes.name,
      studioName: sql<string>`${studios.data}->>'name'`,
      studioAddress: sql<string>`concat_ws(', ', ${studios.data}->'address'->>'street', concat_ws(' ', ${studios.data}->'address'->>'postalCode', ${studios.data}->'address'->>'city'))`,
      photographerName: photographers.name,
    })
    .from(bookings)
    .innerJoin(sessionTypes, eq(sessionTypes.id, bookings.sessionTypeId))
    .innerJoin(studios, eq(studios.id, bookings.studioId))
    .innerJoin(photographers, eq(photographers.id, bookings.photographerId))
    .orderBy(asc(bookings.startsAt));
  const site = env().SITE_URL;
  const host = calendarHost();
  const calendar = ical({
    name: "Réservations",
    prodId: { company: host, product: "reservations", language: "FR" },
    // Calendars that honour it ask again every 15 minutes.
    ttl: 15 * 60,
  });
  for (const row of rows) {
    const lines = [
      `${row.typeName} — ${bookingStateLabel(row.state, row.depositAwaited, row.depositHeld)}`,
      `Client : ${row.clientName}`,
      row.clientPhone ? `Téléphone : ${row.clientPhone}` : null,
      row.clientEmail ? `E-mail : ${row.clientEmail}` : null,
      `Photographe : ${row.photographerName}`,
    ].filter((line): line is string => line !== null);
    calendar.createEvent({
      id: `${row.id}@${host}`,
      sequence: row.icsSequence,
      start: row.startsAt,
      end: row.endsAt,
      stamp: row.updatedAt,
      created: row.createdAt,
      lastModified: row.updatedAt,
      status: icalStatus(BOOKING_EVENT_STATUS[row.state]),
      summary: `${row.state === "pending" ? "Demande : " : ""}${row.typeName} — ${row.clientName}`,
      location: `${row.studioName}, ${row.studioAddress}`,
      description: lines.join("\n"),
      url: `${site}/admin/reservations/${row.id}`,
    });
  }
  return calendar.toString();
}
