import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { monthsAgo } from "../../../tests/support/retention";
import { blogNewsletterSubscribers } from "../db/schema";
import { purgeInactiveSubscribers, purgeUnconfirmedSignUps } from "./retention.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("the subscribers' purge (18-month retention)", () => {
  it("deletes the subscribers inactive for 18 months and the sign-ups never confirmed past their link, and only those", async () => {
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

    expect(await purgeInactiveSubscribers(database.db)).toBe(1);
    expect(await purgeUnconfirmedSignUps(database.db)).toBe(1);

    const emails = await database.db.execute<{ email: string }>(
      sql`select email from blog_newsletter_subscribers order by 1`,
    );
    expect(emails.rows.map((row) => row.email)).toEqual([
      "active-sub@example.com",
      "waiting@example.com",
    ]);
  });
});
