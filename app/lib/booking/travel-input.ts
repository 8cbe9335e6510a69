import { durationFr } from "./agenda-format";

/*
 * A travel time as the owner types it (decision 0116): « 1 h 15 », « 1h15 », « 75 », « 75 min », « 2 h ».
 */

const HOURS = /^(\d{1,2})\s*h\s*(\d{1,2})?\s*(?:min)?$/i;
const MINUTES = /^(\d{1,4})\s*(?:min|minutes?|mn)?$/i;

/** Minutes from the owner's text, or a French message. Empty text: null (no figure given). */
export function parseTravelMinutes(
  text: string,
): { ok: true; minutes: number | null } | { ok: false; error: string } {
  const value = text.trim().replace(/\s+/g, " ");
  if (value === "") return { ok: true, minutes: null };
  const hours = HOURS.exec(value);
  const minutes = hours
    ? Number(hours[1]) * 60 + Number(hours[2] ?? 0)
    : MINUTES.test(value)
      ? Number(MINUTES.exec(value)?.[1])
      : null;
  if (minutes === null || (hours && Number(hours[2] ?? 0) > 59)) {
    return { ok: false, error: `« ${value} » n'est pas une durée (exemple : 1 h 15 ou 75)` };
  }
  if (minutes > 1440) return { ok: false, error: "24 heures au plus" };
  return { ok: true, minutes };
}

/** What the field shows for a stored figure. */
export const travelText = (minutes: number | undefined) =>
  // A field she edits: plain spaces, as she types them (the shown durations have non-breaking ones).
  minutes === undefined ? "" : durationFr(minutes).replace(/\u00A0/g, " ");
