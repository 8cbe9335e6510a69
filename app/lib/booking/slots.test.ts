import { describe, expect, it } from "vitest";
import { DAYS } from "~/content/days";
import type { WeeklyHours } from "~/content/schemas";
import {
  availabilityAt,
  checkSlot,
  freeSlots,
  nextFreeTimesWeek,
  parisWallRange,
  slotKeyOf,
  type Availability,
  type SlotCalendar,
  type SlotInput,
  type SlotRules,
} from "./slots";

const HOUR = 3_600_000;
const MINUTE = 60_000;

const everyDay = (opens: string, closes: string): WeeklyHours =>
  Object.fromEntries(DAYS.map((day) => [day, [{ opens, closes }]]));

const rules = (overrides: Partial<SlotRules> = {}): SlotRules => ({
  durationMinutes: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minimumNoticeHours: 0,
  horizonDays: 800,
  stepMinutes: 30,
  ...overrides,
});

const calendar = (overrides: Partial<SlotCalendar> = {}): SlotCalendar => ({
  hours: everyDay("09:00", "18:00"),
  closures: [],
  override: null,
  ...overrides,
});

const nobodyBusy: Availability = { studioBusy: [], photographers: [{ id: "p1", busy: [] }] };

const input = (overrides: Partial<SlotInput> = {}): SlotInput => ({
  rules: rules(),
  calendar: calendar(),
  availability: nobodyBusy,
  now: new Date("2026-01-05T06:00:00Z"),
  ...overrides,
});

/** The keys of the slots of one day. */
const keysOf = (day: string, overrides: Partial<SlotInput> = {}) =>
  freeSlots(input({ fromDay: day, toDay: day, ...overrides })).flatMap((each) =>
    each.slots.map((slot) => slot.key),
  );

const at = (iso: string) => new Date(iso).getTime();

