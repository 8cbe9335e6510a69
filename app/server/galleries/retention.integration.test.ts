import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { monthsAgo } from "../../../tests/support/retention";
import { insertTestGallery } from "../../../tests/support/galleries";
import { galleryPhotos } from "../db/schema";
import { purgeForgottenGalleryClients } from "./retention.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("the galleries' part of the personal-data purge (18-month retention)", () => {
  it("makes a client gallery untouched for 18 months forget its client and comments, and only that one", async () => {
    const old = await insertTestGallery(database.db, {
      clientName: "Ancienne Cliente",
      clientEmail: "ancienne@example.test",
      expiresAt: monthsAgo(25),
      purgeAt: monthsAgo(1),
      lastClientActivityAt: monthsAgo(19),
      updatedAt: monthsAgo(20),
    });
    const recent = await insertTestGallery(database.db, {
      clientEmail: "recente@example.test",
      expiresAt: monthsAgo(20),
      purgeAt: monthsAgo(1),
      lastClientActivityAt: monthsAgo(17),
      updatedAt: monthsAgo(20),
    });
    for (const gallery of [old, recent]) {
      await database.db.insert(galleryPhotos).values({
        galleryId: gallery.id,
        position: 0,
        originalName: "IMG_0001.jpg",
        sourceExtension: "jpg",
        favourite: true,
        favouriteComment: "En noir et blanc ?",
      });
    }

    expect(await purgeForgottenGalleryClients(database.db)).toBe(1);

    const rows = await database.db.execute<{
      id: string;
      client_name: string;
      client_email: string;
      favourite_comment: string | null;
    }>(
      sql`select g.id, g.client_name, g.client_email, p.favourite_comment
          from galleries g join gallery_photos p on p.gallery_id = g.id`,
    );
    const byId = new Map(rows.rows.map((row) => [row.id, row]));
    expect(byId.get(old.id)).toMatchObject({
      client_name: "Client",
      client_email: "client@invalid",
      favourite_comment: null,
    });
    expect(byId.get(recent.id)).toMatchObject({
      client_email: "recente@example.test",
      favourite_comment: "En noir et blanc ?",
    });
    // A second run changes nothing more.
    expect(await purgeForgottenGalleryClients(database.db)).toBe(0);
  });
});
