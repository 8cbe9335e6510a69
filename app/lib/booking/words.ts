import { firstOfMonth, isoDayInParis } from "~/lib/dates";
import { slotKeyOf } from "./slots";

/*
 * Days and times of booking as French visitors read and hear them: « mardi 3 décembre à 10 h 30 » (a screen
 * reader says « 10 heures 30 », never « 10:30 »). Always the Paris calendar.
 */

let dayFormat: Intl.DateTimeFormat | undefined;
let dayWithYearFormat: Intl.DateTimeFormat | undefined;

/** « mardi 3 décembre » for a Paris day « 2026-12-01 » (« mardi 1er décembre »), with the year if asked. */
export function dayLabelFr(day: string, withYear = false): string {
  // The day's noon in UTC names the same calendar day whatever the clock change.
  const date = new Date(`${day}T12:00:00Z`);
  const format = withYear
    ? (dayWithYearFormat ??= new Intl.DateTimeFormat("fr-FR", {
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      }))
    : (dayFormat ??= new Intl.DateTimeFormat("fr-FR", {
        weekday: "long",
        day: "numeric",
        month: "long",
        timeZone: "UTC",
      }));
  return firstOfMonth(format.format(date));
}

/** « 10 h 30 », « 9 h » for a wall time « 10:30 », « 09:00 ». */
export function timeLabelFr(time: string): string {
  const [hours = "0", minutes = "00"] = time.split(":");
  return minutes === "00" ? `${Number(hours)} h` : `${Number(hours)} h ${minutes}`;
}

/** « mardi 3 décembre à 10 h 30 » for a slot key « 2026-12-03T10:30 ». */
export function slotLabelFr(key: string, withYear = false): string {
  return `${dayLabelFr(key.slice(0, 10), withYear)} à ${timeLabelFr(key.slice(11, 16))}`;
}

/** « jeudi 3 décembre 2026 à 10 h 30 » for an instant (e-mails, the client's page). */
export function instantLabelFr(instant: Date): string {
  return slotLabelFr(slotKeyOf(instant), true);
}

/** The Paris day of an instant (« 2026-12-03 »). */
export const parisDayOf = (instant: Date) => isoDayInParis(instant);

/** « 1 h 30 », « 45 min », « 2 h » for a duration in minutes. */
export function durationLabelFr(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, "0")}`;
}
