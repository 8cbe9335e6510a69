import { DAYS, type DayOfWeek } from "~/content/days";
import type { Closure, OpeningRange, WeeklyHours } from "~/content/schemas";

export const weekDays: readonly DayOfWeek[] = DAYS;

/** The days' names as French writes them in a sentence (« lundi »). */
export const frenchDayNames: Record<DayOfWeek, string> = {
  Monday: "lundi",
  Tuesday: "mardi",
  Wednesday: "mercredi",
  Thursday: "jeudi",
  Friday: "vendredi",
  Saturday: "samedi",
  Sunday: "dimanche",
};

/** One line of the hours as a visitor reads it: days, then one text per opening ('Fermé' when closed). */
export type HoursLine = { days: string; hours: string[] };

/** Days in a row with the same openings. */
type DayRun = { days: DayOfWeek[]; ranges: OpeningRange[] };

function openDayRuns(hours: WeeklyHours): DayRun[] {
  const runs: DayRun[] = [];
  let previous: DayOfWeek | undefined;
  for (const day of weekDays) {
    const ranges = hours[day] ?? [];
    const last = runs.at(-1);
    if (ranges.length === 0) {
      previous = undefined;
      continue;
    }
    const sameAsPrevious =
      last && previous && last.days.at(-1) === previous && sameRanges(last.ranges, ranges);
    if (sameAsPrevious) last.days.push(day);
    else runs.push({ days: [day], ranges });
    previous = day;
  }
  return runs;
}

function sameRanges(a: OpeningRange[], b: OpeningRange[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** "09:00" → "9h", "12:30" → "12h30" */
export function frenchTime(time: string): string {
  const [hours = "", minutes = ""] = time.split(":");
  return `${Number(hours)}h${minutes === "00" ? "" : minutes}`;
}

function rangeText(range: OpeningRange): string {
  const text = `${frenchTime(range.opens)} – ${frenchTime(range.closes)}`;
  return range.note ? `${text} ${range.note}` : text;
}

/** 'Le samedi', 'Le mardi et le mercredi', 'Du mardi au samedi' (consecutive days). */
function runLabel(days: DayOfWeek[]): string {
  const names = days.map((day) => frenchDayNames[day]);
  if (names.length >= 3) return `Du ${names[0]} au ${names.at(-1)}`;
  return `Le ${names.join(" et le ")}`;
}

/** 'Le lundi et le dimanche', 'Le lundi, le mercredi et le dimanche' (any days). */
function listLabel(days: DayOfWeek[]): string {
  const names = days.map((day) => `le ${frenchDayNames[day]}`);
  const text = names.length > 1 ? `${names.slice(0, -1).join(", ")} et ${names.at(-1)}` : names[0];
  return `${text?.charAt(0).toUpperCase()}${text?.slice(1)}`;
}

/** The week as lines to show: open days in week order, then the closed days in one line. */
export function openingLines(hours: WeeklyHours): HoursLine[] {
  const lines: HoursLine[] = openDayRuns(hours).map((run) => ({
    days: runLabel(run.days),
    hours: run.ranges.map(rangeText),
  }));
  const closed = weekDays.filter((day) => (hours[day] ?? []).length === 0);
  if (closed.length > 0) lines.push({ days: listLabel(closed), hours: ["Fermé"] });
  return lines;
}

/** The same week for search engines (schema.org OpeningHoursSpecification). */
export function openingHoursSpecification(hours: WeeklyHours) {
  return openDayRuns(hours).flatMap((run) =>
    run.ranges.map((range) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: run.days,
      opens: range.opens,
      closes: range.closes,
      ...(range.note ? { description: range.note } : {}),
    })),
  );
}

// --- Dated closures (holidays, public holidays) ----------------------------------------------------------

/** The closures that are under way or still to come on `today` (ISO date), in date order. */
export function upcomingClosures(closures: readonly Closure[], today: string): Closure[] {
  return closures
    .filter((closure) => closure.to >= today)
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

let dayAndMonthCache: Intl.DateTimeFormat | undefined;
// Created on first use: the first Intl object of a page loads its locale data (tens of ms on a phone).
const dayAndMonth = () =>
  (dayAndMonthCache ??= new Intl.DateTimeFormat("fr-FR", {
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  }));

/** "2026-12-24" → "24 décembre", "2027-05-01" → "1er mai" (as French writes the first day of a month). */
function frenchDate(iso: string): string {
  return dayAndMonth()
    .format(new Date(`${iso}T00:00:00Z`))
    .replace(/^1 /, "1er ");
}

/**
 * « Fermeture exceptionnelle du 24 décembre au 2 janvier : congés », « … le 1er mai : fête du Travail ».
 * Only closures under way or to come are shown, so the day and month are enough.
 */
export function closureText(closure: Closure): string {
  const when =
    closure.from === closure.to
      ? `le ${frenchDate(closure.from)}`
      : `du ${frenchDate(closure.from)} au ${frenchDate(closure.to)}`;
  const label = closure.label.trim();
  return `Fermeture exceptionnelle ${when}${label ? ` : ${label}` : ""}`;
}

/** The closures for search engines: closed from `from` to `to` (schema.org special opening hours). */
export function specialOpeningHoursSpecification(closures: readonly Closure[]) {
  return closures.map((closure) => ({
    "@type": "OpeningHoursSpecification",
    validFrom: closure.from,
    validThrough: closure.to,
    opens: "00:00",
    closes: "00:00",
    ...(closure.label.trim() ? { description: closure.label.trim() } : {}),
  }));
}
