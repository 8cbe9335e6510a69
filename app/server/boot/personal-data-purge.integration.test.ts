import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { monthsAgo, contactMessageRow } from "../../../tests/support/retention";
import { insertTestGallery } from "../../../tests/support/galleries";
import { blogNewsletterSubscribers, contactMessages, mailFailures, rateLimits } from "../db/schema";
import { PERSONAL_DATA_PURGES, purgeExpiredPersonalData } from "./personal-data-purge.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("the personal-data purge (18-month retention)", () => {
  // Each feature's purge is tested beside it (contact messages, newsletter, galleries, booking).
  it("runs every feature's purge in one night's run, expired rate limits and old mail failures too", async () => {
    await database.db
      .insert(contactMessages)
      .values([contactMessageRow("old@example.com", monthsAgo(19))]);
    await database.db.insert(blogNewsletterSubscribers).values([
      { email: "old-sub@example.com", consentSource: "blog", lastActivityAt: monthsAgo(19) },
      {
        email: "unconfirmed@example.com",
        consentSource: "blog",
        subscribedAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000),
      },
    ]);
    await insertTestGallery(database.db, {
      clientEmail: "ancienne@example.test",
      expiresAt: monthsAgo(25),
      purgeAt: monthsAgo(1),
      lastClientActivityAt: monthsAgo(19),
      updatedAt: monthsAgo(20),
    });
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
      subscribers: 1,
      unconfirmed: 1,
      galleries: 1,
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
