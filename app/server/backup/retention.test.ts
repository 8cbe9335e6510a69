import { describe, expect, it } from "vitest";
import { backupsToKeep } from "./retention";

/** A backup every night at 03:00 Paris time (02:00 UTC in winter) for `days` days up to 2026-11-27. */
function nightly(days: number): Date[] {
  const last = Date.parse("2026-11-27T02:00:00Z");
  return Array.from({ length: days }, (_, index) => new Date(last - index * 86_400_000));
}

const day = (at: Date | undefined) => at?.toISOString().slice(0, 10);

describe("which backups are kept", () => {
  it("a year of nightly backups keeps 7 days, 4 weeks and 6 months: 14 archives", () => {
    const times = nightly(365);
    const kept = [...backupsToKeep(times)]
      .map((index) => times[index])
      .sort((a, b) => (b?.getTime() ?? 0) - (a?.getTime() ?? 0));
    expect(kept.map(day)).toEqual([
      // The last seven days…
      "2026-11-27",
      "2026-11-26",
      "2026-11-25",
      "2026-11-24",
      "2026-11-23",
      "2026-11-22",
      "2026-11-21",
      // …the last (Sunday) of the weeks before, four weeks counting this one…
      "2026-11-15",
      "2026-11-08",
      // …and the last day of the months before, six months counting this one.
      "2026-10-31",
      "2026-09-30",
      "2026-08-31",
      "2026-07-31",
      "2026-06-30",
    ]);
  });

  it("keeps the newest whatever the rules, and two backups of one day count as one day past the last 24 hours", () => {
    const times = [new Date("2026-11-28T10:00:00Z"), new Date("2026-11-27T02:00:00Z")];
    expect([...backupsToKeep(times, { daily: 1, weekly: 0, monthly: 0 })]).toEqual([0]);
    expect([...backupsToKeep(times, { daily: 0, weekly: 0, monthly: 0 })]).toEqual([0]);
    const older = [
      new Date("2026-11-28T10:00:00Z"),
      new Date("2026-11-26T10:00:00Z"),
      new Date("2026-11-26T02:00:00Z"),
    ];
    expect([...backupsToKeep(older, { daily: 2, weekly: 0, monthly: 0 })].sort()).toEqual([0, 1]);
    expect(backupsToKeep([], { daily: 7, weekly: 4, monthly: 6 }).size).toBe(0);
  });

  it("never deletes a backup of the last 24 hours: the afternoon's « Sauvegarder maintenant » keeps last night's", () => {
    const times = [
      new Date("2026-11-27T14:00:00Z"),
      new Date("2026-11-27T02:00:00Z"),
      new Date("2026-11-26T02:00:00Z"),
    ];
    expect([...backupsToKeep(times, { daily: 1, weekly: 0, monthly: 0 })].sort()).toEqual([0, 1]);
  });

  it("counts days in Paris time: 00:30 in Paris is the next day", () => {
    const late = new Date("2026-11-26T23:30:00Z"); // 27 November, 00:30 in Paris
    const early = new Date("2026-11-26T22:30:00Z"); // 26 November, 23:30 in Paris
    expect(backupsToKeep([late, early], { daily: 2, weekly: 0, monthly: 0 }).size).toBe(2);
  });
});
