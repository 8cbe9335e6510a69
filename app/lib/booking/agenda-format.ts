import { DAYS, type DayOfWeek } from "~/content/schemas";
import { FRENCH_MONTHS, isIsoDay } from "../dates";
import { frenchDayNames } from "../opening-hours";
import { addParisDays } from "./slots";
import { durationLabelFr, timeLabelFr } from "./words";

/*
 * How the owner's booking pages write durations, days and times (decision 0116): French, Paris time.
 */

/** « 1 h 30 », « 1 h 15 », « 2 h », « 45 min », « 0 min ». */
export function durationFr(minutes: number): string {
  return durationLabelFr(minutes);
}

const WEEKDAY_NAMES = frenchDayNames;

/** True for a real calendar day written YYYY-MM-DD (the product's one reader, decision 0122). */
export { isIsoDay };

/** The weekday of a calendar day (YYYY-MM-DD). */
export function weekdayOf(day: string): DayOfWeek {
  const index = new Date(`${day}T12:00:00Z`).getUTCDay();
  return DAYS[(index + 6) % 7] ?? "Monday";
}

/** « mardi 3 décembre 2026 », « lundi 1er mars 2027 ». */
export function longDayFr(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return `${WEEKDAY_NAMES[weekdayOf(day)]} ${date === 1 ? "1er" : date} ${FRENCH_MONTHS[month - 1]} ${year}`;
}

/** The Monday of the week holding `day`. */
export function mondayOf(day: string): string {
  return addParisDays(day, -DAYS.indexOf(weekdayOf(day)));
}

/** « 10 h 30 », « 9 h » from « 10:30 », « 09:00 ». */
export function clockFr(time: string): string {
  return timeLabelFr(time);
}
