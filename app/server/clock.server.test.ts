import { afterEach, describe, expect, it } from "vitest";
import { now, setClockForTests } from "./clock.server";

afterEach(() => setClockForTests(null));

describe("the server's clock", () => {
  it("tells the real time until a test sets it", () => {
    const before = Date.now();
    const read = now().getTime();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });

  it("tells the time a test set, unchanged by what the caller does with it, until reset", () => {
    const at = new Date("2001-01-15T08:30:00.000Z");
    setClockForTests(at);
    const first = now();
    first.setFullYear(2010);
    at.setFullYear(2011);
    expect(now().toISOString()).toBe("2001-01-15T08:30:00.000Z");
    const reset = Date.now();
    setClockForTests(null);
    expect(now().getTime()).toBeGreaterThanOrEqual(reset);
  });

  it("cannot be set outside the tests", () => {
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(() => setClockForTests(new Date("2001-01-15T08:30:00.000Z"))).toThrow(
        "setClockForTests is for tests only",
      );
    } finally {
      process.env.VITEST = vitest;
    }
    expect(now().getFullYear()).not.toBe(2001);
  });
});
