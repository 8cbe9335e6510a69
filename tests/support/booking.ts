import { eq } from "drizzle-orm";
import { addParisDays } from "../../app/lib/booking/slots";
import { isoDayInParis } from "../../app/lib/dates";
import { db, type Database } from "../../app/server/db/client.server";
import {
  photographers,
  photographerStudios,
  sessionTypes,
  sessionTypeStudios,
  studios,
} from "../../app/server/db/schema";
import { fetchPage } from "./html";

export type SeededStudioIds = { ussel: string; brive: string; limoges: string };

/**
 * The ids of the three seeded studios, in the tests' database or in `database` (a browser test's server:
 * `serverDatabase()`).
 */
export async function studioIds(database: Database = db()): Promise<SeededStudioIds> {
  const rows = await database.select({ id: studios.id, slug: studios.slug }).from(studios);
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

/**
 * A session type offered at the given studios: 1 h, no buffer, no notice, 30-minute steps, unless told; in
 * the tests' database or in `database`.
 */
export async function insertSessionType(
  studioIdList: readonly string[],
  overrides: Partial<typeof sessionTypes.$inferInsert> = {},
  database: Database = db(),
): Promise<string> {
  counter += 1;
  const [row] = await database
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
  await database
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

/**
 * The first free time a visitor is offered on a session type's days page (`/reserver/{studio}/{séance}`,
 * with `?lien=` for a private one): its slot key and the details form's address, as the pages link them.
 */
export async function firstFreeTime(daysPath: string): Promise<{ key: string; href: string }> {
  const days = await fetchPage(daysPath);
  const dayLink = days.document.querySelector('a[href*="jour="]')?.getAttribute("href") ?? "";
  const day = await fetchPage(dayLink);
  const timeLink = day.document.querySelector('a[href*="coordonnees?creneau="]');
  const href = timeLink?.getAttribute("href") ?? "";
  return { key: new URL(href, "http://x").searchParams.get("creneau") ?? "", href };
}

/**
 * Distinct booking times from `fromDays` days on, one hour apart, 12 a day from 08:00 to 19:00 (Paris):
 * each call of the function returned gives the next one (« 2026-12-02T08:00 »).
 */
export function distinctSlots(fromDays: number): () => string {
  let next = 0;
  return () => {
    const index = next++;
    const day = addParisDays(isoDayInParis(new Date()), fromDays + Math.floor(index / 12));
    return `${day}T${String(8 + (index % 12)).padStart(2, "0")}:00`;
  };
}

/** Bookable hours for a test's session type: every day of the week, 8:00 to 20:00 (Paris). */
export const EVERY_DAY = Object.fromEntries(
  ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map((day) => [
    day,
    [{ opens: "08:00", closes: "20:00" }],
  ]),
);
