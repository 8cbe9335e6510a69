/*
 * A booking as an iCalendar event (RFC 5545), the `.ics` attached to the client's e-mails: a stable UID (the
 * booking's id at the site's host) and the booking's SEQUENCE, so that a calendar updates the same event when
 * the booking moves and marks it cancelled (STATUS:CANCELLED, METHOD:CANCEL) instead of adding another.
 * A few lines of the standard rather than a library: times in UTC (no VTIMEZONE needed), text escaped, lines
 * folded at 75 octets with CRLF.
 */

export type IcsEvent = {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  /** When this version of the event was written (DTSTAMP). */
  stamp: Date;
  summary: string;
  description: string;
  location: string;
  url?: string;
  organizer?: { name: string; email: string };
  status: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
};

/** An instant as iCalendar's UTC form: 20261203T093000Z. */
export const icsTime = (instant: Date) =>
  instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** TEXT value escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, and new lines. */
export const icsText = (value: string) =>
  value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

/** Folds a content line at 75 octets (§3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character);
    // The first line holds 75 octets; the next ones 74 after their leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** The calendar file of one event: METHOD:REQUEST, or METHOD:CANCEL for a cancelled one. */
export function icsCalendar(event: IcsEvent): string {
  const cancelled = event.status === "CANCELLED";
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Studio photo//Reservations//FR",
    "CALSCALE:GREGORIAN",
    `METHOD:${cancelled ? "CANCEL" : "REQUEST"}`,
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${icsTime(event.stamp)}`,
    `DTSTART:${icsTime(event.start)}`,
    `DTEND:${icsTime(event.end)}`,
    `SUMMARY:${icsText(event.summary)}`,
    `DESCRIPTION:${icsText(event.description)}`,
    `LOCATION:${icsText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    ...(event.organizer
      ? [
          `ORGANIZER;CN="${event.organizer.name.replace(/["\\]/g, "")}":mailto:${event.organizer.email}`,
        ]
      : []),
    `STATUS:${event.status}`,
    "TRANSP:OPAQUE",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
