import { DAYS } from "~/content/days";
import type { Closure, WeeklyHours } from "~/content/schemas";
import { isoDayInParis, parseCalendar, parisWallTimeInstants, parisWallTimeOf } from "~/lib/dates";
import { effectiveHours, type BookableHours } from "./session-types";

/*
 * Free booking slots, computed without I/O (decision record 0113). Times are instants (milliseconds since
 * the epoch, or Dates); opening hours are Paris wall times, turned into instants day by day, so that the
 * clock changes neither skip nor double a slot: a wall time the spring change skips is never offered, one
 * the autumn change repeats is offered once, at its first occurrence.
 *
 * Rules:
 * - a start is an opening range's opening time plus a whole number of steps (`stepMinutes`);
 * - the session itself (start to start + duration) fits inside one opening range; its buffers need not
 *   (preparing before opening or tidying after closing is the owner's business), but they do occupy the
 *   studio and the photographer, so they keep two sessions apart;
 * - a start is at least `minimumNoticeHours` after `now`, on a Paris day at most `horizonDays` after today;
 * - no day of a studio closure (`from` to `to`, included) is bookable;
 * - the studio is free over the start − buffer before … end + buffer after window, and so is at least one
 *   photographer who covers the studio (their busy intervals already include travel: see availabilityAt).
 */

/** A half-open interval of instants in milliseconds: [start, end). */
export type Interval = { start: number; end: number };

/** What a session type says about when it can be booked. */
export type SlotRules = {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeHours: number;
  horizonDays: number;
  stepMinutes: number;
};

/** The studio's week and closures, and the session type's override of the week (null: none). */
export type SlotCalendar = {
  hours: WeeklyHours;
  closures: readonly Closure[];
  override: BookableHours | null;
};

/**
 * What is already taken, as busy intervals: the studio's own (any photographer, studio-wide blocked time),
 * and for each photographer covering the studio, when he or she cannot work there (bookings anywhere,
 * widened by travel; blocked time; imported busy times of an external calendar).
 */
export type Availability = {
  studioBusy: readonly Interval[];
  photographers: readonly { id: string; busy: readonly Interval[] }[];
};

export type SlotInput = {
  rules: SlotRules;
  calendar: SlotCalendar;
  availability: Availability;
  now: Date;
  /** The first and last Paris days to compute (YYYY-MM-DD); default: today to the horizon's last day. */
  fromDay?: string;
  toDay?: string;
};

/** A free start: its instants, its Paris wall time, and the photographers free for it (first is preferred). */
export type FreeSlot = {
  start: Date;
  end: Date;
  /** « 10:30 », Paris time. */
  time: string;
  /** « 2026-03-29T10:30 »: the Paris wall time that names this slot in links and forms (see checkSlot). */
  key: string;
  photographerIds: string[];
};

/** The free slots of one Paris day, in time order. */
export type FreeDay = { day: string; slots: FreeSlot[] };

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const minutesOf = (time: string): number => {
  const [hours = "0", minutes = "0"] = time.split(":");
  return Number(hours) * 60 + Number(minutes);
};

const two = (value: number) => String(value).padStart(2, "0");

/** The wall-scale milliseconds of 00:00 of a Paris day « YYYY-MM-DD », or null when it is no real date. */
function dayWall(day: string): number | null {
  return parseCalendar(day, { time: false })?.wall ?? null;
}

const isoDayOfWall = (wall: number) => new Date(wall).toISOString().slice(0, 10);

/**
 * The instant a Paris wall time begins to be read: its first occurrence, or for a time the spring change
 * skips, the change itself (the clocks jump from 02:00 to 03:00 on the full hour).
 */
function firstInstantAtOrAfter(wall: number): number {
  const instants = parisWallTimeInstants(wall);
  if (instants[0] !== undefined) return instants[0];
  const summerReading = wall - HOUR;
  return summerReading - (summerReading % HOUR);
}

/** The instant a Paris wall time is read for the last time (its second occurrence in the repeated hour). */
function lastInstantAtOrAfter(wall: number): number {
  const instants = parisWallTimeInstants(wall);
  return instants.at(-1) ?? firstInstantAtOrAfter(wall);
}

