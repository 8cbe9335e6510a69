import { describe, expect, it } from "vitest";
import { formatDateFr } from "./dates";

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
