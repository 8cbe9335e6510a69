import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { and, eq, gt, inArray, lt } from "drizzle-orm";
import type { Availability, Interval } from "~/lib/booking/slots";
import { addParisDays, parisWallRange } from "~/lib/booking/slots";
import { isUuid } from "~/lib/forms";
import { formatSize } from "~/lib/sizes";
import { db } from "../db/client.server";
import { bookingExternalBusy, bookingExternalCalendars } from "../db/schema";
import { env } from "../env.server";
import { log } from "../logger.server";

/*
 * The busy times of a photographer's own calendar (decision 0116): the owner gives an iCal
 * address (Google Agenda's « adresse secrète au format iCal », iCloud's public link…); every 15 minutes a
 * job fetches it, keeps only when she is busy (no titles, no details: nothing of her private life is
 * stored) from yesterday to 400 days ahead, and replaces the photographer's rows. The slot computation
 * reads them as more busy time of that photographer (`externalBusyOf`).
 */

const FETCH_TIMEOUT_MS = 15_000;
const MAX_BYTES = 5 * 1024 * 1024;
const DAY = 86_400_000;
const AHEAD_DAYS = 400;

export type ExternalCalendar = typeof bookingExternalCalendars.$inferSelect;

/** Each photographer's calendar address, with how its last import went. */
export async function listExternalCalendars(): Promise<ExternalCalendar[]> {
  return db().select().from(bookingExternalCalendars);
}

/** The address is an http(s) URL (webcal:// written as https://); else a French message. */
export function checkCalendarUrl(
  text: string,
): { ok: true; url: string } | { ok: false; error: string } {
  const value = text.trim().replace(/^webcals?:\/\//i, "https://");
  if (value.length > 2000 || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    return { ok: false, error: "Une adresse complète commençant par https:// ou webcal://" };
  }
  return { ok: true, url: value };
}

/** Sets (or, with null, removes) the calendar of a photographer; its old busy times go with a change. */
export async function setExternalCalendar(
  photographerId: string,
  url: string | null,
): Promise<void> {
  if (!isUuid(photographerId)) return;
  await db().transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(bookingExternalCalendars)
      .where(eq(bookingExternalCalendars.photographerId, photographerId));
    if (current?.url === url) return;
    if (current) {
      await tx.delete(bookingExternalCalendars).where(eq(bookingExternalCalendars.id, current.id));
    }
    if (url) await tx.insert(bookingExternalCalendars).values({ photographerId, url });
  });
}

/** The local calendar day of a date-only value as node-ical builds it (local midnight). */
const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

/**
 * The busy intervals of an iCalendar text between two instants: cancelled and « free » events left out.
 * node-ical (and the Temporal polyfill under it) is loaded by the first import, not at the server's start.
 */
export async function busyIntervalsOf(ics: string, from: Date, to: Date): Promise<Interval[]> {
  const nodeIcal = await import("node-ical");
  const parsed = nodeIcal.sync.parseICS(ics);
  const intervals: Interval[] = [];
  for (const component of Object.values(parsed)) {
    if (component?.type !== "VEVENT") continue;
    if (component.status === "CANCELLED" || component.transparency === "TRANSPARENT") continue;
    if (!component.start) continue;
    const instances = nodeIcal.expandRecurringEvent(component, { from, to, expandOngoing: true });
    for (const instance of instances) {
      if (instance.event.status === "CANCELLED") continue;
      let start: number;
      let end: number;
      if (instance.isFullDay) {
        // A day-long event (« congés ») is the whole Paris day(s).
        const firstDay = localDay(instance.start);
        const lastDay = instance.end ? localDay(instance.end) : addParisDays(firstDay, 1);
        start = parisWallRange(firstDay, "00:00", "00:00").start;
        end = parisWallRange(
          lastDay > firstDay ? lastDay : addParisDays(firstDay, 1),
          "00:00",
          "00:00",
        ).start;
      } else {
        start = instance.start.getTime();
        end = instance.end ? instance.end.getTime() : start;
      }
      if (end > start && end > from.getTime() && start < to.getTime())
        intervals.push({ start, end });
    }
  }
  return intervals.sort((a, b) => a.start - b.start);
}

/** Why an import failed, in French for the settings page. */
class CalendarImportError extends Error {}

/** Addresses a calendar import never asks, unless BOOKING_CALENDAR_ALLOW_PRIVATE=1 (decision 0123). */
const PRIVATE_NETWORKS = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
    ["224.0.0.0", 3],
  ] as const) {
    list.addSubnet(network, prefix, "ipv4");
  }
  for (const [network, prefix] of [
    ["::", 127],
    ["fc00::", 7],
    ["fe80::", 10],
    ["ff00::", 8],
    ["::ffff:0:0", 96],
  ] as const) {
    list.addSubnet(network, prefix, "ipv6");
  }
  return list;
})();

/**
 * Refuses an address whose host is, or resolves to, the server's own machine or a private network: the
 * owner's form must not make the server ask what only it can reach (its database, a cloud's metadata).
 */
async function checkPublicHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true }).catch(() => {
        throw new CalendarImportError("L'adresse de l'agenda est introuvable.");
      });
  for (const { address, family } of addresses) {
    if (PRIVATE_NETWORKS.check(address, family === 6 ? "ipv6" : "ipv4")) {
      throw new CalendarImportError(
        "Cette adresse mène à un réseau privé : donnez l'adresse publique de l'agenda.",
      );
    }
  }
}

