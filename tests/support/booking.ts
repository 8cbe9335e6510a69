import { eq } from "drizzle-orm";
import { db } from "../../app/server/db/client.server";
import {
  photographers,
  photographerStudios,
  sessionTypes,
  sessionTypeStudios,
  studios,
} from "../../app/server/db/schema";

export type SeededStudioIds = { ussel: string; brive: string; limoges: string };

/** The ids of the three seeded studios. */
export async function studioIds(): Promise<SeededStudioIds> {
  const rows = await db().select({ id: studios.id, slug: studios.slug }).from(studios);
  const idOf = (slug: string) => {
    const id = rows.find((row) => row.slug === slug)?.id;
    if (!id) throw new Error(`no seeded studio ${slug}`);
    return id;
  };
  return { ussel: idOf("ussel"), brive: idOf("brive"), limoges: idOf("limoges") };
}

/** The first row a `returning()` gave, or an error: for fixtures. */
export function first<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error("nothing returned");
  return row;
}

let counter = 0;

/** A session type offered at the given studios: 1 h, no buffer, no notice, 30-minute steps, unless told. */
export async function insertSessionType(
  studioIdList: readonly string[],
  overrides: Partial<typeof sessionTypes.$inferInsert> = {},
): Promise<string> {
  counter += 1;
  const [row] = await db()
    .insert(sessionTypes)
    .values({
      slug: `seance-test-${process.pid}-${counter}`,
      name: `Séance test ${counter}`,
      durationMinutes: 60,
      minimumNoticeHours: 0,
      stepMinutes: 30,
      horizonDays: 400,
      ...overrides,
    })
    .returning({ id: sessionTypes.id });
  if (!row) throw new Error("session type not inserted");
  await db()
    .insert(sessionTypeStudios)
    .values(studioIdList.map((studioId) => ({ sessionTypeId: row.id, studioId })));
  return row.id;
}

/** A photographer covering the given studios. */
export async function insertPhotographer(name: string, studioIdList: readonly string[]) {
  const [row] = await db()
    .insert(photographers)
    .values({ name, position: 10 })
    .returning({ id: photographers.id });
  if (!row) throw new Error("photographer not inserted");
  if (studioIdList.length > 0) {
    await db()
      .insert(photographerStudios)
      .values(studioIdList.map((studioId) => ({ photographerId: row.id, studioId })));
  }
  return row.id;
}

export async function setPhotographerActive(id: string, active: boolean): Promise<void> {
  await db().update(photographers).set({ active }).where(eq(photographers.id, id));
}

/** The client of the tests' bookings. */
export const client = { name: "Léa Martin", email: "lea@example.test", phone: "06 12 34 56 78" };
