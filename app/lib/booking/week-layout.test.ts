import { describe, expect, it } from "vitest";
import {
  closedSpans,
  dayOpening,
  gridHours,
  hourClosed,
  MIN_MINUTES,
  placeDay,
} from "./week-layout";

// The owner's week grid: Paris wall-clock positions (winter and summer time), overlaps side by side,
// items crossing midnight or the grid's edges clipped.

const item = (id: string, startsAt: string, endsAt: string) => ({ id, startsAt, endsAt });
const HOURS = { first: 8, last: 20 };

describe("placeDay", () => {
  it("places a booking by its Paris time, in winter and in summer", () => {
    // 10:00–11:30 in Paris: 09:00Z in winter (UTC+1), 08:00Z in summer (UTC+2).
    const [winter] = placeDay(
      "2026-12-08",
      [item("a", "2026-12-08T09:00:00Z", "2026-12-08T10:30:00Z")],
      HOURS,
    );
    expect(winter).toMatchObject({ top: 120, height: 90, lane: 0, lanes: 1 });
    const [summer] = placeDay(
      "2026-07-07",
      [item("b", "2026-07-07T08:00:00Z", "2026-07-07T09:30:00Z")],
      HOURS,
    );
    expect(summer).toMatchObject({ top: 120, height: 90 });
  });

  it("puts overlapping bookings side by side, and the next one back in the first lane", () => {
    const placed = placeDay(
      "2026-12-08",
      [
        item("brive", "2026-12-08T09:00:00Z", "2026-12-08T10:00:00Z"),
        item("ussel", "2026-12-08T09:30:00Z", "2026-12-08T10:30:00Z"),
        item("limoges", "2026-12-08T09:45:00Z", "2026-12-08T10:15:00Z"),
        item("later", "2026-12-08T13:00:00Z", "2026-12-08T14:00:00Z"),
      ],
      HOURS,
    );
    const byId = Object.fromEntries(placed.map((entry) => [entry.item.id, entry]));
    expect(byId.brive).toMatchObject({ lane: 0, lanes: 3 });
    expect(byId.ussel).toMatchObject({ lane: 1, lanes: 3 });
    expect(byId.limoges).toMatchObject({ lane: 2, lanes: 3 });
    expect(byId.later).toMatchObject({ lane: 0, lanes: 1 });
  });

  it("reuses a lane freed inside a group", () => {
    const placed = placeDay(
      "2026-12-08",
      [
        item("long", "2026-12-08T09:00:00Z", "2026-12-08T12:00:00Z"),
        item("first", "2026-12-08T09:00:00Z", "2026-12-08T10:00:00Z"),
        item("second", "2026-12-08T10:00:00Z", "2026-12-08T11:00:00Z"),
      ],
      HOURS,
    );
    expect(placed.map((entry) => [entry.item.id, entry.lane, entry.lanes])).toEqual([
      ["long", 0, 2],
      ["first", 1, 2],
      ["second", 1, 2],
    ]);
  });

  it("clips blocked time crossing midnight to each day, and keeps a short session readable", () => {
    const leave = item("conges", "2026-12-08T17:00:00Z", "2026-12-10T07:00:00Z");
    expect(placeDay("2026-12-08", [leave], HOURS)[0]).toMatchObject({ top: 600, height: 120 });
    expect(placeDay("2026-12-09", [leave], HOURS)[0]).toMatchObject({ top: 0, height: 720 });
    expect(placeDay("2026-12-10", [leave], HOURS)).toEqual([]);
    const short = placeDay(
      "2026-12-08",
      [item("court", "2026-12-08T09:00:00Z", "2026-12-08T09:15:00Z")],
      HOURS,
    );
    expect(short[0]?.height).toBe(MIN_MINUTES);
  });
});

describe("gridHours", () => {
  it("shows 8 h to 20 h, widened to hold an early or late booking", () => {
    expect(gridHours(["2026-12-08"], [])).toEqual({ first: 8, last: 20 });
    expect(
      gridHours(
        ["2026-12-08", "2026-12-09"],
        [
          item("tot", "2026-12-08T06:30:00Z", "2026-12-08T07:30:00Z"),
          item("tard", "2026-12-09T19:00:00Z", "2026-12-09T20:15:00Z"),
        ],
      ),
    ).toEqual({ first: 7, last: 22 });
  });
});

// Decision 0138: the grid shades the time when the studios shown are closed, and says their hours.
describe("dayOpening and closedSpans", () => {
  const limoges = {
    name: "Studio de Limoges",
    hours: {
      Tuesday: [
        { opens: "14:00", closes: "18:00" },
        { opens: "09:00", closes: "12:00" },
      ],
    },
    closures: [{ from: "2026-12-22", to: "2026-12-31", label: "Noël" }],
  };
  const brive = {
    name: "Studio de Brive",
    hours: { Tuesday: [{ opens: "10:00", closes: "13:00" }] },
    closures: [],
  };

  it("shades what is outside one studio's hours, and says them", () => {
    const opening = dayOpening("2026-12-08", [limoges]);
    expect(opening.summary).toBe(
      "Studio de Limoges : ouvert de 9\u00A0h à 12\u00A0h et de 14\u00A0h à 18\u00A0h",
    );
    expect(closedSpans(opening.open, HOURS)).toEqual([
      { top: 0, height: 60 },
      { top: 240, height: 120 },
      { top: 600, height: 120 },
    ]);
    expect(hourClosed(opening.open, 8)).toBe(true);
    expect(hourClosed(opening.open, 11)).toBe(false);
    expect(hourClosed(opening.open, 12)).toBe(true);
  });

  it("shades only when no studio shown is open", () => {
    const opening = dayOpening("2026-12-08", [limoges, brive]);
    expect(opening.open).toEqual([
      { start: 540, end: 780 },
      { start: 840, end: 1080 },
    ]);
    expect(closedSpans(opening.open, HOURS)).toEqual([
      { top: 0, height: 60 },
      { top: 300, height: 60 },
      { top: 600, height: 120 },
    ]);
  });

  it("shades a whole day of closure or without hours", () => {
    const closed = dayOpening("2026-12-22", [limoges]);
    expect(closed.summary).toBe("Studio de Limoges : fermé");
    expect(closedSpans(closed.open, HOURS)).toEqual([{ top: 0, height: 720 }]);
    expect(closedSpans(dayOpening("2026-12-07", [limoges]).open, HOURS)).toEqual([
      { top: 0, height: 720 },
    ]);
  });
});
