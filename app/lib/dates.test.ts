import { describe, expect, it } from "vitest";
import {
  firstOfMonth,
  formatDateFr,
  formatDateTimeFr,
  formatLongDateTimeFr,
  isIsoDay,
  isoDayInParis,
  parisDateTimeInputValue,
  parisDateTimeToInstant,
  parseCalendar,
  parseIsoDay,
} from "./dates";

describe("formatDateFr", () => {
  it("writes day, full French month name and year", () => {
    expect(formatDateFr(new Date("2025-03-05T10:00:00Z"))).toBe("5 mars 2025");
    expect(formatDateFr(new Date("2024-08-15T10:00:00Z"))).toBe("15 août 2024");
  });

  it("accepts ISO strings (loader data travels as JSON)", () => {
    expect(formatDateFr("2025-12-01T09:00:00.000Z")).toBe("1er décembre 2025");
  });

  it("uses the Paris time zone, not the server's", () => {
    // 23:30 UTC on 31 December is already 1 January in Paris.
    expect(formatDateFr("2024-12-31T23:30:00Z")).toBe("1er janvier 2025");
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
      // Intl writes « 1 décembre »; French, and the site, « 1er décembre ».
      const expected = firstOfMonth(intl.format(date));
      if (formatDateFr(date) !== expected) {
        expect(formatDateFr(date), date.toISOString()).toBe(expected);
      }
    }
  });
});

describe("the first of the month", () => {
  it("is « 1er » in dates and dates with times, never before a number or in 11, 21, 31", () => {
    expect(formatLongDateTimeFr("2026-12-01T09:00:00Z")).toBe("1er décembre 2026 à 10:00");
    expect(formatLongDateTimeFr("2026-12-11T09:00:00Z")).toBe("11 décembre 2026 à 10:00");
    expect(formatLongDateTimeFr("2026-12-21T09:00:00Z")).toBe("21 décembre 2026 à 10:00");
    expect(firstOfMonth("le 1 mars, 1 200 €")).toBe("le 1er mars, 1 200 €");
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

describe("parisDateTimeInputValue", () => {
  it("writes the Paris wall clock as <input type=datetime-local> reads it", () => {
    expect(parisDateTimeInputValue(new Date("2026-01-15T13:05:00Z"))).toBe("2026-01-15T14:05");
    expect(parisDateTimeInputValue("2026-07-01T22:30:00Z")).toBe("2026-07-02T00:30");
  });
});

describe("parisDateTimeToInstant", () => {
  it("reads a Paris date and time as the instant it is, in winter and in summer", () => {
    expect(parisDateTimeToInstant("2026-01-15T14:05")?.toISOString()).toBe(
      "2026-01-15T13:05:00.000Z",
    );
    expect(parisDateTimeToInstant("2026-07-02T00:30")?.toISOString()).toBe(
      "2026-07-01T22:30:00.000Z",
    );
    expect(parisDateTimeToInstant("2026-07-02T00:30:15")?.toISOString()).toBe(
      "2026-07-01T22:30:15.000Z",
    );
  });

  it("is the inverse of parisDateTimeInputValue, and agrees with Intl, all year round", () => {
    const intl = new Intl.DateTimeFormat("sv-SE", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "Europe/Paris",
    });
    // Every 53 minutes over three years: both sides of each clock change.
    for (let time = Date.UTC(2025, 0, 1); time < Date.UTC(2028, 0, 1); time += 53 * 60_000) {
      const date = new Date(time);
      const typed = parisDateTimeInputValue(date);
      if (typed !== intl.format(date).replace(" ", "T")) {
        expect(typed, date.toISOString()).toBe(intl.format(date).replace(" ", "T"));
      }
      const read = parisDateTimeToInstant(typed)?.getTime();
      // The hour repeated in autumn reads as its first occurrence.
      if (read !== time && read !== time - 3_600_000) {
        expect(read, date.toISOString()).toBe(time);
      }
    }
  });

  it("reads the hour skipped in spring in winter time, the hour repeated in autumn first", () => {
    // 29 March 2026: 02:00 becomes 03:00.
    expect(parisDateTimeToInstant("2026-03-29T02:30")?.toISOString()).toBe(
      "2026-03-29T01:30:00.000Z",
    );
    // 25 October 2026: 03:00 becomes 02:00 again.
    expect(parisDateTimeToInstant("2026-10-25T02:30")?.toISOString()).toBe(
      "2026-10-25T00:30:00.000Z",
    );
    expect(parisDateTimeToInstant("2026-10-25T03:30")?.toISOString()).toBe(
      "2026-10-25T02:30:00.000Z",
    );
  });

  it("refuses what is no date and time", () => {
    for (const value of [
      "",
      "demain",
      "2026-02-30T10:00",
      "2026-13-01T10:00",
      "2026-01-01T24:00",
      "2026-01-01T10:60",
      "2026-01-01",
      "2026-01-01 10:00",
      "1969-12-31T23:00",
    ]) {
      expect(parisDateTimeToInstant(value), value).toBeNull();
    }
  });
});

describe("parseCalendar, the one reader of dates (decision 0122)", () => {
  it("reads a real day and a real date-time", () => {
    expect(parseIsoDay("2026-12-31")).toBe("2026-12-31");
    expect(parseIsoDay("2028-02-29")).toBe("2028-02-29");
    expect(parseCalendar("2026-03-05T14:30", { time: true })).toMatchObject({
      year: 2026,
      month: 3,
      day: 5,
      hours: 14,
      minutes: 30,
      isoDay: "2026-03-05",
      wall: Date.UTC(2026, 2, 5, 14, 30),
    });
  });

  it("refuses impossible days, years outside the product's, and anything not text", () => {
    for (const value of [
      "2026-12-32",
      "2026-00-10",
      "0000-00-00",
      "0001-01-01",
      "1969-12-31",
      "3000-01-01",
      "9999-12-31",
      "2027-02-29",
      "2026-1-05",
      " 2026-01-05",
      "2026-01-05T10:00",
      "",
      null,
      undefined,
      20260105,
    ]) {
      expect(parseIsoDay(value), String(value)).toBeNull();
      expect(isIsoDay(value), String(value)).toBe(false);
    }
    for (const value of [
      "9999-12-31T10:00",
      "0000-00-00T00:00",
      "2026-12-32T10:00",
      "2026-12-01",
    ]) {
      expect(parseCalendar(value, { time: true }), value).toBeNull();
    }
  });
});
