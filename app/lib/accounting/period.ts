/*
 * The period of the accountant's exports (decision 0182): two Paris days, both included, typed in the
 * page's date fields (`YYYY-MM-DD`), or as `jj/mm/aaaa` where a browser shows a plain text field (its
 * message asks for that form); by default the last whole month.
 */

export type PeriodInput = { from: string; to: string };
export type PeriodErrors = Partial<Record<"du" | "au", string>>;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const FRENCH_DAY = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

/** A day typed `jj/mm/aaaa` (or with dots or dashes) as `YYYY-MM-DD`; any other text as it was, trimmed. */
function isoDayOf(typed: string): string {
  const value = typed.trim();
  const match = FRENCH_DAY.exec(value);
  if (!match) return value;
  const [, day, month, year] = match as unknown as [string, string, string, string];
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/** Whether `value` is a day of the calendar (`2027-02-30` is not). */
export function isCalendarDay(value: string): boolean {
  const match = ISO_DAY.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** The last whole month before the Paris day `today`. */
export function lastMonth(today: string): PeriodInput {
  const [year, month] = today.split("-").map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 2, 1));
  const last = new Date(Date.UTC(year, month - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/** The period typed, or what is wrong with it, in French, by field. */
export function checkPeriod(
  typedFrom: string,
  typedTo: string,
): { ok: true; period: PeriodInput } | { ok: false; errors: PeriodErrors } {
  const from = isoDayOf(typedFrom);
  const to = isoDayOf(typedTo);
  const errors: PeriodErrors = {};
  if (!isCalendarDay(from)) errors.du = "Indiquez le premier jour de la période (jj/mm/aaaa).";
  if (!isCalendarDay(to)) errors.au = "Indiquez le dernier jour de la période (jj/mm/aaaa).";
  if (!errors.du && !errors.au && from > to) {
    errors.au = "Le dernier jour doit venir après le premier.";
  }
  return Object.keys(errors).length > 0
    ? { ok: false, errors }
    : { ok: true, period: { from, to } };
}
