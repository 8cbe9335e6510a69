import { describe, expect, it } from "vitest";
import { foldLine, icsCalendar, icsText, icsTime } from "./ics";
import { durationLabelFr, slotLabelFr, timeLabelFr } from "./words";

describe("the .ics of a booking", () => {
  it("escapes TEXT values: backslash, semicolon, comma, new lines", () => {
    expect(icsText("a\\b; c, d\ne")).toBe("a\\\\b\\; c\\, d\\ne");
  });

  it("folds lines at 75 octets without cutting a UTF-8 character, continuation lines starting with a space", () => {
    const line = `DESCRIPTION:${"é".repeat(100)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(" ")).toBe(true);
    expect(parts.map((part, index) => (index === 0 ? part : part.slice(1))).join("")).toBe(line);
  });

  it("writes UTC times, the UID and SEQUENCE given, CRLF line ends, METHOD:CANCEL for a cancelled event", () => {
    const text = icsCalendar({
      uid: "abc@studio.example",
      sequence: 3,
      start: new Date("2026-10-25T01:30:00Z"),
      end: new Date("2026-10-25T02:30:00Z"),
      stamp: new Date("2026-10-01T08:00:00.123Z"),
      summary: "Portrait, studio",
      description: "Ligne 1\nLigne 2",
      location: "1 rue X, 19100 Brive",
      status: "CANCELLED",
    });
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n")).toEqual(
      expect.arrayContaining([
        "METHOD:CANCEL",
        "UID:abc@studio.example",
        "SEQUENCE:3",
        "DTSTART:20261025T013000Z",
        "DTSTAMP:20261001T080000Z",
        "SUMMARY:Portrait\\, studio",
        "DESCRIPTION:Ligne 1\\nLigne 2",
        "STATUS:CANCELLED",
      ]),
    );
    expect(icsTime(new Date("2027-03-28T01:00:00Z"))).toBe("20270328T010000Z");
  });
});

describe("booking words", () => {
  it("names days and times as French speakers say them", () => {
    expect(slotLabelFr("2026-12-01T10:30")).toBe("mardi 1er décembre à 10 h 30");
    expect(slotLabelFr("2026-12-03T09:00", true)).toBe("jeudi 3 décembre 2026 à 9 h");
    expect(timeLabelFr("14:05")).toBe("14 h 05");
    expect(durationLabelFr(90)).toBe("1 h 30");
    expect(durationLabelFr(45)).toBe("45 min");
  });
});
