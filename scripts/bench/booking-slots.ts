// Booking slots (section « réservations », decision 0113): the free slots of one studio for 90 days with 2,000 existing
// bookings (their travel margins at the other studios included) and 200 blocked periods, computed by
// app/lib/booking/slots.ts as /reserver/{studio} does after its two queries. Budget: p95 ≤ 20 ms.
// `node scripts/bench/booking-slots.ts [--quick]` prints the figures; measureBookingSlots() is part of the
// body of the bench section « réservations » (scripts/bench/reservations.ts).
import os from "node:os";
import type * as SlotsModule from "../../app/lib/booking/slots.ts";
import { appModuleLoader } from "../lib/app-loader.ts";
import { percentile } from "./report.ts";

export const BOOKING_SLOTS_BUDGET_P95_MS = 20;

const MINUTE = 60_000;
const DAY = 86_400_000;

type Figures = {
  runs: number;
  occupancies: number;
  freeSlots: number;
  p50: number;
  p95: number;
  /** The process's CPU time per computation: what the p95 would be on an idle machine (the bench's is shared). */
  cpuP95: number;
  loadAverage: number;
};

/** A small deterministic generator, so that every run measures the same agenda. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

export async function measureBookingSlots({ quick = false } = {}): Promise<Figures> {
  const load = await appModuleLoader();
  const slots = await load<typeof SlotsModule>("app/lib/booking/slots.ts");
  const studios = ["ussel", "brive", "limoges"];
  const photographers = ["anne", "bruno"];
  const now = new Date("2027-01-04T08:00:00Z");
  const next = random(25);
  const occupancies: SlotsModule.OccupancyInterval[] = [];
  // 2,000 bookings of 1 h over the 90 days, between 08:00 and 17:00 UTC, with 15-minute buffers: a real
  // row and a 75-minute margin at each other studio, as booking_occupancies keeps them.
  for (let index = 0; index < 2_000; index += 1) {
    const start =
      now.getTime() +
      Math.floor(next() * 90) * DAY +
      (8 * 60 + Math.floor(next() * 18) * 30) * MINUTE;
    const studioId = studios[index % 3] ?? "brive";
    const photographerId = photographers[index % 2] ?? "anne";
    occupancies.push({
      photographerId,
      studioId,
      start: start - 15 * MINUTE,
      end: start + 75 * MINUTE,
      real: true,
    });
    for (const other of studios.filter((each) => each !== studioId)) {
      occupancies.push({
        photographerId,
        studioId: other,
        start: start - 90 * MINUTE,
        end: start + 150 * MINUTE,
        real: false,
      });
    }
  }
  // 200 blocked periods: half a photographer's half-days off, half a studio's.
  for (let index = 0; index < 200; index += 1) {
    const start = now.getTime() + Math.floor(next() * 90) * DAY + 7 * 60 * MINUTE;
    occupancies.push({
      photographerId: index % 2 === 0 ? (photographers[index % 4 === 0 ? 0 : 1] ?? null) : null,
      studioId: index % 2 === 0 ? null : (studios[index % 3] ?? null),
      start,
      end: start + 4 * 60 * MINUTE,
      real: true,
    });
  }
  const hours = { opens: "09:00", closes: "12:00" };
  const afternoon = { opens: "14:00", closes: "18:00" };
  const week = Object.fromEntries(
    ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"].map((day) => [
      day,
      [hours, afternoon],
    ]),
  );
  const travel = () => 75;
  const runs = quick ? 50 : 500;
  const timings: number[] = [];
  const cpuTimings: number[] = [];
  let freeSlots = 0;
  for (let run = 0; run < runs + 20; run += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const availability = slots.availabilityAt("brive", photographers, occupancies, travel);
    const days = slots.freeSlots({
      rules: {
        durationMinutes: 60,
        bufferBeforeMinutes: 15,
        bufferAfterMinutes: 15,
        minimumNoticeHours: 24,
        horizonDays: 90,
        stepMinutes: 30,
      },
      calendar: {
        hours: week,
        closures: [{ from: "2027-02-15", to: "2027-02-21", label: "Vacances" }],
        override: null,
      },
      availability,
      now,
    });
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    // The first runs warm the JIT up, as a running server's would be.
    if (run >= 20) {
      timings.push(elapsed);
      cpuTimings.push((cpu.user + cpu.system) / 1000);
    }
    freeSlots = days.reduce((sum, day) => sum + day.slots.length, 0);
  }
  return {
    runs,
    occupancies: occupancies.length,
    freeSlots,
    p50: percentile(timings, 50) ?? Number.NaN,
    p95: percentile(timings, 95) ?? Number.NaN,
    cpuP95: percentile(cpuTimings, 95) ?? Number.NaN,
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureBookingSlots({ quick: process.argv.includes("--quick") });
  const verdict = figures.p95 <= BOOKING_SLOTS_BUDGET_P95_MS ? "ok" : "AU-DESSUS DU BUDGET";
  console.log(
    `créneaux libres, 1 studio, 90 jours, ${figures.occupancies} occupations : p50 ${figures.p50.toFixed(2)} ms, p95 ${figures.p95.toFixed(2)} ms (budget ${BOOKING_SLOTS_BUDGET_P95_MS} ms : ${verdict}), ${figures.freeSlots} créneaux, ${figures.runs} mesures ; temps CPU p95 ${figures.cpuP95.toFixed(2)} ms ; charge de la machine ${figures.loadAverage.toFixed(1)}`,
  );
}
