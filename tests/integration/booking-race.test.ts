import { describe, expect, it } from "vitest";
import { raceOnTwoProcesses, SLOT_TAKEN_MESSAGE } from "../../scripts/bench/reservations.ts";

// Issue 25, « What must hold »: 50 simultaneous bookings of one slot over HTTP, across two app processes on
// one database → exactly 1 booking, 49 clear French refusals, 0 5xx. The same function as the benchmark's
// section « réservations », with the same counts: two production servers (`node server.ts`), the second on
// the first one's embedded PostgreSQL, each visitor with its own e-mail and client address (the rate limits
// stay on), the details form posted as a browser without JavaScript does.

describe("50 visitors book the same slot at once on two app processes", () => {
  it(
    "makes exactly one booking; the 49 others read « Ce créneau vient d'être réservé. », none a 5xx",
    { timeout: 240_000 },
    async ({ annotate }) => {
      const race = await raceOnTwoProcesses(50);
      expect(race.unexpected).toEqual([]);
      expect(race.outcomes).toEqual({ booked: 1, taken: 49, other: 0, "5xx": 0, network: 0 });
      expect(race.rows).toBe(1);
      expect(SLOT_TAKEN_MESSAGE).toBe("Ce créneau vient d'être réservé.");
      const figures = `50 answers in ${Math.round(race.allAnsweredMs)} ms (p50 ${Math.round(race.answerP50Ms)} ms, max ${Math.round(race.answerMaxMs)} ms; the booking ${Math.round(race.winnerMs ?? 0)} ms)`;
      process.stdout.write(`${figures}\n`);
      await annotate(figures);
    },
  );
});
