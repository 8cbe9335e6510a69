import { describe, expect, it } from "vitest";
import { parisToday } from "~/lib/dates";
import { gendarmerieOfferRuns } from "./marketing-pages.server";

describe("parisToday", () => {
  it("is the day in France, not in UTC", () => {
    expect(parisToday(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
    expect(parisToday(new Date("2026-12-31T22:30:00Z"))).toBe("2026-12-31");
    expect(parisToday(new Date("2026-07-14T21:59:00Z"))).toBe("2026-07-14");
    expect(parisToday(new Date("2026-07-14T22:00:00Z"))).toBe("2026-07-15");
  });
});

describe("gendarmerieOfferRuns", () => {
  const offer = (validFrom: string, validUntil: string) => ({
    title: "Offre spéciale",
    validFrom,
    validUntil,
  });

  it("runs always without dates, and from its first to its last day included", () => {
    expect(gendarmerieOfferRuns(offer("", ""), "2026-11-23")).toBe(true);
    expect(gendarmerieOfferRuns(offer("2026-01-01", "2026-12-31"), "2026-01-01")).toBe(true);
    expect(gendarmerieOfferRuns(offer("2026-01-01", "2026-12-31"), "2026-12-31")).toBe(true);
    expect(gendarmerieOfferRuns(offer("", "2025-12-31"), "2025-12-31")).toBe(true);
    expect(gendarmerieOfferRuns(offer("2027-01-01", ""), "2027-01-01")).toBe(true);
  });

  it("does not run before its first day or after its last one", () => {
    expect(gendarmerieOfferRuns(offer("2026-01-01", "2026-12-31"), "2025-12-31")).toBe(false);
    expect(gendarmerieOfferRuns(offer("2026-01-01", "2026-12-31"), "2027-01-01")).toBe(false);
    expect(gendarmerieOfferRuns(offer("", "2025-12-31"), "2026-11-23")).toBe(false);
    expect(gendarmerieOfferRuns(offer("2027-01-01", ""), "2026-11-23")).toBe(false);
  });
});
