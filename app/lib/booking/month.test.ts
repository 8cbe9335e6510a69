import { describe, expect, it } from "vitest";
import {
  addMonths,
  freeDayLabelFr,
  monthBounds,
  monthLabelFr,
  monthWeeks,
  parseMonth,
} from "./month";

describe("the month view's calendar", () => {
  it("reads only real months from the address", () => {
    expect(parseMonth("2026-12")).toBe("2026-12");
    for (const value of ["2026-13", "2026-00", "0000-01", "2026-1", "2026-12-01", "", null]) {
      expect(parseMonth(value), String(value)).toBeNull();
    }
  });

  it("steps over years", () => {
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2027-01", -1)).toBe("2026-12");
    expect(addMonths("2026-11", 14)).toBe("2028-01");
  });

  it("knows each month's last day, leap years included", () => {
    expect(monthBounds("2028-02")).toEqual({ first: "2028-02-01", last: "2028-02-29" });
    expect(monthBounds("2026-02").last).toBe("2026-02-28");
    expect(monthBounds("2026-12").last).toBe("2026-12-31");
  });

  it("lays the weeks from Monday, blank before the 1st and after the last day", () => {
    // 1 December 2026 is a Tuesday; 31 December a Thursday.
    const weeks = monthWeeks("2026-12");
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([
      null,
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
      "2026-12-06",
    ]);
    expect(weeks[4]).toEqual([
      "2026-12-28",
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      null,
      null,
      null,
    ]);
    // February 2027 starts on a Monday and fills four whole weeks.
    expect(monthWeeks("2027-02")).toHaveLength(4);
    expect(monthWeeks("2027-02")[0]?.[0]).toBe("2027-02-01");
  });

  it("names months and free days in French", () => {
    expect(monthLabelFr("2026-12")).toBe("décembre 2026");
    expect(freeDayLabelFr("2026-12-03", 5)).toBe("jeudi 3 décembre, 5 horaires libres");
    expect(freeDayLabelFr("2026-12-01", 1)).toBe("mardi 1er décembre, 1 horaire libre");
  });
});
