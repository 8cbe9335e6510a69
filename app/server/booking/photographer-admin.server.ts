import { eq, sql } from "drizzle-orm";
import { isUuid } from "~/lib/forms";
import { db } from "../db/client.server";
import { photographers, travelTimes } from "../db/schema";
import { setPhotographerStudios } from "./photographers.server";

/*
 * The owner's settings of who does the sessions (issue 25, « Qui et où »), beside photographers.server.ts:
 * adding a photographer, renaming her, taking her off new bookings, and reading the travel times.
 */

/** Adds a photographer covering `studioIds`, after the others. Returns her id. */
export async function addPhotographer(name: string, studioIds: readonly string[]): Promise<string> {
  const [row] = await db()
    .insert(photographers)
    .values({
      name,
      position: sql`(select coalesce(max(position), -1) + 1 from photographers)`,
    })
    .returning({ id: photographers.id });
  if (!row) throw new Error("photographer not inserted");
  await setPhotographerStudios(row.id, studioIds);
  return row.id;
}

/**
 * Saves a photographer's name, whether she takes new bookings, and her studios. Bookings already made stay
 * with her. False when there is no such photographer.
 */
export async function updatePhotographer(
  id: string,
  changes: { name: string; active: boolean; studioIds: readonly string[] },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db()
    .update(photographers)
    .set({ name: changes.name, active: changes.active, updatedAt: new Date() })
    .where(eq(photographers.id, id))
    .returning({ id: photographers.id });
  if (rows.length === 0) return false;
  await setPhotographerStudios(id, changes.studioIds);
  return true;
}

/** The travel times the owner has given, by unordered pair (`{a} {b}`, smaller id first). */
export async function travelMinutesByPair(): Promise<Map<string, number>> {
  const rows = await db().select().from(travelTimes);
  return new Map(rows.map((row) => [`${row.studioA} ${row.studioB}`, row.minutes]));
}

/** The key of a pair of studios in travelMinutesByPair. */
export const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);
