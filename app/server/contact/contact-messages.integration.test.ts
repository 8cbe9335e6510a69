import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { monthsAgo, contactMessageRow } from "../../../tests/support/retention";
import { purgeOldContactMessages } from "./contact-messages.server";
import { contactMessages } from "../db/schema";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("the contact messages' purge (18-month retention)", () => {
  it("deletes the messages whose last activity is older than 18 months, and only those", async () => {
    await database.db
      .insert(contactMessages)
      .values([
        contactMessageRow("old@example.com", monthsAgo(19)),
        contactMessageRow("recent@example.com", monthsAgo(17)),
        contactMessageRow("handled-late@example.com", monthsAgo(20), monthsAgo(2)),
      ]);

    expect(await purgeOldContactMessages(database.db)).toBe(1);

    const emails = await database.db.execute<{ email: string }>(
      sql`select email from contact_messages order by 1`,
    );
    expect(emails.rows.map((row) => row.email)).toEqual([
      "handled-late@example.com",
      "recent@example.com",
    ]);
    // A second run changes nothing more.
    expect(await purgeOldContactMessages(database.db)).toBe(0);
  });
});
