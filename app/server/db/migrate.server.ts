import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Database } from "./client.server";

/** The committed `drizzle/` folder, found from this module whether it runs from source or from the build. */
export function migrationsFolder(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(directory, "drizzle");
    if (existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error("Dossier des migrations « drizzle/ » introuvable.");
    directory = parent;
  }
}

// Any number; the same in every process so that concurrent starts apply migrations one at a time.
const MIGRATION_LOCK = 7_319_004;

/**
 * Applies pending migrations, serialised across processes with an advisory lock; then `afterwards` (the
 * start-up seeds, boot/database.server) under the same lock, so that a second server starting at the same
 * moment finds them written. Migrations only migrate: what the site writes at start is boot's (decision
 * 0149).
 */
export async function applyMigrations(
  database: Database,
  afterwards?: (database: Database) => Promise<void>,
): Promise<void> {
  const client = await database.$client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(database, { migrationsFolder: migrationsFolder() });
    await afterwards?.(database);
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

export async function appliedMigrationCount(database: Database): Promise<number> {
  const result = await database.execute<{ count: string }>(
    sql`select count(*)::text as count from drizzle.__drizzle_migrations`,
  );
  return Number(result.rows[0]?.count ?? 0);
}
