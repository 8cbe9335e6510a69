import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { log } from "../logger.server";
import * as schema from "./schema";
import { withTimeout } from "../with-timeout.server";

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

type Connection = { db: Database; pool: pg.Pool; url: string };

// Kept on globalThis so that the development server's module reloads reuse the one pool of the process.
const holder = globalThis as typeof globalThis & {
  __studioDatabase?: Connection;
  /** The health check's own connection (databaseIsHealthy), opened at its first use. */
  __studioHealthPool?: pg.Pool;
};

export function createConnection(url: string, options: { max?: number } = {}): Connection {
  const pool = new pg.Pool({
    connectionString: url,
    // (2 × cores) + 1 for the 2-core server the site is sized for (decision record 0092): more connections
    // would not run more queries at once, and each costs PostgreSQL a backend process.
    max: options.max ?? 5,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its server (database restarted) must not crash the process.
  pool.on("error", (error) => log.error("database_pool_error", { error }));
  const db = drizzle({ client: pool, schema });
  return { db, pool, url };
}

/** Opens the process's single pool. Called once at boot. */
export function connectDatabase(url: string): Database {
  holder.__studioDatabase ??= createConnection(url);
  return holder.__studioDatabase.db;
}

/** The process's database, for loaders, actions and server modules. */
export function db(): Database {
  if (!holder.__studioDatabase) throw new Error("La base de données n'est pas encore connectée.");
  return holder.__studioDatabase.db;
}

export async function closeDatabase(): Promise<void> {
  const connection = holder.__studioDatabase;
  const health = holder.__studioHealthPool;
  holder.__studioDatabase = undefined;
  holder.__studioHealthPool = undefined;
  await Promise.all([connection?.pool.end(), health?.end()]);
}

/**
 * True when the database answers a trivial query within the timeout, asked on a connection of its own:
 * a burst of requests holding every connection of the site's pool (bookings waiting on their studio's
 * lock) is a busy server, not an ill one. Through the pool, /healthz answered 503 after its wait, Caddy
 * took the server out of its rotation, then the other one, equally busy: every visitor got a 503.
 */
export async function databaseIsHealthy(timeoutMs = 2_000): Promise<boolean> {
  const connection = holder.__studioDatabase;
  if (!connection) return false;
  holder.__studioHealthPool ??= healthPool(connection.url);
  try {
    await withTimeout(holder.__studioHealthPool.query("select 1"), timeoutMs, "health check");
    return true;
  } catch {
    return false;
  }
}

/** One connection, kept a minute between checks (Caddy asks every 5 s), reopened after a failure. */
function healthPool(url: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: 5_000,
  });
  pool.on("error", (error) => log.warn("database_health_connection_error", { error }));
  return pool;
}