/**
 * A Paris day's wall-time range (« 09:00 » to « 18:00 ») as instants. Across a clock change the range's real
 * length differs from its wall length: 01:00–04:00 lasts two hours on the last Sunday of March and four on
 * the last Sunday of October (the closing time is read at its last occurrence).
 */
export function parisWallRange(day: string, opens: string, closes: string): Interval {
  const base = dayWall(day);
  if (base === null) throw new Error(`Jour invalide : ${day}`);
  return {
    start: firstInstantAtOrAfter(base + minutesOf(opens) * MINUTE),
    end: lastInstantAtOrAfter(base + minutesOf(closes) * MINUTE),
  };
}

/** Sorted, merged copies of busy intervals: a binary search then says whether a window is free. */
function merged(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((interval) => interval.end > interval.start);
  sorted.sort((a, b) => a.start - b.start);
  const result: Interval[] = [];
  for (const interval of sorted) {
    const last = result.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else result.push({ ...interval });
  }
  return result;
}

/** True when [start, end) meets none of the merged intervals. */
function isFree(busy: readonly Interval[], start: number, end: number): boolean {
  // The first interval ending after `start`: the only one that can overlap, since they are merged.
  let low = 0;
  let high = busy.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((busy[middle]?.end ?? Infinity) <= start) low = middle + 1;
    else high = middle;
  }
  const candidate = busy[low];
  return !candidate || candidate.start >= end;
}

type PreparedAvailability = {
  studio: Interval[];
  photographers: { id: string; busy: Interval[] }[];
};

const prepare = (availability: Availability): PreparedAvailability => ({
  studio: merged(availability.studioBusy),
  photographers: availability.photographers.map(({ id, busy }) => ({ id, busy: merged(busy) })),
});

/** A candidate start of a day: a step of an opening range, before the checks of notice and occupancy. */
type Candidate = { start: number; end: number; time: string };

/** The day's candidate starts (time order, each start once), or null when the day is closed. */
function candidatesOfDay(
  rules: SlotRules,
  calendar: SlotCalendar,
  day: string,
): Candidate[] | null {
  const base = dayWall(day);
  if (base === null) return null;
  if (calendar.closures.some((closure) => closure.from <= day && day <= closure.to)) return null;
  const weekday = DAYS[(new Date(base).getUTCDay() + 6) % 7];
  const ranges = (weekday && effectiveHours(calendar.hours, calendar.override)[weekday]) || [];
  if (ranges.length === 0) return null;
  const duration = rules.durationMinutes * MINUTE;
  const step = Math.max(1, rules.stepMinutes);
  const candidates: Candidate[] = [];
  for (const range of ranges) {
    const opens = minutesOf(range.opens);
    const closes = minutesOf(range.closes);
    const rangeEnd = lastInstantAtOrAfter(base + closes * MINUTE);
    for (let minutes = opens; minutes < closes; minutes += step) {
      // A skipped wall time has no instant; a repeated one is taken at its first occurrence.
      const start = parisWallTimeInstants(base + minutes * MINUTE)[0];
      if (start === undefined || start + duration > rangeEnd) continue;
      candidates.push({
        start,
        end: start + duration,
        time: `${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`,
      });
    }
  }
  // Overlapping ranges of badly entered hours must not offer a start twice.
  candidates.sort((a, b) => a.start - b.start);
  return candidates.filter((candidate, index) => candidates[index - 1]?.start !== candidate.start);
}

/** The Paris day `days` days after `day`. */
export function addParisDays(day: string, days: number): string {
  const base = dayWall(day);
  if (base === null) throw new Error(`Jour invalide : ${day}`);
  return isoDayOfWall(base + days * DAY);
}

/**
 * The week the next free times after a refused one are looked for in first: from `fromDay`, or from today in
 * Paris when it is null or gone. Paris's day, not UTC's: until 01:00 (02:00 in summer) UTC's is the day
 * before, and the week would be a day short.
 */
export function nextFreeTimesWeek(
  fromDay: string | null,
  now: Date,
): { fromDay: string; toDay: string } {
  const today = isoDayInParis(now);
  const first = fromDay !== null && fromDay > today ? fromDay : today;
  return { fromDay: first, toDay: addParisDays(first, 6) };
}

