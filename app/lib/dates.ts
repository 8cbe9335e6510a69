const FRENCH_MONTHS = [
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
 * The calendar day in Paris of an instant, without Intl (the first Intl object of a page loads its locale
 * data, a long task on a phone while the page hydrates): UTC+1, and UTC+2 from the last Sunday of March to
 * the last Sunday of October at 01:00 UTC (EU rule). dates.test.ts checks it against Intl.
 */
function parisDay(date: Date): { year: number; month: number; day: number } {
  const year = date.getUTCFullYear();
  const time = date.getTime();
  const summer = time >= lastSundayAt1Utc(year, 2) && time < lastSundayAt1Utc(year, 9);
  const local = new Date(time + (summer ? 2 : 1) * 3_600_000);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth(), day: local.getUTCDate() };
}

/** A date as French visitors read it, in the studios' time zone: '5 mars 2025'. */
export function formatDateFr(date: Date | string): string {
  const { year, month, day } = parisDay(typeof date === "string" ? new Date(date) : date);
  return `${day} ${FRENCH_MONTHS[month]} ${year}`;
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
  return longDateTime().format(typeof date === "string" ? new Date(date) : date);
}