/** Redirections followed at most (each checked like the address given). */
const MAX_REDIRECTS = 3;

/**
 * Reads a calendar's address within the time and size limits, counting bytes as they come (a 5 MB answer
 * is cut there, never read whole first); throws a CalendarImportError.
 */
async function download(
  address: string,
  fetcher: typeof fetch,
  allowPrivate: boolean,
): Promise<string> {
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let url = new URL(address);
  let response: Response;
  for (let redirects = 0; ; redirects += 1) {
    await checkPublicHost(url, allowPrivate);
    response = await fetcher(url, {
      signal,
      headers: { Accept: "text/calendar" },
      redirect: "manual",
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) break;
    await response.body?.cancel();
    if (redirects >= MAX_REDIRECTS)
      throw new CalendarImportError("L'agenda redirige trop de fois.");
    url = new URL(location, url);
    if (!/^https?:$/.test(url.protocol)) {
      throw new CalendarImportError("L'agenda redirige vers une adresse qui n'est pas web.");
    }
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new CalendarImportError(`L'agenda a répondu ${response.status}.`);
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    bytes += chunk.value.byteLength;
    if (bytes > MAX_BYTES) {
      await reader?.cancel();
      throw new CalendarImportError(
        `L'agenda est trop volumineux (${formatSize(MAX_BYTES)} au plus).`,
      );
    }
    chunks.push(chunk.value);
  }
  const body = Buffer.concat(chunks).toString("utf8");
  if (!body.includes("BEGIN:VCALENDAR")) {
    throw new CalendarImportError("Cette adresse ne donne pas un agenda iCal.");
  }
  return body;
}

/**
 * Imports every photographer's calendar: its busy times from yesterday to 400 days ahead replace the
 * previous ones; a failure keeps the previous ones and says why on the settings page. Returns how many
 * calendars were imported.
 */
export async function importExternalCalendars(
  options: { now?: Date; fetcher?: typeof fetch; allowPrivate?: boolean } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const allowPrivate = options.allowPrivate ?? env().BOOKING_CALENDAR_ALLOW_PRIVATE === "1";
  const from = new Date(now.getTime() - DAY);
  const to = new Date(now.getTime() + AHEAD_DAYS * DAY);
  let imported = 0;
  for (const calendar of await listExternalCalendars()) {
    try {
      const busy = await busyIntervalsOf(
        await download(calendar.url, options.fetcher ?? fetch, allowPrivate),
        from,
        to,
      );
      await db().transaction(async (tx) => {
        await tx.delete(bookingExternalBusy).where(eq(bookingExternalBusy.calendarId, calendar.id));
        for (let index = 0; index < busy.length; index += 1000) {
          await tx.insert(bookingExternalBusy).values(
            busy.slice(index, index + 1000).map((interval) => ({
              calendarId: calendar.id,
              photographerId: calendar.photographerId,
              startsAt: new Date(interval.start),
              endsAt: new Date(interval.end),
            })),
          );
        }
        await tx
          .update(bookingExternalCalendars)
          .set({ lastSyncedAt: now, lastError: null })
          .where(eq(bookingExternalCalendars.id, calendar.id));
      });
      imported += 1;
    } catch (error) {
      const message =
        error instanceof CalendarImportError
          ? error.message
          : "L'agenda n'a pas pu être lu à cette adresse.";
      log.warn("external_calendar_import_failed", { calendarId: calendar.id, error });
      await db()
        .update(bookingExternalCalendars)
        .set({ lastError: message })
        .where(eq(bookingExternalCalendars.id, calendar.id));
    }
  }
  return imported;
}

/**
 * The imported busy times of `photographerIds` overlapping [from, to), by photographer: what
 * availability.server.ts adds to each photographer's `busy` (one query, beside the occupancies').
 */
export async function externalBusyOf(
  photographerIds: readonly string[],
  from: Date,
  to: Date,
): Promise<Map<string, Interval[]>> {
  const byPhotographer = new Map<string, Interval[]>();
  if (photographerIds.length === 0) return byPhotographer;
  const rows = await db()
    .select({
      photographerId: bookingExternalBusy.photographerId,
      startsAt: bookingExternalBusy.startsAt,
      endsAt: bookingExternalBusy.endsAt,
    })
    .from(bookingExternalBusy)
    .where(
      and(
        inArray(bookingExternalBusy.photographerId, [...photographerIds]),
        lt(bookingExternalBusy.startsAt, to),
        gt(bookingExternalBusy.endsAt, from),
      ),
    );
  for (const row of rows) {
    const list = byPhotographer.get(row.photographerId) ?? [];
    list.push({ start: row.startsAt.getTime(), end: row.endsAt.getTime() });
    byPhotographer.set(row.photographerId, list);
  }
  return byPhotographer;
}

/**
 * `availability` with the imported busy times of its photographers between `from` and `to` added to their
 * `busy` (the slot computation merges overlapping intervals). For loadAvailability in
 * availability.server.ts: `return withExternalBusy(availabilityAt(…), from, to);`.
 */
export async function withExternalBusy(
  availability: Availability,
  from: Date,
  to: Date,
): Promise<Availability> {
  const external = await externalBusyOf(
    availability.photographers.map((photographer) => photographer.id),
    from,
    to,
  );
  if (external.size === 0) return availability;
  return {
    ...availability,
    photographers: availability.photographers.map((photographer) => ({
      id: photographer.id,
      busy: [...photographer.busy, ...(external.get(photographer.id) ?? [])],
    })),
  };
}
