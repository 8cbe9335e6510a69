import { asc, count, eq, isNull } from "drizzle-orm";
import { seedTravelMinutes } from "~/content/seed";
import { isUuid } from "~/lib/forms";
import type { Database } from "../db/client.server";
import { db } from "../db/client.server";
import { photographers, photographerStudios, studios, travelTimes } from "../db/schema";

/*
 * Who does the sessions and how far apart the studios are (decision 0116): the owner's settings that the slot
 * computation and the occupancies read.
 */

export type PhotographerRecord = typeof photographers.$inferSelect & { studioIds: string[] };

/** The photographers in the owner's order, each with the studios she covers. */
export async function listPhotographers(): Promise<PhotographerRecord[]> {
  const [people, links] = await Promise.all([
    db()
      .select()
      .from(photographers)
      .orderBy(asc(photographers.position), asc(photographers.createdAt)),
    db().select().from(photographerStudios),
  ]);
  return people.map((person) => ({
    ...person,
    studioIds: links
      .filter((link) => link.photographerId === person.id)
      .map((link) => link.studioId),
  }));
}

/** Replaces the studios a photographer covers. Bookings already made stay where they are. */
export async function setPhotographerStudios(
  photographerId: string,
  studioIds: readonly string[],
): Promise<void> {
  await db().transaction(async (tx) => {
    // Two saves of one photographer at once: the second waits for the first, then replaces its rows (each
    // deleting before the other's insert was visible, both inserted the same pairs: a unique violation).
    await tx
      .select({ id: photographers.id })
      .from(photographers)
      .where(eq(photographers.id, photographerId))
      .for("update");
    await tx
      .delete(photographerStudios)
      .where(eq(photographerStudios.photographerId, photographerId));
    if (studioIds.length > 0) {
      await tx
        .insert(photographerStudios)
        .values([...new Set(studioIds)].map((studioId) => ({ photographerId, studioId })));
    }
  });
}

/**
 * Sets the travel time between two studios, the same both ways (minutes, 0 to 1440). It counts for what is
 * booked from now on; existing bookings keep the margins they were written with, and a new booking checks
 * the new figure against them from its side.
 */
export async function setTravelTime(
  studio1: string,
  studio2: string,
  minutes: number,
): Promise<void> {
  if (!isUuid(studio1) || !isUuid(studio2) || studio1 === studio2) {
    throw new Error("Deux studios différents sont nécessaires.");
  }
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > 1440) {
    throw new Error("Le temps de trajet est un nombre de minutes entre 0 et 1440.");
  }
  const [studioA, studioB] = studio1 < studio2 ? [studio1, studio2] : [studio2, studio1];
  await db()
    .insert(travelTimes)
    .values({ studioA, studioB, minutes })
    .onConflictDoUpdate({
      target: [travelTimes.studioA, travelTimes.studioB],
      set: { minutes, updatedAt: new Date() },
    });
}

/**
 * Bookings need a photographer: when there is none (a new site, or an earlier version's database), one is
 * made for the owner, « Photographe », covering every studio still on the site, with first travel estimates
 * between the seeded studios. Runs after the migrations and the content seed, like it, at every start.
 */
export async function ensureDefaultPhotographer(database: Database): Promise<void> {
  await database.transaction(async (tx) => {
    const [existing] = await tx.select({ count: count() }).from(photographers);
    if ((existing?.count ?? 0) > 0) return;
    const [owner] = await tx
      .insert(photographers)
      .values({ name: "Photographe" })
      .returning({ id: photographers.id });
    if (!owner) return;
    const onSite = await tx
      .select({ id: studios.id, slug: studios.slug })
      .from(studios)
      .where(isNull(studios.retiredAt));
    if (onSite.length > 0) {
      await tx
        .insert(photographerStudios)
        .values(onSite.map((studio) => ({ photographerId: owner.id, studioId: studio.id })));
    }
    const idOf = new Map(onSite.map((studio) => [studio.slug, studio.id]));
    const pairs = seedTravelMinutes.flatMap(([from, to, minutes]) => {
      const a = idOf.get(from);
      const b = idOf.get(to);
      if (!a || !b) return [];
      return [{ studioA: a < b ? a : b, studioB: a < b ? b : a, minutes }];
    });
    if (pairs.length > 0) await tx.insert(travelTimes).values(pairs).onConflictDoNothing();
  });
}
