/** The months' names as French writes them in dates. */
export const FRENCH_MONTHS = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];

/** The last Sunday of a month (UTC date), at 01:00 UTC: when France changes its clocks. */
function lastSundayAt1Utc(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0, 1));
  return last.getTime() - last.getUTCDay() * 86_400_000;
}

/**
 * How many hours Paris is ahead of UTC at an instant, without Intl (the first Intl object of a page loads
 * its locale data, a long task on a phone while the page hydrates): 1, and 2 from the last Sunday of March
 * to the last Sunday of October at 01:00 UTC (EU rule). dates.test.ts checks it against Intl.
 */
function parisOffsetHours(time: number): 1 | 2 {
  const year = new Date(time).getUTCFullYear();
  return time >= lastSundayAt1Utc(year, 2) && time < lastSundayAt1Utc(year, 9) ? 2 : 1;
}

/** An instant as Paris's wall clock reads it, in the UTC fields of a Date. */
function parisWallClock(date: Date): Date {
  const time = date.getTime();
  return new Date(time + parisOffsetHours(time) * 3_600_000);
}

/** The calendar day in Paris of an instant. */
function parisDay(date: Date): { year: number; month: number; day: number } {
  const local = parisWallClock(date);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth(), day: local.getUTCDate() };
}

/** The first of the month as French writes it: « 1er décembre », never « 1 décembre ». */
export const firstOfMonth = (text: string): string => text.replace(/(^|\D)1(?= \p{L})/u, "$11er");

/** A date as French visitors read it, in the studios' time zone: '5 mars 2025', '1er décembre 2025'. */
export function formatDateFr(date: Date | string): string {
  const { year, month, day } = parisDay(typeof date === "string" ? new Date(date) : date);
  return `${day === 1 ? "1er" : day} ${FRENCH_MONTHS[month]} ${year}`;
}

let frenchDateTimeCache: Intl.DateTimeFormat | undefined;
// Created on first use: the first Intl object of a page loads its locale data (tens of ms on a phone).
const frenchDateTime = () =>
  (frenchDateTimeCache ??= new Intl.DateTimeFormat("fr-FR", {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Paris",
  }));

/** Date and time for tables and exports, in the studios' time zone: '23/11/2026 14:32'. */
export function formatDateTimeFr(date: Date | string): string {
  // Intl writes "23/11/2026 14:32" (some versions put a comma after the date): one form for spreadsheets.
  return frenchDateTime()
    .format(typeof date === "string" ? new Date(date) : date)
    .replace(",", "");
}

