import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import {
  closeDatabase,
  connectDatabase,
  createConnection,
  type Database,
} from "../../app/server/db/client.server";
import { prepareDatabase } from "../../app/server/boot/database.server";
import { startSiteJobQueue } from "../../app/server/boot/jobs.server";
import { stopJobQueue } from "../../app/server/jobs/queue.server";
import { closeMailTransport } from "../../app/server/mail/transport.server";

export type TestDatabase = { url: string; db: Database; close: () => Promise<void> };

/**
 * A new, migrated database of its own for one test file; `close` drops it. `demo`: seeded as a new demo
 * site's (its online booking, decision 0126). A copy of the run's template where the project makes them
 * (tests/support/database-templates.ts), prepared again as the site prepares its database at every start.
 */
export async function createTestDatabase({
  demo = false,
}: { demo?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject("adminDatabaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = inject("databaseTemplates")?.[demo ? "demo" : "plain"];
  await admin.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  await admin.end();

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { db, pool } = createConnection(url.toString(), { max: 5 });
  await prepareDatabase(db, { demo });
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

/**
 * For a test file of server modules: a database of its own, connected as the app's (`db()`) before the
 * file's tests and dropped after them. Hooks the file registers later run after this connection.
 */
export function useAppDatabase({ jobs = false }: { jobs?: boolean } = {}): {
  url: () => string;
} {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    connectDatabase(database.url);
    // The job queue on the same database (its workers are the test's to start: startWorkers).
    if (jobs) await startSiteJobQueue(database.url);
  });
  afterAll(async () => {
    if (jobs) await stopJobQueue(2_000);
    closeMailTransport();
    await closeDatabase();
    await database?.close();
  });
  return {
    url: () => {
      if (!database) throw new Error("La base de test n'est pas encore créée.");
      return database.url;
    },
  };
}

/**
 * How many sessions of the current database wait on a lock, read in `tx` (a transaction holding one, for a
 * test that lines racing work up behind it): the activity it reads is cleared first, kept otherwise until
 * the transaction ends.
 */
export async function lockWaiters(tx: Pick<Database, "execute">): Promise<number | undefined> {
  await tx.execute(sql`select pg_stat_clear_snapshot()`);
  const waiting = await tx.execute<{ count: number }>(sql`
    select count(*)::int as count from pg_stat_activity
    where wait_event_type = 'Lock' and datname = current_database()`);
  return waiting.rows[0]?.count;
}
