import { describe, expect, it } from "vitest";
import { describeHostCosts, measureHostCosts } from "./host-costs";

describe("the host's kernel costs", () => {
  it("measures each cost as a positive number of microseconds", () => {
    const costs = measureHostCosts();
    for (const value of Object.values(costs)) {
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
  });

  it("says them with one decimal under 10 µs and whole microseconds above", () => {
    expect(
      describeHostCosts({ systemCallMicros: 1.54, statMicros: 0.43, pageFaultMicros: 14.6 }),
    ).toBe("a system call 1.5 µs, a stat 0.4 µs, a new page 15 µs");
  });
});
