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
