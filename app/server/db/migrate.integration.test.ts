import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { applyMigrations, appliedMigrationCount } from "./migrate.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe("migrations", () => {
  it("apply once, and again without effect, also when two processes start together", async () => {
    const before = await appliedMigrationCount(database.db);
    expect(before).toBeGreaterThanOrEqual(2);
    await Promise.all([applyMigrations(database.db), applyMigrations(database.db)]);
    expect(await appliedMigrationCount(database.db)).toBe(before);
  });

  it("install the search extensions and the immutable accent-folding function", async () => {
    const result = await database.db.execute<{ folded: string }>(
      sql`select f_unaccent(lower('Été à Noël')) as folded`,
    );
    expect(result.rows[0]?.folded).toBe("ete a noel");
    const extensions = await database.db.execute<{ extname: string }>(
      sql`select extname from pg_extension where extname in ('pg_trgm', 'unaccent') order by 1`,
    );
    expect(extensions.rows.map((row) => row.extname)).toEqual(["pg_trgm", "unaccent"]);
  });
});