/** The day in Paris as YYYY-MM-DD (file names that sort by date, closures and offers compared as text). */
export function isoDayInParis(date: Date): string {
  const { year, month, day } = parisDay(date);
  return `${year}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Today in Paris as an ISO date (« 2026-12-24 »): the studios' own calendar. */
export function parisToday(now = new Date()): string {
  return isoDayInParis(now);
}

let longDateTimeCache: Intl.DateTimeFormat | undefined;
const longDateTime = () =>
  (longDateTimeCache ??= new Intl.DateTimeFormat("fr-FR", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "Europe/Paris",
  }));

/** Date and time in words, in the studios' time zone: '23 novembre 2026 à 14:32' (histories). */
export function formatLongDateTimeFr(date: Date | string): string {
  return firstOfMonth(longDateTime().format(typeof date === "string" ? new Date(date) : date));
}

const two = (value: number) => String(value).padStart(2, "0");

/** An instant as `<input type="datetime-local">` shows it in Paris: '2026-03-05T14:30'. */
export function parisDateTimeInputValue(date: Date | string): string {
  const local = parisWallClock(typeof date === "string" ? new Date(date) : date);
  return `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}T${two(
    local.getUTCHours(),
  )}:${two(local.getUTCMinutes())}`;
}

/**
 * A calendar date and time (month 1 to 12) as the milliseconds of the same fields read in UTC, or null when
 * it is no real date and time (31/02, 13/13, 24:00, a year written with fewer than four digits).
 */
export function wallTime(
  year: number,
  month: number,
  day: number,
  hours = 0,
  minutes = 0,
  seconds = 0,
): number | null {
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hours, minutes, seconds);
  const check = new Date(wall);
  // Date.UTC moves 31/02 to March and reads years 0 to 99 as 1900 to 1999.
  const real =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day;
  return real ? wall : null;
}

/**
 * The instant when Paris's clocks read `wall` (wallTime's milliseconds). The hour the spring change skips is
 * read in winter time (02:30 becomes 03:30 summer time); the hour the autumn change repeats, at its first
 * occurrence.
 */
export function parisWallTimeToInstant(wall: number): Date {
  for (const offset of [2, 1] as const) {
    const time = wall - offset * 3_600_000;
    if (parisOffsetHours(time) === offset) return new Date(time);
  }
  return new Date(wall - 3_600_000);
}

/**
 * Every instant when Paris's clocks read `wall` (wallTime's milliseconds), earliest first: none in the hour
 * the spring change skips, two in the hour the autumn change repeats, one otherwise. Booking slots use it
 * so that a skipped time is never offered and a repeated one is offered once.
 */
export function parisWallTimeInstants(wall: number): number[] {
  const instants: number[] = [];
  for (const offset of [2, 1] as const) {
    const time = wall - offset * 3_600_000;
    if (parisOffsetHours(time) === offset) instants.push(time);
  }
  return instants;
}

/** The milliseconds of Paris's wall clock at an instant, read as UTC fields (wallTime's scale). */
export function parisWallTimeOf(instant: number): number {
  return instant + parisOffsetHours(instant) * 3_600_000;
}

/**
 * The years the product reads in a date typed or put in an address (decision 0122): nothing of a studio
 * happens before 1970 or after 2999 (an article may be scheduled far ahead), and a date outside them
 * (« 0001-01-01 », « 9999-12-31 ») is refused like 31/02 before it reaches a query or date arithmetic
 * (JavaScript reads years 0 to 99 as 1900 to 1999, PostgreSQL's timestamptz refuses year 10000).
 */
export const FIRST_YEAR = 1970;
export const LAST_YEAR = 2999;

/** A calendar day and time of day, as written (month 1 to 12). */
export type CalendarDateTime = {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** « YYYY-MM-DD ». */
  isoDay: string;
  /** wallTime's milliseconds: the fields read as UTC. */
  wall: number;
};

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/**
 * THE reader of calendar dates and date-times for the whole product (decision 0122): « YYYY-MM-DD », or with
 * `time` « YYYY-MM-DDTHH:MM[:SS[.mmm]] » (what `<input type="datetime-local">` posts and booking slot keys
 * are). Null for anything else: no real date or time (2026-12-32, 2026-00-10, 24:00), a year outside
 * FIRST_YEAR…LAST_YEAR, or no text.
 */
export function parseCalendar(
  value: unknown,
  { time }: { time: boolean },
): CalendarDateTime | null {
  if (typeof value !== "string" || value.length > 32) return null;
  const match = (time ? LOCAL_DATE_TIME : ISO_DAY).exec(value);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = [1, 2, 3, 4, 5, 6].map((index) =>
    Number(match[index] ?? 0),
  ) as [number, number, number, number, number, number];
  if (year < FIRST_YEAR || year > LAST_YEAR) return null;
  const wall = wallTime(year, month, day, hours, minutes, seconds);
  if (wall === null) return null;
  return { year, month, day, hours, minutes, seconds, isoDay: value.slice(0, 10), wall };
}

/** A real calendar day « YYYY-MM-DD » within the product's years (parseCalendar), or null. */
export const parseIsoDay = (value: unknown): string | null =>
  parseCalendar(value, { time: false })?.isoDay ?? null;

/** True for a real calendar day « YYYY-MM-DD » within the product's years (parseCalendar). */
export const isIsoDay = (value: unknown): value is string => parseIsoDay(value) !== null;

/**
 * A date and time of Paris's wall clock ('2026-03-05T14:30', what `<input type="datetime-local">` posts)
 * as an instant; null when it is no real date and time (parseCalendar; see parisWallTimeToInstant for the
 * clock changes).
 */
export function parisDateTimeToInstant(value: string): Date | null {
  const parsed = parseCalendar(value, { time: true });
  return parsed === null ? null : parisWallTimeToInstant(parsed.wall);
}
