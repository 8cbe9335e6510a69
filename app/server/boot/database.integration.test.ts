import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { applyMigrations } from "../db/migrate.server";
import { prepareDatabase } from "./database.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

/** How many content documents and photographers the site has. */
async function seeded() {
  const result = await database.db.execute<{ documents: number; photographers: number }>(
    sql`select (select count(*)::int from site_documents) as documents,
               (select count(*)::int from photographers) as photographers`,
  );
  return result.rows[0];
}

describe("the database at start", () => {
  it("is migrated by the migrations alone, and seeded by boot/ (decision 0149)", async () => {
    const written = await seeded();
    expect(written?.documents).toBeGreaterThan(0);
    expect(written?.photographers).toBe(1);

    await database.db.execute(sql`truncate site_documents, photographers cascade`);
    await applyMigrations(database.db);
    expect(await seeded()).toEqual({ documents: 0, photographers: 0 });

    await prepareDatabase(database.db);
    expect(await seeded()).toEqual(written);
  });
});
