import { describe, expect, it } from "vitest";
import { daytimeDeadline } from "./deadline";

const FAR = new Date("2027-06-01T08:00:00Z");

describe("a request's answer deadline", () => {
  it("stays as it is between 8 h and 20 h in Paris", () => {
    for (const iso of ["2027-01-12T07:00:00Z", "2027-01-12T13:54:00Z", "2027-01-12T19:00:00Z"]) {
      expect(daytimeDeadline(new Date(iso), FAR).toISOString()).toBe(new Date(iso).toISOString());
    }
  });

  it("moves from the evening or the night to 8 h the next morning, in winter and summer time", () => {
    // 21 h 30 and 3 h 54 in Paris (winter, UTC+1) → 8 h the next / same morning.
    expect(daytimeDeadline(new Date("2027-01-12T20:30:00Z"), FAR).toISOString()).toBe(
      "2027-01-13T07:00:00.000Z",
    );
    expect(daytimeDeadline(new Date("2027-01-13T02:54:00Z"), FAR).toISOString()).toBe(
      "2027-01-13T07:00:00.000Z",
    );
    // 23 h in Paris in summer (UTC+2) → 8 h = 6 h UTC.
    expect(daytimeDeadline(new Date("2027-05-10T21:00:00Z"), FAR).toISOString()).toBe(
      "2027-05-11T06:00:00.000Z",
    );
  });

  it("never passes the session's start", () => {
    const start = new Date("2027-01-13T06:30:00Z"); // 7 h 30 in Paris
    expect(daytimeDeadline(new Date("2027-01-12T22:00:00Z"), start).toISOString()).toBe(
      start.toISOString(),
    );
  });
});
