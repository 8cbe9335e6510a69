import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  first,
  insertPhotographer,
  studioIds,
  type SeededStudioIds,
} from "../../../tests/support/booking";
import { db } from "../db/client.server";
import { blockedPeriods } from "../db/schema";
import { exclusionConflict, insertOccupancies } from "./occupancies.server";
import { setTravelTime } from "./photographers.server";

useAppDatabase();

let studio: SeededStudioIds = { ussel: "", brive: "", limoges: "" };
let anne = "";
let bruno = "";

beforeAll(async () => {
  studio = await studioIds();
  anne = await insertPhotographer("Anne", [studio.ussel, studio.brive, studio.limoges]);
  bruno = await insertPhotographer("Bruno", [studio.ussel, studio.brive]);
  await setTravelTime(studio.ussel, studio.brive, 75);
  await setTravelTime(studio.brive, studio.limoges, 60);
  await setTravelTime(studio.ussel, studio.limoges, 80);
});

type Row = {
  studioId: string | null;
  photographerId: string | null;
  from: string;
  to: string;
  real?: boolean;
};

/** One row of booking_occupancies written directly (its owner: a blocked period made for it). */
async function insertRow(row: Row): Promise<void> {
  const anchor = first(
    await db()
      .insert(blockedPeriods)
      .values({
        studioId: studio.brive,
        photographerId: null,
        startsAt: new Date("2030-01-01T00:00Z"),
        endsAt: new Date("2030-01-02T00:00Z"),
        label: "test",
      })
      .returning({ id: blockedPeriods.id }),
  );
  await db().execute(sql`
    insert into booking_occupancies (blocked_period_id, studio_id, photographer_id, during, real)
    values (${anchor.id}::uuid, ${row.studioId}::uuid, ${row.photographerId}::uuid,
            tstzrange(${row.from}::timestamptz, ${row.to}::timestamptz, '[)'), ${row.real ?? true})`);
}

/** Which constraint refused the row, or null when it was accepted. */
async function conflictOf(row: Row) {
  try {
    await insertRow(row);
    return null;
  } catch (error) {
    const conflict = exclusionConflict(error);
    if (!conflict) throw error;
    return conflict;
  }
}

/** A booking-like occupation (real row and margins) through the module, on a day of its own. */
async function occupy(
  photographerId: string | null,
  studioId: string | null,
  from: string,
  to: string,
) {
  const anchor = first(
    await db()
      .insert(blockedPeriods)
      .values({
        studioId,
        photographerId,
        startsAt: new Date(from),
        endsAt: new Date(to),
        label: "t",
      })
      .returning({ id: blockedPeriods.id }),
  );
  return db().transaction((tx) =>
    insertOccupancies(tx, {
      owner: { blockedPeriodId: anchor.id },
      photographerId,
      studioId,
      start: new Date(from),
      end: new Date(to),
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      holdsUntil: null,
    }),
  );
}

const conflictOfOccupation = async (...args: Parameters<typeof occupy>) => {
  try {
    await occupy(...args);
    return null;
  } catch (error) {
    const conflict = exclusionConflict(error);
    if (!conflict) throw error;
    return conflict;
  }
};

