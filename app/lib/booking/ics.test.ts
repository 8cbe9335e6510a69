import { describe, expect, it } from "vitest";
import { icsCalendar } from "./ics";
import { durationLabelFr, slotLabelFr, timeLabelFr } from "./words";

describe("the .ics of a booking", () => {
  const event = {
    uid: "abc@studio.example",
    sequence: 3,
    start: new Date("2026-10-25T01:30:00Z"),
    end: new Date("2026-10-25T02:30:00Z"),
    stamp: new Date("2026-10-01T08:00:00.123Z"),
    summary: "Portrait, studio",
    description: `Ligne 1\nLigne 2 ${"é".repeat(100)}`,
    location: "1 rue X; 19100 Brive",
    status: "CANCELLED" as const,
  };

  it("writes UTC times, the UID and SEQUENCE given, escaped text, METHOD:CANCEL for a cancelled event", () => {
    const text = icsCalendar(event);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const unfolded = text.replace(/\r\n[ \t]/g, "").split("\r\n");
    expect(unfolded).toEqual(
      expect.arrayContaining([
        "METHOD:CANCEL",
        "UID:abc@studio.example",
        "SEQUENCE:3",
        "DTSTART:20261025T013000Z",
        "DTSTAMP:20261001T080000Z",
        "SUMMARY:Portrait\\, studio",
        `DESCRIPTION:Ligne 1\\nLigne 2 ${"é".repeat(100)}`,
        "LOCATION:1 rue X\\; 19100 Brive",
        "STATUS:CANCELLED",
      ]),
    );
  });

  it("folds lines at 75 octets without cutting a UTF-8 character, with CRLF", () => {
    const lines = icsCalendar({ ...event, status: "CONFIRMED" }).split("\r\n");
    expect(lines).toContain("METHOD:REQUEST");
    // A request names its attendee, the client, who has nothing to answer.
    const attendee = icsCalendar({
      ...event,
      status: "CONFIRMED",
      attendee: { name: "Léa Martin", email: "lea@example.test" },
    })
      .replace(/\r\n[ \t]/g, "")
      .split("\r\n")
      .find((line) => line.startsWith("ATTENDEE"));
    expect(attendee).toMatch(/^ATTENDEE;/);
    expect(attendee).toContain("PARTSTAT=ACCEPTED");
    expect(attendee).toContain("RSVP=FALSE");
    expect(attendee).toContain('CN="Léa Martin"');
    expect(attendee).toMatch(/:mailto:lea@example\.test$/i);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true);
    expect(lines.join("").includes("\uFFFD")).toBe(false);
  });
});

describe("booking words", () => {
  it("names days and times as French speakers say them", () => {
    expect(slotLabelFr("2026-12-01T10:30")).toBe("mardi 1er décembre à 10\u00A0h\u00A030");
    expect(slotLabelFr("2026-12-03T09:00", true)).toBe("jeudi 3 décembre 2026 à 9\u00A0h");
    expect(timeLabelFr("14:05")).toBe("14\u00A0h\u00A005");
    expect(durationLabelFr(90)).toBe("1\u00A0h\u00A030");
    expect(durationLabelFr(45)).toBe("45\u00A0min");
  });
});
