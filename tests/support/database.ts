import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createConnection, type Database } from "../../app/server/db/client.server";
import { applyMigrations } from "../../app/server/db/migrate.server";

export type TestDatabase = { url: string; db: Database; close: () => Promise<void> };

/** A new, migrated database of its own for one test file; `close` drops it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("adminDatabaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { db, pool } = createConnection(url.toString(), { max: 5 });
  await applyMigrations(db);
  return {
    url: url.toString(),
    db,
    async close() {
      await pool.end();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}
