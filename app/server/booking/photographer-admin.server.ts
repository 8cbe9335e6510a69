import { eq, sql } from "drizzle-orm";
import { isUuid } from "~/lib/forms";
import { db } from "../db/client.server";
import { moveRow } from "../db/reorder.server";
import { bookings, photographers, travelTimes } from "../db/schema";
import { setPhotographerStudios } from "./photographers.server";

/*
 * The owner's settings of who does the sessions (decision 0116, « Qui et où »), beside photographers.server.ts:
 * adding a photographer, renaming her, taking her off new bookings, her place in the list, deleting one
 * added by mistake, and reading the travel times.
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

/** Moves a photographer one place up or down the list (the first free one takes a booking). */
export function movePhotographer(id: string, direction: "up" | "down"): Promise<boolean> {
  return moveRow("photographers", id, direction);
}

export type PhotographerDeletion = "deleted" | "not_found" | "has_bookings" | "last";

/**
 * Deletes a photographer added by mistake: never one with bookings (their history names her: she is taken
 * off new bookings instead), never the last one. Her days off and her own calendar's busy times go with her.
 */
export async function deletePhotographer(id: string): Promise<PhotographerDeletion> {
  if (!isUuid(id)) return "not_found";
  return db().transaction(async (tx) => {
    const rows = await tx.select({ id: photographers.id }).from(photographers).for("update");
    if (!rows.some((row) => row.id === id)) return "not_found";
    if (rows.length === 1) return "last";
    const [booked] = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.photographerId, id))
      .limit(1);
    if (booked) return "has_bookings";
    await tx.delete(photographers).where(eq(photographers.id, id));
    return "deleted";
  });
}

/** The travel times the owner has given, by unordered pair (`{a} {b}`, smaller id first). */
export async function travelMinutesByPair(): Promise<Map<string, number>> {
  const rows = await db().select().from(travelTimes);
  return new Map(rows.map((row) => [`${row.studioA} ${row.studioB}`, row.minutes]));
}

/** The key of a pair of studios in travelMinutesByPair. */
export const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);
