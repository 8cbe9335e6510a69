import { describe, expect, it } from "vitest";
import { formatDateFr, formatDateTimeFr, isoDayInParis } from "./dates";

describe("formatDateFr", () => {
  it("writes day, full French month name and year", () => {
    expect(formatDateFr(new Date("2025-03-05T10:00:00Z"))).toBe("5 mars 2025");
    expect(formatDateFr(new Date("2024-08-15T10:00:00Z"))).toBe("15 août 2024");
  });

  it("accepts ISO strings (loader data travels as JSON)", () => {
    expect(formatDateFr("2025-12-01T09:00:00.000Z")).toBe("1 décembre 2025");
  });

  it("uses the Paris time zone, not the server's", () => {
    // 23:30 UTC on 31 December is already 1 January in Paris.
    expect(formatDateFr("2024-12-31T23:30:00Z")).toBe("1 janvier 2025");
  });
});

describe("formatDateFr without Intl", () => {
  it("gives the Paris day Intl gives, around every clock change and through the years", () => {
    const intl = new Intl.DateTimeFormat("fr-FR", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "Europe/Paris",
    });
    // Every 37 minutes over four years: every hour of the day and both sides of each clock change.
    const start = Date.UTC(2024, 0, 1);
    for (let time = start; time < Date.UTC(2028, 0, 1); time += 37 * 60_000) {
      const date = new Date(time);
      if (formatDateFr(date) !== intl.format(date)) {
        expect(formatDateFr(date), date.toISOString()).toBe(intl.format(date));
      }
    }
  });
});

describe("formatDateTimeFr", () => {
  it("writes day/month/year hours:minutes in Paris time, as French spreadsheets read it", () => {
    expect(formatDateTimeFr(new Date("2026-11-23T13:32:00Z"))).toBe("23/11/2026 14:32");
    // Summer time: UTC+2.
    expect(formatDateTimeFr("2025-07-01T06:05:00Z")).toBe("01/07/2025 08:05");
  });
});

describe("isoDayInParis", () => {
  it("gives the Paris day, not the UTC one", () => {
    expect(isoDayInParis(new Date("2024-12-31T23:30:00Z"))).toBe("2025-01-01");
  });
});