/** The last Paris day a session type can be booked on, seen from `now`. */
export function horizonLastDay(rules: SlotRules, now: Date): string {
  return addParisDays(isoDayInParis(now), rules.horizonDays);
}

/** The photographers free over a window, in the order given; [] when the studio itself is taken. */
function freePhotographers(prepared: PreparedAvailability, start: number, end: number): string[] {
  if (!isFree(prepared.studio, start, end)) return [];
  const ids: string[] = [];
  for (const photographer of prepared.photographers) {
    if (isFree(photographer.busy, start, end)) ids.push(photographer.id);
  }
  return ids;
}

/**
 * The photographers free over an occupied window (buffers included), in the order given; [] when the studio
 * itself is taken. For a time chosen outside the rules (the owner's booking by phone).
 */
export function photographersFreeFor(availability: Availability, window: Interval): string[] {
  return freePhotographers(prepare(availability), window.start, window.end);
}

/** The occupied window of a session starting at `start`: its buffers included. */
export function occupiedWindow(rules: SlotRules, start: number): Interval {
  return {
    start: start - rules.bufferBeforeMinutes * MINUTE,
    end: start + (rules.durationMinutes + rules.bufferAfterMinutes) * MINUTE,
  };
}

/**
 * The free slots from `fromDay` (default: today in Paris) to `toDay` (default and at most: the horizon's
 * last day), grouped by Paris day; days without a free slot are left out.
 */
export function freeSlots(input: SlotInput): FreeDay[] {
  const { rules, calendar, now } = input;
  const today = isoDayInParis(now);
  const lastDay = horizonLastDay(rules, now);
  const fromDay = input.fromDay && input.fromDay > today ? input.fromDay : today;
  const toDay = input.toDay && input.toDay < lastDay ? input.toDay : lastDay;
  const earliest = now.getTime() + rules.minimumNoticeHours * HOUR;
  const prepared = prepare(input.availability);
  const days: FreeDay[] = [];
  for (let day = fromDay; day <= toDay; day = addParisDays(day, 1)) {
    const candidates = candidatesOfDay(rules, calendar, day);
    if (!candidates) continue;
    const slots: FreeSlot[] = [];
    for (const candidate of candidates) {
      if (candidate.start < earliest) continue;
      const window = occupiedWindow(rules, candidate.start);
      const photographerIds = freePhotographers(prepared, window.start, window.end);
      if (photographerIds.length === 0) continue;
      slots.push({
        start: new Date(candidate.start),
        end: new Date(candidate.end),
        time: candidate.time,
        key: `${day}T${candidate.time}`,
        photographerIds,
      });
    }
    if (slots.length > 0) days.push({ day, slots });
  }
  return days;
}

/** Why a start cannot be booked. */
export type SlotRefusal =
  "invalid" | "clock_gap" | "past" | "notice" | "horizon" | "closed" | "off_step" | "taken";

/** The French sentence a visitor reads for each refusal. */
export const SLOT_REFUSAL_MESSAGES: Record<SlotRefusal, string> = {
  invalid: "Cette date ou cette heure n'existe pas.",
  clock_gap: "Cette heure n'existe pas ce jour-là : les horloges passent de 2 h à 3 h.",
  past: "Ce créneau est déjà passé.",
  notice: "Ce créneau est trop proche : il faut réserver plus tôt à l'avance.",
  horizon: "Ce créneau est trop loin dans le temps : les réservations ne sont pas encore ouvertes.",
  closed: "Le studio n'accueille pas de séance ce jour-là.",
  off_step: "Cet horaire n'est pas proposé pour cette séance.",
  taken: "Ce créneau vient d'être réservé.",
};

const SLOT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * The instant a slot key (« 2026-03-29T10:30 », Paris wall time) names: its first occurrence when the autumn
 * change repeats it; `clock_gap` when the spring change skips it; `invalid` when it is no date and time.
 */
