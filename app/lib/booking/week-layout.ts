import { DAYS } from "~/content/days";
import type { Closure, WeeklyHours } from "~/content/schemas";
import { parisDateTimeInputValue } from "../dates";
import { timeLabelFr } from "./words";

/*
 * Where the owner's week grid draws each booking and blocked time (decision 0116): per day column, from the
 * Paris wall clock, in minutes after the grid's first hour, side by side when they overlap (two studios at
 * once). Pure: the component only turns these figures into percentages.
 */

export type TimedItem = { id: string; startsAt: string; endsAt: string };

export type PlacedItem<T extends TimedItem> = {
  item: T;
  /** Minutes after the grid's first hour at which it starts (clipped to the grid). */
  top: number;
  /** Minutes it lasts on the grid (at least MIN_MINUTES, to stay readable and tappable). */
  height: number;
  /** Its lane among those it overlaps, and how many lanes its group of overlapping items has. */
  lane: number;
  lanes: number;
};

/** The shortest block drawn (a 15-minute session still shows its time and client). */
export const MIN_MINUTES = 30;
/** Hours the grid shows at the least: a usual studio day. */
export const DEFAULT_HOURS = { first: 8, last: 20 } as const;

const DAY_MINUTES = 24 * 60;

/** The Paris day (YYYY-MM-DD) and minutes after midnight of an ISO instant. */
function wallClock(iso: string): { day: string; minutes: number } {
  const local = parisDateTimeInputValue(iso);
  return {
    day: local.slice(0, 10),
    minutes: Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16)),
  };
}

/** The part of an item on `day`, in minutes after midnight; null when it does not touch that day. */
function minutesOn(day: string, item: TimedItem): { start: number; end: number } | null {
  const start = wallClock(item.startsAt);
  const end = wallClock(item.endsAt);
  if (end.day < day || start.day > day) return null;
  const from = start.day < day ? 0 : start.minutes;
  const to = end.day > day ? DAY_MINUTES : end.minutes;
  return to > from ? { start: from, end: to } : null;
}

/**
 * The hours the grid covers for these days: the usual day, widened to hold every booking (blocked time,
 * often whole days of leave, is drawn only where it meets the grid).
 */
export function gridHours(
  days: readonly string[],
  items: readonly TimedItem[],
): { first: number; last: number } {
  let first: number = DEFAULT_HOURS.first;
  let last: number = DEFAULT_HOURS.last;
  for (const day of days) {
    for (const item of items) {
      const span = minutesOn(day, item);
      if (!span) continue;
      first = Math.min(first, Math.floor(span.start / 60));
      last = Math.max(last, Math.ceil(span.end / 60));
    }
  }
  return { first, last };
}

/**
 * The items of `day` placed on a grid from `hours.first` to `hours.last`: in time order, each group of
 * items that overlap shares the column's width in lanes, each item in the first lane free at its start.
 */
export function placeDay<T extends TimedItem>(
  day: string,
  items: readonly T[],
  hours: { first: number; last: number },
): PlacedItem<T>[] {
  const gridStart = hours.first * 60;
  const gridEnd = hours.last * 60;
  const spans = items
    .map((item) => ({ item, span: minutesOn(day, item) }))
    .filter(
      (entry): entry is { item: T; span: { start: number; end: number } } =>
        !!entry.span && entry.span.end > gridStart && entry.span.start < gridEnd,
    )
    .map(({ item, span }) => {
      const start = Math.max(span.start, gridStart);
      const end = Math.min(Math.max(span.end, start + MIN_MINUTES), gridEnd);
      return { item, start, end: Math.max(end, start + 1) };
    })
    .sort((a, b) => a.start - b.start || b.end - a.end);

  const placed: PlacedItem<T>[] = [];
  let group: { entry: PlacedItem<T>; end: number }[] = [];
  let groupEnd = -1;
  const closeGroup = () => {
    const lanes = Math.max(1, ...group.map(({ entry }) => entry.lane + 1));
    for (const { entry } of group) entry.lanes = lanes;
    group = [];
  };
  for (const { item, start, end } of spans) {
    if (start >= groupEnd) {
      closeGroup();
      groupEnd = end;
    } else {
      groupEnd = Math.max(groupEnd, end);
    }
    const busy = new Set(group.filter((other) => other.end > start).map(({ entry }) => entry.lane));
    let lane = 0;
    while (busy.has(lane)) lane += 1;
    const entry: PlacedItem<T> = {
      item,
      top: start - gridStart,
      height: end - start,
      lane,
      lanes: 1,
    };
    group.push({ entry, end });
    placed.push(entry);
  }
  closeGroup();
  return placed;
}

/** What the week grid needs of a studio to shade its closed hours (decision 0138). */
export type StudioOpening = { name: string; hours: WeeklyHours; closures: readonly Closure[] };

type Span = { start: number; end: number };

const minutesOfTime = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A studio's opening ranges on a Paris day (none when closed: its week, or a dated closure). */
function rangesOn(day: string, studio: StudioOpening): { opens: string; closes: string }[] {
  if (studio.closures.some((closure) => closure.from <= day && day <= closure.to)) return [];
  const weekday = DAYS[(new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7];
  return (weekday && studio.hours[weekday]) || [];
}

export type DayOpening = {
  /** When at least one of the studios is open, merged, in minutes after midnight. */
  open: Span[];
  /** Each studio's hours that day in words: « Studio de Brive : ouvert de 9 h à 12 h et de 14 h à 18 h ». */
  summary: string;
};

/**
 * When the studios shown are open on a Paris day (decision 0138): the grid shades the rest, the time when
 * none of them is open (with a studio filter, that studio's closed hours), and says each one's hours.
 */
export function dayOpening(day: string, studios: readonly StudioOpening[]): DayOpening {
  const spans: Span[] = [];
  const lines: string[] = [];
  for (const studio of studios) {
    const ranges = [...rangesOn(day, studio)].sort((a, b) => a.opens.localeCompare(b.opens));
    for (const range of ranges) {
      spans.push({ start: minutesOfTime(range.opens), end: minutesOfTime(range.closes) });
    }
    const words = ranges
      .map((range) => `de ${timeLabelFr(range.opens)} à ${timeLabelFr(range.closes)}`)
      .join(" et ");
    lines.push(`${studio.name} : ${words ? `ouvert ${words}` : "fermé"}`);
  }
  spans.sort((a, b) => a.start - b.start);
  const open: Span[] = [];
  for (const span of spans) {
    const last = open.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else open.push({ ...span });
  }
  return { open, summary: lines.join(" ; ") };
}

/** The parts of a grid from `hours.first` to `hours.last` outside `open`, in minutes after its first hour. */
export function closedSpans(
  open: readonly Span[],
  hours: { first: number; last: number },
): { top: number; height: number }[] {
  const gridStart = hours.first * 60;
  const gridEnd = hours.last * 60;
  const closed: { top: number; height: number }[] = [];
  let cursor = gridStart;
  for (const span of [...open, { start: gridEnd, end: gridEnd }]) {
    const end = Math.min(span.start, gridEnd);
    if (end > cursor) closed.push({ top: cursor - gridStart, height: end - cursor });
    cursor = Math.max(cursor, span.end);
  }
  return closed;
}

/** Whether the hour starting at `hour` (0–23) is wholly outside `open`. */
export function hourClosed(open: readonly Span[], hour: number): boolean {
  return !open.some((span) => span.start < (hour + 1) * 60 && span.end > hour * 60);
}
