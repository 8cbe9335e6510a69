import { count, eq, inArray, isNull, and } from "drizzle-orm";
import {
  seedPhotographers,
  seedSessionTypes,
  seedStudios,
  seedTravelMinutes,
} from "~/content/seed";
import { pricesSchema, studioDataSchema } from "~/content/schemas";
import type { SessionTypeValue } from "~/lib/booking/session-type-form";
import { SESSION_TYPE_DEFAULTS } from "~/lib/booking/model";
import { formatPrice } from "~/lib/prices";
import type { Database } from "../db/client.server";
import {
  contentRevisions,
  photographers,
  photographerStudios,
  sessionTypes,
  sessionTypeStudios,
  siteDocuments,
  studios,
  travelTimes,
} from "../db/schema";
import { SEED_AUTHOR } from "./ensure-seed.server";

/** Marker of a database whose demo booking was written once: what the owner removes stays removed. */
const SEEDED_DEMO_BOOKING = "seeded:demo-booking";

/**
 * The demo's online booking (decision 0126): on a database whose booking was never set up (no photographer,
 * no session type), each bookable card of /tarifs becomes a session type offered at the seeded studios, a
 * photographer works at each studio, the travel between studios has first estimates, and the studios take
 * bookings on the site. Runs after the content seed and before `ensureDefaultPhotographer` (which then finds
 * photographers and adds none). Returns the names of the session types it made.
 */
export async function ensureDemoBooking(database: Database): Promise<string[]> {
  return database.transaction(async (tx) => {
    const [marker] = await tx
      .select({ key: siteDocuments.key })
      .from(siteDocuments)
      .where(eq(siteDocuments.key, SEEDED_DEMO_BOOKING));
    if (marker) return [];
    const [people] = await tx.select({ value: count() }).from(photographers);
    const [types] = await tx.select({ value: count() }).from(sessionTypes);
    if ((people?.value ?? 0) > 0 || (types?.value ?? 0) > 0) return [];

    const onSite = await tx
      .select({ id: studios.id, slug: studios.slug, data: studios.data })
      .from(studios)
      .where(
        and(
          isNull(studios.retiredAt),
          inArray(
            studios.slug,
            seedStudios.map((studio) => studio.slug),
          ),
        ),
      );
    const idOf = new Map(onSite.map((studio) => [studio.slug, studio.id]));
    const [pricesRow] = await tx
      .select({ data: siteDocuments.data })
      .from(siteDocuments)
      .where(eq(siteDocuments.key, "prices"));
    const prices = pricesSchema.safeParse(pricesRow?.data);
    if (onSite.length === 0 || !prices.success) return [];

    for (const [position, person] of seedPhotographers.entries()) {
      const studioId = idOf.get(person.studio);
      if (!studioId) continue;
      const [row] = await tx
        .insert(photographers)
        .values({ name: person.name, position })
        .returning({ id: photographers.id });
      if (row) await tx.insert(photographerStudios).values({ photographerId: row.id, studioId });
    }
    const pairs = seedTravelMinutes.flatMap(([from, to, minutes]) => {
      const a = idOf.get(from);
      const b = idOf.get(to);
      if (!a || !b) return [];
      return [{ studioA: a < b ? a : b, studioB: a < b ? b : a, minutes }];
    });
    if (pairs.length > 0) await tx.insert(travelTimes).values(pairs).onConflictDoNothing();

    const studioIds = onSite.map((studio) => studio.id).sort();
    const cards = prices.data.tabs.flatMap((tab) => tab.cards);
    const made: string[] = [];
    for (const seed of seedSessionTypes) {
      const card = cards.find((candidate) => candidate.title === seed.card);
      if (!card || card.sessionType !== "") continue;
      const value: SessionTypeValue = {
        slug: seed.slug,
        name: seed.name,
        description: seed.description,
        photoId: null,
        durationMinutes: seed.durationMinutes,
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        studioIds,
        // The card's, which is their one home (decision 0127); kept here for the type's history.
        priceText: formatPrice(card.price),
        includedText: card.features.join("\n"),
        minimumNoticeHours: SESSION_TYPE_DEFAULTS.minimumNoticeHours,
        horizonDays: SESSION_TYPE_DEFAULTS.horizonDays,
        stepMinutes: SESSION_TYPE_DEFAULTS.stepMinutes,
        mode: "instant",
        responseDeadlineHours: SESSION_TYPE_DEFAULTS.responseDeadlineHours,
        depositText: null,
        visibility: "public",
        questions: [],
        bookableHours: null,
        cancellationCutoffHours: SESSION_TYPE_DEFAULTS.cancellationCutoffHours,
      };
      const { studioIds: _studios, ...columns } = value;
      const [row] = await tx
        .insert(sessionTypes)
        .values({ ...columns, position: made.length })
        .returning({ id: sessionTypes.id });
      if (!row) continue;
      await tx
        .insert(sessionTypeStudios)
        .values(studioIds.map((studioId) => ({ sessionTypeId: row.id, studioId })));
      await tx.insert(contentRevisions).values({
        subject: `session-type:${row.id}`,
        data: value,
        authorName: SEED_AUTHOR,
        summary: "Version d'origine",
      });
      card.sessionType = row.id;
      made.push(seed.name);
    }
    if (made.length === 0) return [];

    await tx
      .update(siteDocuments)
      .set({ data: prices.data, updatedAt: new Date() })
      .where(eq(siteDocuments.key, "prices"));
    await tx.insert(contentRevisions).values({
      subject: "document:prices",
      data: prices.data,
      authorName: SEED_AUTHOR,
      summary: "Cartes réservables en ligne (démonstration)",
    });

    const staffed = new Set(
      seedPhotographers.map((person) => person.studio).filter((slug) => idOf.has(slug)),
    );
    for (const studio of onSite) {
      const data = studioDataSchema.safeParse(studio.data);
      if (!data.success || !staffed.has(studio.slug) || data.data.onlineBooking) continue;
      const next = { ...data.data, onlineBooking: true };
      await tx
        .update(studios)
        .set({ data: next, updatedAt: new Date() })
        .where(eq(studios.id, studio.id));
      await tx.insert(contentRevisions).values({
        subject: `studio:${studio.id}`,
        data: { slug: studio.slug, ...next },
        authorName: SEED_AUTHOR,
        summary: "Réservation en ligne de démonstration activée",
      });
    }
    await tx.insert(siteDocuments).values({ key: SEEDED_DEMO_BOOKING, data: true });
    return made;
  });
}