describe("free slots across the clock changes", () => {
  it.each(["2026-03-29", "2026-10-25", "2027-03-28"])(
    "offers every step of 09:00–18:00 once on %s, each at its Paris wall time",
    (day) => {
      const [found] = freeSlots(input({ fromDay: day, toDay: day }));
      expect(found?.day).toBe(day);
      const slots = found?.slots ?? [];
      // 09:00 to 17:00 every 30 minutes: 17 starts, no time missing, none twice.
      expect(slots.map((slot) => slot.time)).toEqual(
        Array.from({ length: 17 }, (_, index) => {
          const minutes = 9 * 60 + index * 30;
          return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${minutes % 60 === 0 ? "00" : "30"}`;
        }),
      );
      for (const slot of slots) {
        expect(slotKeyOf(slot.start)).toBe(slot.key);
        expect(slot.end.getTime() - slot.start.getTime()).toBe(HOUR);
      }
      expect(new Set(slots.map((slot) => slot.start.getTime())).size).toBe(17);
    },
  );

  it("gives the summer offset after the spring change and the winter one after the autumn change", () => {
    expect(keysOf("2026-03-29")[0]).toBe("2026-03-29T09:00");
    const [spring] = freeSlots(input({ fromDay: "2026-03-29", toDay: "2026-03-29" }));
    expect(spring?.slots[0]?.start.toISOString()).toBe("2026-03-29T07:00:00.000Z");
    const [autumn] = freeSlots(input({ fromDay: "2026-10-25", toDay: "2026-10-25" }));
    expect(autumn?.slots[0]?.start.toISOString()).toBe("2026-10-25T08:00:00.000Z");
  });

  it("never offers a time the spring change skips, and offers a repeated autumn time once", () => {
    const night = { hours: everyDay("01:00", "04:00") };
    const shortSession = rules({ durationMinutes: 30 });
    const spring = keysOf("2026-03-29", { calendar: calendar(night), rules: shortSession });
    expect(spring).toEqual([
      "2026-03-29T01:00",
      "2026-03-29T01:30",
      "2026-03-29T03:00",
      "2026-03-29T03:30",
    ]);
    const autumn = freeSlots(
      input({
        calendar: calendar(night),
        rules: shortSession,
        fromDay: "2026-10-25",
        toDay: "2026-10-25",
      }),
    )[0]?.slots;
    expect(autumn?.map((slot) => slot.time)).toEqual([
      "01:00",
      "01:30",
      "02:00",
      "02:30",
      "03:00",
      "03:30",
    ]);
    // 02:00 is taken at its first occurrence (summer time, 00:00 UTC), not the second (01:00 UTC).
    expect(autumn?.[2]?.start.toISOString()).toBe("2026-10-25T00:00:00.000Z");
  });

  it("turns a wall-time range into instants whose real length follows the clock change", () => {
    const length = (day: string) => {
      const range = parisWallRange(day, "01:00", "04:00");
      return (range.end - range.start) / HOUR;
    };
    expect(length("2026-03-28")).toBe(3);
    expect(length("2026-03-29")).toBe(2);
    expect(length("2026-10-25")).toBe(4);
    expect(length("2027-03-28")).toBe(2);
    // An opening inside the skipped hour starts when the clocks jump (01:00 UTC).
    expect(new Date(parisWallRange("2026-03-29", "02:30", "05:00").start).toISOString()).toBe(
      "2026-03-29T01:00:00.000Z",
    );
  });

  it("refuses a start in the skipped hour with its own reason", () => {
    const night = input({ calendar: calendar({ hours: everyDay("01:00", "04:00") }) });
    expect(checkSlot(night, "2026-03-29T02:30")).toEqual({ ok: false, refusal: "clock_gap" });
    expect(checkSlot(night, "2027-03-28T02:00")).toEqual({ ok: false, refusal: "clock_gap" });
    const repeated = checkSlot(night, "2026-10-25T02:30");
    expect(repeated.ok && repeated.slot.start.toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });
});

describe("free slots follow the session type's rules", () => {
  it("keeps the minimum notice", () => {
    // Tuesday 10:00 in Paris, 24 hours' notice: Wednesday 10:00 is the first start.
    const now = new Date("2026-01-06T09:00:00Z");
    const days = freeSlots(input({ now, rules: rules({ minimumNoticeHours: 24 }) }));
    expect(days[0]?.slots[0]?.key).toBe("2026-01-07T10:00");
  });

  it("stops at the horizon's last day", () => {
    const now = new Date("2026-01-06T09:00:00Z");
    const days = freeSlots(input({ now, rules: rules({ horizonDays: 2 }) }));
    expect(days.map((day) => day.day)).toEqual(["2026-01-06", "2026-01-07", "2026-01-08"]);
    expect(checkSlot(input({ now, rules: rules({ horizonDays: 2 }) }), "2026-01-09T10:00")).toEqual(
      { ok: false, refusal: "horizon" },
    );
  });

  it("steps from each opening time and fits the session inside its range", () => {
    const hours: WeeklyHours = everyDay("09:00", "12:00");
    hours.Friday = [
      { opens: "09:00", closes: "12:00" },
      { opens: "14:15", closes: "17:00" },
    ];
    const keys = keysOf("2026-01-09", {
      calendar: calendar({ hours }),
      rules: rules({ durationMinutes: 90, stepMinutes: 45 }),
    });
    expect(keys).toEqual([
      "2026-01-09T09:00",
      "2026-01-09T09:45",
      "2026-01-09T10:30",
      "2026-01-09T14:15",
      "2026-01-09T15:00",
    ]);
    expect(
      checkSlot(
        input({ rules: rules({ durationMinutes: 90, stepMinutes: 45 }) }),
        "2026-01-09T09:30",
      ),
    ).toEqual({ ok: false, refusal: "off_step" });
  });

  it("lets the buffers pass the opening hours but keeps them between sessions", () => {
    const withBuffers = rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 30 });
    const keys = keysOf("2026-01-09", { rules: withBuffers });
    expect(keys[0]).toBe("2026-01-09T09:00");
    expect(keys.at(-1)).toBe("2026-01-09T17:00");
    // A session 10:00–11:00 with 30 minutes after it (busy to 11:30): the next one, with 15 minutes before,
    // may start at 11:45, so at 12:00 on the step; none fits before it (it would end after 10:00).
    const studioBusy = [{ start: at("2026-01-09T09:00:00Z"), end: at("2026-01-09T10:30:00Z") }];
    const around = keysOf("2026-01-09", {
      rules: withBuffers,
      availability: { studioBusy, photographers: [{ id: "p1", busy: [] }] },
    });
    expect(around[0]).toBe("2026-01-09T12:00");
  });

  it("offers nothing on a closed weekday or a closure, a day or several", () => {
    const hours = everyDay("09:00", "18:00");
    delete hours.Monday;
    const closures = [
      { from: "2026-12-24", to: "2026-12-26", label: "Noël" },
      { from: "2026-12-31", to: "2026-12-31", label: "Réveillon" },
    ];
    const days = freeSlots(
      input({
        calendar: calendar({ hours, closures }),
        fromDay: "2026-12-20",
        toDay: "2027-01-02",
      }),
    ).map((day) => day.day);
    expect(days).toEqual([
      "2026-12-20",
      "2026-12-22",
      "2026-12-23",
      "2026-12-27",
      "2026-12-29",
      "2026-12-30",
      "2027-01-01",
      "2027-01-02",
    ]);
    const closed = input({ calendar: calendar({ hours, closures }) });
    expect(checkSlot(closed, "2026-12-25T10:00")).toEqual({ ok: false, refusal: "closed" });
    expect(checkSlot(closed, "2026-12-28T10:00")).toEqual({ ok: false, refusal: "closed" });
  });

  it("uses the session type's own hours where it has them, the studio's elsewhere", () => {
    const hours = everyDay("09:00", "18:00");
    delete hours.Monday;
    const override = { Monday: [{ opens: "14:00", closes: "16:00" }], Tuesday: [] };
    const week = freeSlots(
      input({
        calendar: calendar({ hours, override }),
        fromDay: "2026-01-05",
        toDay: "2026-01-07",
      }),
    );
    expect(week.map((day) => [day.day, day.slots.length])).toEqual([
      ["2026-01-05", 3],
      ["2026-01-07", 17],
    ]);
  });

  it("refuses past, too-close, invalid and taken starts", () => {
    const now = new Date("2026-01-06T09:00:00Z");
    const base = input({ now, rules: rules({ minimumNoticeHours: 24 }) });
    expect(checkSlot(base, "2026-01-05T10:00")).toEqual({ ok: false, refusal: "past" });
    expect(checkSlot(base, "2026-01-06T15:00")).toEqual({ ok: false, refusal: "notice" });
    expect(checkSlot(base, "2026-02-30T10:00")).toEqual({ ok: false, refusal: "invalid" });
    expect(checkSlot(base, "demain 10h")).toEqual({ ok: false, refusal: "invalid" });
    const taken = input({
      now,
      availability: {
        studioBusy: [{ start: at("2026-01-08T09:00:00Z"), end: at("2026-01-08T10:00:00Z") }],
        photographers: [{ id: "p1", busy: [] }],
      },
    });
    expect(checkSlot(taken, "2026-01-08T10:00")).toEqual({ ok: false, refusal: "taken" });
    const free = checkSlot(taken, "2026-01-08T11:00");
    expect(free.ok && free.slot.photographerIds).toEqual(["p1"]);
  });
});

describe("who is free: photographers, studios and travel", () => {
  const ussel = "studio-ussel";
  const brive = "studio-brive";
  const limoges = "studio-limoges";
  const travel = (from: string, to: string) =>
    [from, to].sort().join() === [brive, ussel].sort().join() ? 75 : 90;
  // Anne has a session at Brive, Friday 9 January 10:00–11:00 Paris (09:00–10:00 UTC).
  const anneAtBrive = {
    photographerId: "anne",
    studioId: brive,
    start: at("2026-01-09T09:00:00Z"),
    end: at("2026-01-09T10:00:00Z"),
    real: true,
  };

  it("keeps the travel time before and after a session in another studio", () => {
    const availability = availabilityAt(ussel, ["anne"], [anneAtBrive], travel);
    const keys = keysOf("2026-01-09", { availability });
    // Ussel sessions must end by 08:45 (too early: none) and start from 12:15, so 12:30 on the step.
    expect(keys[0]).toBe("2026-01-09T12:30");
    // At Brive itself, Anne is free again at 11:00.
    const atBrive = availabilityAt(brive, ["anne"], [anneAtBrive], travel);
    expect(keysOf("2026-01-09", { availability: atBrive })).toContain("2026-01-09T11:00");
  });

  it("offers a slot with another photographer, but not when the studio itself is taken", () => {
    const availability = availabilityAt(ussel, ["anne", "bruno"], [anneAtBrive], travel);
    const slot = freeSlots(input({ availability, fromDay: "2026-01-09", toDay: "2026-01-09" }))[0]
      ?.slots[0];
    expect(slot?.key).toBe("2026-01-09T09:00");
    expect(slot?.photographerIds).toEqual(["bruno"]);
    const studioTaken = { ...anneAtBrive, photographerId: "claire", studioId: ussel };
    const taken = availabilityAt(ussel, ["anne", "bruno"], [studioTaken], travel);
    expect(keysOf("2026-01-09", { availability: taken })).not.toContain("2026-01-09T10:00");
  });

  it("counts margin rows at this studio only, and blocked time without a studio everywhere", () => {
    const marginHere = { ...anneAtBrive, studioId: ussel, real: false };
    const marginElsewhere = { ...anneAtBrive, studioId: limoges, real: false };
    const holiday = {
      photographerId: "anne",
      studioId: null,
      start: at("2026-01-09T13:00:00Z"),
      end: at("2026-01-09T17:00:00Z"),
      real: true,
    };
    const availability = availabilityAt(
      ussel,
      ["anne"],
      [marginHere, marginElsewhere, holiday],
      travel,
    );
    expect(availability.photographers[0]?.busy).toEqual([
      { start: marginHere.start, end: marginHere.end },
      { start: holiday.start, end: holiday.end },
    ]);
    expect(availability.studioBusy).toEqual([]);
    const keys = keysOf("2026-01-09", { availability });
    // Busy 10:00–11:00 (the margin) and from 14:00 (the holiday, 13:00 UTC).
    expect(keys).toEqual(
      ["09:00", "11:00", "11:30", "12:00", "12:30", "13:00"].map((time) => `2026-01-09T${time}`),
    );
  });

  it("answers for 90 days with 2,000 bookings and 200 blocked periods in a few milliseconds", () => {
    const now = new Date("2026-01-05T06:00:00Z");
    const occupancies = Array.from({ length: 2_200 }, (_, index) => {
      const start = now.getTime() + index * 59 * MINUTE * 17;
      return {
        photographerId: index % 3 === 0 ? "bruno" : "anne",
        studioId: [ussel, brive, limoges, null][index % 4] ?? null,
        start,
        end: start + HOUR,
        real: index % 5 !== 0,
      };
    });
    const availability = availabilityAt(ussel, ["anne", "bruno"], occupancies, travel);
    const days = freeSlots(input({ now, availability, rules: rules({ horizonDays: 90 }) }));
    expect(days.length).toBeGreaterThan(80);
    // How fast: scripts/bench/booking-slots.ts measures the p95.
  });
});

// Just after midnight in Paris, UTC's day is still the day before (until 01:00, 02:00 in summer).
describe("the week the next free times are looked for in first", () => {
  it.each([
    ["in winter", "2027-01-14T23:30:00Z", "2027-01-15", "2027-01-21"],
    ["in summer", "2027-07-14T22:30:00Z", "2027-07-15", "2027-07-21"],
  ])("starts from Paris's day %s", (_season, at, fromDay, toDay) => {
    expect(nextFreeTimesWeek(null, new Date(at))).toEqual({ fromDay, toDay });
  });

  it("starts from today when the time asked was on a day gone, and from a day to come as asked", () => {
    const at = new Date("2027-01-14T23:30:00Z");
    expect(nextFreeTimesWeek("2027-01-14", at)).toEqual({
      fromDay: "2027-01-15",
      toDay: "2027-01-21",
    });
    expect(nextFreeTimesWeek("2027-02-01", at)).toEqual({
      fromDay: "2027-02-01",
      toDay: "2027-02-07",
    });
  });
});
