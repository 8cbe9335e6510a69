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

/** The space inside « 14 h 30 » and « 1 h »: non-breaking, so a line never ends between a figure and its unit. */
export const NBSP = "\u00A0";

/** « 10 h 30 », « 9 h » for a wall time « 10:30 », « 09:00 » (non-breaking spaces). */
export function timeLabelFr(time: string): string {
  const [hours = "0", minutes = "00"] = time.split(":");
  return minutes === "00"
    ? `${Number(hours)}${NBSP}h`
    : `${Number(hours)}${NBSP}h${NBSP}${minutes}`;
}

/** « mardi 3 décembre à 10 h 30 » for a slot key « 2026-12-03T10:30 ». */
export function slotLabelFr(key: string, withYear = false): string {
  return `${dayLabelFr(key.slice(0, 10), withYear)} à ${timeLabelFr(key.slice(11, 16))}`;
}

/**
 * « jeudi 3 décembre 2026 à 10 h 30 » for an instant (e-mails, the client's page, the owner's agenda and
 * history: booking's one way of writing a time, decision 0125).
 */
export function instantLabelFr(instant: Date | string): string {
  return slotLabelFr(slotKeyOf(typeof instant === "string" ? new Date(instant) : instant), true);
}

/** The Paris day of an instant (« 2026-12-03 »). */
export const parisDayOf = (instant: Date) => isoDayInParis(instant);

/** « 1 h 30 », « 45 min », « 2 h » for a duration in minutes (non-breaking spaces). */
export function durationLabelFr(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}${NBSP}min`;
  return rest === 0
    ? `${hours}${NBSP}h`
    : `${hours}${NBSP}h${NBSP}${String(rest).padStart(2, "0")}`;
}

/**
 * A session type's name inside a sentence: « séance nouveau-né » for a type named « Séance nouveau-né », never
 * « une séance « Séance nouveau-né » »; « séance « Portrait en studio » » for any other name.
 */
export function sessionOfTypeFr(typeName: string): string {
  const named = /^séance\s+(.+)$/iu.exec(typeName.trim());
  return named ? `séance ${named[1]}` : `séance « ${typeName.trim()} »`;
}