describe("the exclusion constraints of booking_occupancies", () => {
  it("refuse two sessions at once in one studio, whoever the photographers", async () => {
    const first = {
      studioId: studio.brive,
      photographerId: anne,
      from: "2030-01-08T09:00Z",
      to: "2030-01-08T10:00Z",
    };
    expect(await conflictOf(first)).toBeNull();
    expect(
      await conflictOf({
        ...first,
        photographerId: bruno,
        from: "2030-01-08T09:30Z",
        to: "2030-01-08T10:30Z",
      }),
    ).toBe("studio");
    // Back to back is fine: the ranges are half-open.
    expect(
      await conflictOf({
        ...first,
        photographerId: bruno,
        from: "2030-01-08T10:00Z",
        to: "2030-01-08T11:00Z",
      }),
    ).toBeNull();
  });

  it("refuse one photographer at two studios at once", async () => {
    expect(
      await conflictOf({
        studioId: studio.brive,
        photographerId: anne,
        from: "2030-01-09T09:00Z",
        to: "2030-01-09T10:00Z",
      }),
    ).toBeNull();
    expect(
      await conflictOf({
        studioId: studio.ussel,
        photographerId: anne,
        from: "2030-01-09T09:30Z",
        to: "2030-01-09T10:30Z",
      }),
    ).toBe("photographer");
  });

  it("refuse a photographer at a studio she cannot reach in time, accept her with enough travel", async () => {
    // Anne at Brive 09:00–10:00 UTC; Ussel is 75 minutes away.
    await occupy(anne, studio.brive, "2030-01-10T09:00Z", "2030-01-10T10:00Z");
    expect(
      await conflictOfOccupation(anne, studio.ussel, "2030-01-10T10:30Z", "2030-01-10T11:30Z"),
    ).toBe("travel");
    expect(
      await conflictOfOccupation(anne, studio.ussel, "2030-01-10T07:00Z", "2030-01-10T07:50Z"),
    ).toBe("travel");
    expect(
      await conflictOfOccupation(anne, studio.ussel, "2030-01-10T11:15Z", "2030-01-10T12:15Z"),
    ).toBeNull();
    expect(
      await conflictOfOccupation(anne, studio.ussel, "2030-01-10T06:45Z", "2030-01-10T07:45Z"),
    ).toBeNull();
    // Bruno is not Anne: her margins do not concern him (the studio is free then).
    expect(
      await conflictOfOccupation(bruno, studio.ussel, "2030-01-10T10:00Z", "2030-01-10T11:00Z"),
    ).toBeNull();
  });

  it("let two travel margins for a third studio overlap", async () => {
    // Anne at Ussel 08:00–09:00 and at Brive 10:30–11:30 (75 minutes apart: just enough). Both write a margin
    // at Limoges over 10:00: margins never conflict with margins (real <> real is false).
    await occupy(anne, studio.ussel, "2030-01-11T08:00Z", "2030-01-11T09:00Z");
    expect(
      await conflictOfOccupation(anne, studio.brive, "2030-01-11T10:15Z", "2030-01-11T11:15Z"),
    ).toBeNull();
    const margins = await db().execute<{ count: number }>(sql`
      select count(*)::int as count from booking_occupancies
      where studio_id = ${studio.limoges}::uuid and photographer_id = ${anne}::uuid and not real
        and during && tstzrange('2030-01-11T09:30Z', '2030-01-11T10:00Z')`);
    expect(margins.rows[0]?.count).toBe(2);
    // Yet Anne cannot be at Limoges in between.
    expect(
      await conflictOfOccupation(anne, studio.limoges, "2030-01-11T09:00Z", "2030-01-11T09:30Z"),
    ).toBe("travel");
  });

  it("block a studio for everyone, and a photographer's time off everywhere but for her only", async () => {
    await occupy(null, studio.limoges, "2030-01-14T08:00Z", "2030-01-14T17:00Z");
    expect(
      await conflictOfOccupation(bruno, studio.limoges, "2030-01-14T09:00Z", "2030-01-14T10:00Z"),
    ).toBe("studio");
    await occupy(anne, null, "2030-01-15T00:00Z", "2030-01-16T00:00Z");
    expect(
      await conflictOfOccupation(anne, studio.brive, "2030-01-15T09:00Z", "2030-01-15T10:00Z"),
    ).toBe("photographer");
    expect(
      await conflictOfOccupation(bruno, studio.brive, "2030-01-15T09:00Z", "2030-01-15T10:00Z"),
    ).toBeNull();
  });

  it("refuse an empty range and a row that occupies nothing", async () => {
    await expect(
      insertRow({
        studioId: studio.brive,
        photographerId: null,
        from: "2030-02-01T09:00Z",
        to: "2030-02-01T09:00Z",
      }),
    ).rejects.toThrow();
    await expect(
      insertRow({
        studioId: null,
        photographerId: null,
        from: "2030-02-01T09:00Z",
        to: "2030-02-01T10:00Z",
      }),
    ).rejects.toThrow();
  });
});
