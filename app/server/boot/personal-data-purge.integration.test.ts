import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { insertTestGallery } from "../../../tests/support/galleries";
import { purgeOldContactMessages } from "../contact-messages.server";
import {
  blogNewsletterSubscribers,
  contactMessages,
  galleryPhotos,
  mailFailures,
  rateLimits,
} from "../db/schema";
import { purgeForgottenGalleryClients } from "../galleries/retention.server";
import { purgeInactiveSubscribers, purgeUnconfirmedSignUps } from "../newsletter/retention.server";
import { PERSONAL_DATA_PURGES, purgeExpiredPersonalData } from "./personal-data-purge.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const monthsAgo = (months: number) => {
  const date = new Date();
  date.setMonth(date.getMonth() - months);
  return date;
};

const message = (email: string, createdAt: Date, handledAt: Date | null = null) => ({
  studio: "ussel",
  shootingType: "naissance",
  prenom: "Anne",
  nom: "Martin",
  email,
  message: "Bonjour",
  createdAt,
  handledAt,
});

describe("the personal-data purge (18-month retention)", () => {
  it("deletes messages and subscribers whose last activity is older than 18 months, and only those", async () => {
    await database.db
      .insert(contactMessages)
      .values([
        message("old@example.com", monthsAgo(19)),
        message("recent@example.com", monthsAgo(17)),
        message("handled-late@example.com", monthsAgo(20), monthsAgo(2)),
      ]);
    await database.db.insert(blogNewsletterSubscribers).values([
      {
        email: "old-sub@example.com",
        consentSource: "blog",
        status: "active",
        lastActivityAt: monthsAgo(19),
      },
      {
        email: "active-sub@example.com",
        consentSource: "blog",
        status: "active",
        subscribedAt: monthsAgo(30),
        lastActivityAt: monthsAgo(1),
      },
      // Never confirmed: forgotten once the 7-day link has expired; a recent one is kept.
      {
        email: "unconfirmed@example.com",
        consentSource: "blog",
        subscribedAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000),
      },
      { email: "waiting@example.com", consentSource: "blog" },
    ]);

    expect(await purgeOldContactMessages(database.db)).toBe(1);
    expect(await purgeInactiveSubscribers(database.db)).toBe(1);
    expect(await purgeUnconfirmedSignUps(database.db)).toBe(1);

    const emails = await database.db.execute<{ email: string }>(
      sql`select email from contact_messages union all select email from blog_newsletter_subscribers order by 1`,
    );
    expect(emails.rows.map((row) => row.email)).toEqual([
      "active-sub@example.com",
      "handled-late@example.com",
      "recent@example.com",
      "waiting@example.com",
    ]);
  });

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

  it("runs every feature's purge in one night's run, expired rate limits and old mail failures too", async () => {
    await database.db.insert(contactMessages).values([message("old-2@example.com", monthsAgo(19))]);
    await database.db.insert(rateLimits).values([
      { key: "expired", count: 3, resetAt: new Date(Date.now() - 60_000) },
      { key: "running", count: 1, resetAt: new Date(Date.now() + 600_000) },
    ]);
    await database.db.insert(mailFailures).values([
      {
        kind: "contact",
        recipient: "ancien@example.com",
        error: "refusé",
        final: true,
        at: monthsAgo(2),
      },
      { kind: "contact", recipient: "recent@example.com", error: "refusé", final: true },
    ]);

    expect(Object.keys(PERSONAL_DATA_PURGES)).toEqual([
      "messages",
      "subscribers",
      "unconfirmed",
      "galleries",
      "bookings",
      "rateLimits",
      "mailFailures",
    ]);
    expect(await purgeExpiredPersonalData(database.db)).toEqual({
      messages: 1,
      subscribers: 0,
      unconfirmed: 0,
      galleries: 0,
      bookings: 0,
      rateLimits: 1,
      mailFailures: 1,
    });
    const left = await database.db.execute<{ key: string }>(
      sql`select key from rate_limits union all select recipient from mail_failures order by 1`,
    );
    expect(left.rows.map((row) => row.key)).toEqual(["recent@example.com", "running"]);
  });
});
