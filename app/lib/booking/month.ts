import { dayLabelFr } from "./words";

/*
 * The month view of free days (decision 0124): months as « AAAA-MM », the weeks of a month from Monday, in
 * the Paris calendar (days are plain « AAAA-MM-JJ », never instants).
 */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** « 2026-12 » from the address, else null (any other text, « 2026-13 », « 0000-00 »). */
export function parseMonth(value: string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const match = MONTH.exec(value);
  return match && Number(match[1]) >= 1 ? value : null;
}

/** The month of a day: « 2026-12 » for « 2026-12-03 ». */
export const monthOf = (day: string): string => day.slice(0, 7);

/** The month `count` months after `month` (before, when negative). */
export function addMonths(month: string, count: number): string {
  const [year = 0, monthNumber = 1] = month.split("-").map(Number);
  const index = year * 12 + (monthNumber - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** How many days `month` has. */
export function daysInMonth(month: string): number {
  const [year = 0, monthNumber = 1] = month.split("-").map(Number);
  return new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
}

/** The month's first and last days. */
export const monthBounds = (month: string) => ({
  first: `${month}-01`,
  last: `${month}-${String(daysInMonth(month)).padStart(2, "0")}`,
});

/** The month's weeks, Monday first: each a row of 7 days, null before the 1st and after the last day. */
export function monthWeeks(month: string): (string | null)[][] {
  const count = daysInMonth(month);
  // getUTCDay: 0 is Sunday; the French week starts on Monday.
  const lead = (new Date(`${month}-01T12:00:00Z`).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from(
      { length: count },
      (_, index) => `${month}-${String(index + 1).padStart(2, "0")}`,
    ),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

let monthFormat: Intl.DateTimeFormat | undefined;

/** « décembre 2026 » for « 2026-12 ». */
export function monthLabelFr(month: string): string {
  monthFormat ??= new Intl.DateTimeFormat("fr-FR", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return monthFormat.format(new Date(`${month}-15T12:00:00Z`));
}

/** What a free day's link says to a screen reader: « jeudi 3 décembre, 5 horaires libres ». */
export function freeDayLabelFr(day: string, count: number): string {
  return `${dayLabelFr(day)}, ${count} ${count > 1 ? "horaires libres" : "horaire libre"}`;
}
