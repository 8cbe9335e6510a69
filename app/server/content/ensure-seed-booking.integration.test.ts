import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pricesSchema, studioDataSchema } from "~/content/schemas";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { closeDatabase, connectDatabase } from "../db/client.server";
import { prepareDatabase } from "../boot/database.server";
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
import { ensureDemoBooking } from "./ensure-seed-booking.server";
import { bookingFacts } from "./go-live-booking.server";

let demo: TestDatabase;
let plain: TestDatabase;

beforeAll(async () => {
  [demo, plain] = await Promise.all([createTestDatabase({ demo: true }), createTestDatabase()]);
});

afterAll(async () => {
  await closeDatabase();
  await Promise.all([demo?.close(), plain?.close()]);
});

describe("the demo's online booking (decision 0126)", () => {
  it("a new demo site: the three studios take bookings, one photographer each, a session type per bookable price card at its price", async () => {
    const onSite = await demo.db.select().from(studios);
    expect(onSite).toHaveLength(3);
    for (const studio of onSite) {
      expect(studioDataSchema.parse(studio.data).onlineBooking, studio.slug).toBe(true);
    }
    const people = await demo.db.select().from(photographers);
    const links = await demo.db.select().from(photographerStudios);
    expect(people).toHaveLength(3);
    expect(new Set(links.map((link) => link.studioId)).size).toBe(3);
    expect(links).toHaveLength(3);
    expect(await demo.db.select().from(travelTimes)).toHaveLength(3);

    const types = await demo.db.select().from(sessionTypes);
    expect(types.map((type) => [type.name, type.durationMinutes, type.priceText])).toEqual([
      ["Séance Famille", 60, "79\u00a0€"],
      ["Séance Grossesse", 60, "79\u00a0€"],
      ["Séance Naissance", 150, "99\u00a0€"],
      ["Portrait CV", 90, "59\u00a0€"],
    ]);
    expect(await demo.db.select().from(sessionTypeStudios)).toHaveLength(12);

    // Each bookable card of /tarifs is its session type's offer (decision 0127).
    const [prices] = await demo.db
      .select()
      .from(siteDocuments)
      .where(eq(siteDocuments.key, "prices"));
    const cards = pricesSchema.parse(prices?.data).tabs.flatMap((tab) => tab.cards);
    const idOf = new Map(types.map((type) => [type.name, type.id]));
    expect(cards.map((card) => [card.title, card.sessionType])).toEqual([
      ["Séance Famille", idOf.get("Séance Famille")],
      ["Séance Grossesse", idOf.get("Séance Grossesse")],
      ["Séance Naissance", idOf.get("Séance Naissance")],
      ["Coffret Grossesse + Naissance", ""],
      ["Portrait CV", idOf.get("Portrait CV")],
      ["Mariages", ""],
      ["Prestations Pro", ""],
    ]);
    // Every change has its history line, as the admin's own saves do.
    const subjects = (await demo.db.select().from(contentRevisions)).map((row) => row.subject);
    for (const type of types) expect(subjects).toContain(`session-type:${type.id}`);
  });

  it("the checklist names the demo's session types until the owner saves them, and finds every studio ready", async () => {
    connectDatabase(demo.url);
    const facts = await bookingFacts();
    expect(facts.demoSessionTypes).toEqual([
      { name: "Séance Famille", reviewed: false },
      { name: "Séance Grossesse", reviewed: false },
      { name: "Séance Naissance", reviewed: false },
      { name: "Portrait CV", reviewed: false },
    ]);
    expect([...facts.studios.values()]).toEqual([
      { sessionTypes: 4, photographers: 1 },
      { sessionTypes: 4, photographers: 1 },
      { sessionTypes: 4, photographers: 1 },
    ]);
    await closeDatabase();
  });

  it("is written once: a later start, or a site whose booking was already set up, gets nothing more", async () => {
    await prepareDatabase(demo.db, { demo: true });
    expect(await demo.db.select().from(sessionTypes)).toHaveLength(4);
    expect(await demo.db.select().from(photographers)).toHaveLength(3);

    expect(await ensureDemoBooking(plain.db)).toEqual([]);
    expect(await plain.db.select().from(sessionTypes)).toEqual([]);
  });

  it("without the demo (SEED_DEMO=0, or a database of one's own), booking starts off, as before", async () => {
    for (const studio of await plain.db.select().from(studios)) {
      expect(studioDataSchema.parse(studio.data).onlineBooking, studio.slug).toBe(false);
    }
    expect((await plain.db.select().from(photographers)).map((person) => person.name)).toEqual([
      "Photographe",
    ]);
  });
});
