import { describe, expect, it } from "vitest";
import { deliveryInstant } from "./delivery";

describe("deliveryInstant", () => {
  const ordered = new Date("2026-11-29T15:00:00Z");

  it("is 9:00 in Paris on the chosen day, in winter and in summer time", () => {
    expect(deliveryInstant("2026-12-24", ordered)?.toISOString()).toBe("2026-12-24T08:00:00.000Z");
    expect(deliveryInstant("2027-07-14", ordered)?.toISOString()).toBe("2027-07-14T07:00:00.000Z");
  });

  it("is now (null) without a day, or when 9:00 that day has passed", () => {
    expect(deliveryInstant(null, ordered)).toBeNull();
    expect(deliveryInstant("2026-11-29", ordered)).toBeNull();
    expect(deliveryInstant("2026-11-30", ordered)?.toISOString()).toBe("2026-11-30T08:00:00.000Z");
  });
});
