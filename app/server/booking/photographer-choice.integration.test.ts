import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  client,
  insertPhotographer,
  insertSessionType,
  studioIds,
  type SeededStudioIds,
} from "../../../tests/support/booking";
import { findFreeSlots } from "./availability.server";
import { createBooking, type NewBooking } from "./bookings.server";
import { updatePhotographer } from "./photographer-admin.server";
import { listPhotographers } from "./photographers.server";

// Which photographer a booking goes to (decision 0123): the one already at that studio that day, then the
// one who covers fewer studios, then the owner's order. Before, always the first of the list: the
// photographer of the three studios took every Brive booking while Brive's own was free, and with her
// travel counted, Ussel had no free time left that day.

useAppDatabase({ jobs: true });

/** Monday 4 January 2027, 09:00 in Paris. */
const NOW = new Date("2027-01-04T08:00:00Z");
const owner = { actor: "owner", userId: null, name: "Sophie" } as const;

let studio: SeededStudioIds = { ussel: "", brive: "", limoges: "" };
/** The start-up seed's photographer, first in the list, covering the three studios. */
let everywhere = "";
let briveOnly = "";
let portrait = "";

beforeAll(async () => {
  studio = await studioIds();
  const [first] = await listPhotographers();
  everywhere = first?.id ?? "";
  briveOnly = await insertPhotographer("Brive seule", [studio.brive]);
  portrait = await insertSessionType([studio.brive, studio.ussel]);
});

const book = (studioId: string, slot: string, overrides: Partial<NewBooking> = {}) =>
  createBooking({
    studioId,
    sessionTypeId: portrait,
    slot,
    client,
    consentAt: NOW,
    now: NOW,
    ...overrides,
  });

async function freeKeys(studioId: string, day: string) {
  const { days } = await findFreeSlots({
    studioId,
    sessionTypeId: portrait,
    fromDay: day,
    toDay: day,
    now: NOW,
  });
  return days.flatMap((each) => each.slots.map((slot) => slot.key));
}

describe("the photographer a booking goes to", () => {
  it("is Brive's own photographer for a Brive booking, leaving the other free for Ussel", async () => {
    const made = await book(studio.brive, "2027-01-05T10:00");
    expect(made.photographerId).toBe(briveOnly);
    expect(await freeKeys(studio.ussel, "2027-01-05")).toContain("2027-01-05T10:00");
    const atUssel = await book(studio.ussel, "2027-01-05T10:00");
    expect(atUssel.photographerId).toBe(everywhere);
  });

  it("is the one already at that studio that day, before the one who covers fewer studios", async () => {
    const byPhone = await book(studio.brive, "2027-01-07T09:00", {
      by: owner,
      photographerId: everywhere,
    });
    expect(byPhone.photographerId).toBe(everywhere);
    const later = await book(studio.brive, "2027-01-07T15:00");
    expect(later.photographerId).toBe(everywhere);
    // Another day, nobody there yet: Brive's own.
    const otherDay = await book(studio.brive, "2027-01-08T15:00");
    expect(otherDay.photographerId).toBe(briveOnly);
  });
});

describe("two saves of one photographer at once", () => {
  it("both succeed, the last one's studios kept", async () => {
    const id = await insertPhotographer("Deux fois", [studio.brive]);
    // Bounded: ten rounds of two saves at once.
    for (let round = 0; round < 10; round++) {
      const saves = await Promise.allSettled([
        updatePhotographer(id, {
          name: "Deux fois",
          active: true,
          studioIds: [studio.brive, studio.ussel],
        }),
        updatePhotographer(id, {
          name: "Deux fois",
          active: true,
          studioIds: [studio.brive, studio.ussel],
        }),
      ]);
      expect(saves.map((save) => save.status)).toEqual(["fulfilled", "fulfilled"]);
    }
    const people = await listPhotographers();
    expect(new Set(people.find((person) => person.id === id)?.studioIds)).toEqual(
      new Set([studio.brive, studio.ussel]),
    );
  });
});