export function instantOfSlotKey(key: string): { start: number; day: string } | SlotRefusal {
  // Minutes only (no seconds), read by the product's one reader of dates (decision 0122).
  const parsed = SLOT_KEY.test(key) ? parseCalendar(key, { time: true }) : null;
  if (parsed === null) return "invalid";
  const start = parisWallTimeInstants(parsed.wall)[0];
  if (start === undefined) return "clock_gap";
  return { start, day: key.slice(0, 10) };
}

/** The slot key of an instant: its Paris wall time, « 2026-03-29T10:30 ». */
export function slotKeyOf(instant: Date | number): string {
  return new Date(parisWallTimeOf(new Date(instant).getTime())).toISOString().slice(0, 16);
}

/**
 * Whether one start (a slot key) can be booked now, with the rules, the calendar and what is taken: the
 * server's authority behind a visitor's choice. Checks in the order a visitor would understand them.
 */
export function checkSlot(
  input: Omit<SlotInput, "fromDay" | "toDay">,
  key: string,
): { ok: true; slot: FreeSlot } | { ok: false; refusal: SlotRefusal } {
  const { rules, calendar, now } = input;
  const parsed = instantOfSlotKey(key);
  if (typeof parsed === "string") return { ok: false, refusal: parsed };
  if (parsed.start < now.getTime()) return { ok: false, refusal: "past" };
  if (parsed.start < now.getTime() + rules.minimumNoticeHours * HOUR)
    return { ok: false, refusal: "notice" };
  if (parsed.day > horizonLastDay(rules, now)) return { ok: false, refusal: "horizon" };
  const candidates = candidatesOfDay(rules, calendar, parsed.day);
  if (!candidates) return { ok: false, refusal: "closed" };
  const candidate = candidates.find((each) => each.start === parsed.start);
  if (!candidate) return { ok: false, refusal: "off_step" };
  const window = occupiedWindow(rules, candidate.start);
  const photographerIds = freePhotographers(prepare(input.availability), window.start, window.end);
  if (photographerIds.length === 0) return { ok: false, refusal: "taken" };
  return {
    ok: true,
    slot: {
      start: new Date(candidate.start),
      end: new Date(candidate.end),
      time: candidate.time,
      key: `${parsed.day}T${candidate.time}`,
      photographerIds,
    },
  };
}

/** One row of `booking_occupancies` as the slot computation needs it (instants in milliseconds). */
export type OccupancyInterval = {
  photographerId: string | null;
  studioId: string | null;
  start: number;
  end: number;
  /** True: the resource is used; false: a travel margin (the photographer cannot be at this studio then). */
  real: boolean;
};

/**
 * What is busy for a booking at `studioId`, from the stored occupancies around it: the studio's real rows;
 * for each photographer, their real rows anywhere (widened by the travel between that studio and this one
 * in each direction) and their margin rows at this studio. This is what the exclusion constraints would
 * check for a new booking, so a slot offered here is refused by the database only after a race.
 */
export function availabilityAt(
  studioId: string,
  photographerIds: readonly string[],
  occupancies: readonly OccupancyInterval[],
  travelMinutes: (from: string, to: string) => number,
): Availability {
  const studioBusy: Interval[] = [];
  const busy = new Map<string, Interval[]>(photographerIds.map((id) => [id, []]));
  for (const row of occupancies) {
    if (row.real && row.studioId === studioId) studioBusy.push({ start: row.start, end: row.end });
    const photographerBusy = row.photographerId === null ? undefined : busy.get(row.photographerId);
    if (!photographerBusy) continue;
    if (!row.real) {
      if (row.studioId === studioId) photographerBusy.push({ start: row.start, end: row.end });
    } else if (row.studioId === null || row.studioId === studioId) {
      photographerBusy.push({ start: row.start, end: row.end });
    } else {
      // There, then here: the way from there to here after; here, then there: the way back before.
      photographerBusy.push({
        start: row.start - travelMinutes(studioId, row.studioId) * MINUTE,
        end: row.end + travelMinutes(row.studioId, studioId) * MINUTE,
      });
    }
  }
  return {
    studioBusy,
    photographers: photographerIds.map((id) => ({ id, busy: busy.get(id) ?? [] })),
  };
}
