import type { DayOfWeek, OpeningRange, WeeklyHours } from "~/content/schemas";
import { DAYS } from "~/content/schemas";

/*
 * Opening hours as a French person writes them (decision 0070): one line per weekday,
 * « 9h–12h, 14h–18h », « 9h30-18h », « 9 h – 12 h 30 », « 09:00 - 12:00 »; empty or « fermé » for a closed
 * day; a note per range in parentheses: « 9h–12h (sans rendez-vous), 14h–18h (sur rendez-vous uniquement) ».
 * `parseDayHours` reads one line into the stored ranges (or a French message naming the day);
 * `formatDayHours` writes stored ranges back in the same notation, so the form shows what is stored.
 */

/** The day's name as a sentence starts it (« Samedi »). */
export const DAY_LABELS: Record<DayOfWeek, string> = {
  Monday: "Lundi",
  Tuesday: "Mardi",
  Wednesday: "Mercredi",
  Thursday: "Jeudi",
  Friday: "Vendredi",
  Saturday: "Samedi",
  Sunday: "Dimanche",
};

/** The most ranges a day may hold (the storage schema's limit). */
export const MAX_RANGES_PER_DAY = 4;
const MAX_NOTE_LENGTH = 100;

export type DayHoursResult = { ok: true; ranges: OpeningRange[] } | { ok: false; error: string };

/** « 9h », « 9 h 30 », « 09:00 », « 9 », « 12h30 »; hours and minutes as written. */
const TIME = /^(\d{1,2})\s*(?:(?:h|:)\s*(\d{2})?)?$/i;
/** Dashes a French text uses between two times (hyphen, en dash, em dash, minus) or « à ». */
const RANGE_SEPARATOR = /\s*[-–—−]\s*|\s+à\s+/i;
const CLOSED = /^(?:ferm[ée]e?s?|closed?)$/i;

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** One time as written, as "HH:MM", or the reason it is not a time. */
function readTime(text: string): { ok: true; time: string } | { ok: false; error: string } {
  const match = TIME.exec(text.trim());
  if (!match)
    return { ok: false, error: `« ${text.trim()} » n'est pas une heure (exemple : 9h30)` };
  const hours = Number(match[1]);
  const minutes = match[2] === undefined ? 0 : Number(match[2]);
  if (hours > 23)
    return { ok: false, error: `« ${text.trim()} » n'est pas une heure : ${hours}h n'existe pas` };
  if (minutes > 59) {
    return {
      ok: false,
      error: `« ${text.trim()} » n'est pas une heure : ${minutes} minutes, c'est trop`,
    };
  }
  return { ok: true, time: `${pad(hours)}:${pad(minutes)}` };
}

/** Splits « 9h–12h (a, b), 14h–18h » on the commas and semicolons outside parentheses. */
function splitRanges(line: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const character of line) {
    if (character === "(") depth += 1;
    if (character === ")") depth -= 1;
    if (depth < 0) return null;
    if (depth === 0 && (character === "," || character === ";" || character === "/")) {
      parts.push(current);
      current = "";
    } else {
      current += character;
    }
  }
  if (depth !== 0) return null;
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

/** Reads one weekday's line. `day` names the day in the messages. */
export function parseDayHours(day: DayOfWeek, input: string): DayHoursResult {
  const name = DAY_LABELS[day];
  const line = input.replace(/\s+/g, " ").trim();
  if (line === "" || CLOSED.test(line)) return { ok: true, ranges: [] };
  const parts = splitRanges(line);
  if (!parts) return { ok: false, error: `${name} : une parenthèse n'est pas fermée` };
  if (parts.length > MAX_RANGES_PER_DAY) {
    return { ok: false, error: `${name} : ${MAX_RANGES_PER_DAY} plages horaires au plus` };
  }
  const ranges: OpeningRange[] = [];
  for (const part of parts) {
    const noteMatch = /^(.*?)\s*\(([^()]*)\)$/.exec(part);
    const times = (noteMatch ? noteMatch[1] : part) ?? "";
    const note = noteMatch?.[2]?.trim() ?? "";
    if (note.length > MAX_NOTE_LENGTH) {
      return {
        ok: false,
        error: `${name} : une note compte ${MAX_NOTE_LENGTH} caractères au plus`,
      };
    }
    const bounds = times.split(RANGE_SEPARATOR);
    if (bounds.length !== 2 || !bounds[0] || !bounds[1]) {
      return {
        ok: false,
        error: `${name} : « ${part} » n'est pas une plage horaire (exemple : 9h–12h, 14h–18h)`,
      };
    }
    const opens = readTime(bounds[0]);
    if (!opens.ok) return { ok: false, error: `${name} : ${opens.error}` };
    const closes = readTime(bounds[1]);
    if (!closes.ok) return { ok: false, error: `${name} : ${closes.error}` };
    if (closes.time <= opens.time) {
      return { ok: false, error: `${name} : l'heure de fermeture doit suivre l'heure d'ouverture` };
    }
    ranges.push({ opens: opens.time, closes: closes.time, ...(note ? { note } : {}) });
  }
  const ordered = [...ranges].sort((a, b) => a.opens.localeCompare(b.opens));
  for (let index = 1; index < ordered.length; index += 1) {
    const previous = ordered[index - 1];
    const range = ordered[index];
    if (previous && range && range.opens < previous.closes) {
      return { ok: false, error: `${name} : deux plages horaires se chevauchent` };
    }
  }
  return { ok: true, ranges: ordered };
}

/** "09:00" → "9h", "12:30" → "12h30". */
function writeTime(time: string): string {
  const [hours = "0", minutes = "00"] = time.split(":");
  return `${Number(hours)}h${minutes === "00" ? "" : minutes}`;
}

/** A day's stored ranges in the notation the form reads back (« 9h–12h (sans rendez-vous), 14h–18h »). */
export function formatDayHours(ranges: readonly OpeningRange[] | undefined): string {
  if (!ranges || ranges.length === 0) return "";
  return ranges
    .map((range) => {
      const text = `${writeTime(range.opens)}–${writeTime(range.closes)}`;
      return range.note ? `${text} (${range.note})` : text;
    })
    .join(", ");
}

/** Reads the seven lines of a week; the errors are keyed by day. */
export function parseWeekHours(
  lines: Partial<Record<DayOfWeek, string>>,
): { ok: true; hours: WeeklyHours } | { ok: false; errors: Partial<Record<DayOfWeek, string>> } {
  const hours: WeeklyHours = {};
  const errors: Partial<Record<DayOfWeek, string>> = {};
  for (const day of DAYS) {
    const result = parseDayHours(day, lines[day] ?? "");
    if (!result.ok) errors[day] = result.error;
    else if (result.ranges.length > 0) hours[day] = result.ranges;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, hours };
}
