import { inject } from "vitest";
import type pg from "pg";
import { createConnection, type Database } from "../../app/server/db/client.server";

let connection: ReturnType<typeof createConnection> | undefined;
/** Set by `useOwnServer` for a test file that runs a server of its own. */
type Target = { databaseUrl: string; baseUrl: string; dataDir: string; authSecret: string };
let own: Target | undefined;

/**
 * Resolves once the server under test serves its cached pages under the content version the database has
 * now, or reads the version per request (its /healthz says which in `X-Content-Version`, decision 0093).
 * A change committed through a connection of the test reaches the server by PostgreSQL's notification, a
 * few milliseconds later, as a change made by another process would: a test that then expects the change
 * on a public page waits for it here (`serverDatabase` does it after each change).
 */
export async function serverCaughtUp(
  options: { baseUrl?: string; database?: Pick<pg.Pool, "query"> } = {},
): Promise<void> {
  const { rows } = await (options.database ?? rawPool()).query<{ version: string }>(
    "select version::text as version from content_version",
  );
  const version = Number(rows[0]?.version);
  const deadline = Date.now() + 15_000;
  for (;;) {
    let known: string | null;
    try {
      const response = await fetch(`${options.baseUrl ?? serverBaseUrl()}/healthz`);
      await response.arrayBuffer();
      known = response.headers.get("x-content-version");
    } catch {
      return; // no server running (a test stopped it): nothing can be served stale
    }
    if (known === null || known === "read" || Number(known) >= version) return;
    if (Date.now() > deadline) {
      throw new Error(`Le serveur n'a pas reçu la version ${version} du contenu en 15 s.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function rawPool(): pg.Pool {
  serverDatabase();
  if (!connection) throw new Error("no connection");
  return connection.pool;
}

const READS = /^\s*(select|with\s[\s\S]*\)\s*select)\s/i;

/**
 * The pool of `serverDatabase`: after a statement that may change content (anything but a plain read)
 * and after a transaction's COMMIT, it waits until the server has caught up (`serverCaughtUp`).
 */
function waitingForTheServer(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const unwrapped = { query } as Pick<pg.Pool, "query">;
  const wrappedClients = new WeakSet<pg.PoolClient>();
  const textOf = (config: unknown) =>
    typeof config === "string" ? config : String((config as { text?: unknown })?.text ?? "");
  Object.assign(pool, {
    query: async (...args: unknown[]) => {
      const result = await query(...args);
      if (!READS.test(textOf(args[0]))) await serverCaughtUp({ database: unwrapped });
      return result;
    },
  });
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient>;
  Object.assign(pool, {
    // pg's own `pool.query` borrows a client with a callback: that form is left as it is.
    connect: async (...args: unknown[]) => {
      if (args.length > 0) return connect(...args);
      const client = await connect();
      if (!wrappedClients.has(client)) {
        wrappedClients.add(client);
        const clientQuery = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
        Object.assign(client, {
          query: async (...args: unknown[]) => {
            const result = await clientQuery(...args);
            if (/^\s*commit\b/i.test(textOf(args[0])))
              await serverCaughtUp({ database: unwrapped });
            return result;
          },
        });
      }
      return client;
    },
  });
}

/**
 * The database of the server under test, to arrange fixtures and to check what a form stored. Every e2e
 * file shares one server unless it runs its own (`useOwnServer`): create uniquely named rows and remove them
 * afterwards. A change made through it is known to the server when the call resolves.
 */
export function serverDatabase(): Database {
  if (!connection) {
    connection = createConnection(own?.databaseUrl ?? inject("databaseUrl"), { max: 3 });
    waitingForTheServer(connection.pool);
  }
  return connection.db;
}

/** The address of the server under test. */
export function serverBaseUrl(): string {
  return own?.baseUrl ?? inject("baseUrl");
}

/** The DATA_DIR of the server under test. */
export function serverDataDir(): string {
  return own?.dataDir ?? inject("dataDir");
}

/** The AUTH_SECRET of the server under test (session cookies, e-mailed links' tokens). */
export function serverAuthSecret(): string {
  return own?.authSecret ?? inject("authSecret");
}

/** From now on, this file's server is the one at `baseUrl`, with the database at `databaseUrl`. */
export async function targetServer(target: Target) {
  await closeServerDatabase();
  own = target;
}

/**
 * Ends the connection of `serverDatabase` and goes back to the suite's shared server: a file's `afterAll`
 * calls it, and the next file of the same worker (files share a worker's modules) starts from there.
 */
export async function closeServerDatabase(): Promise<void> {
  await connection?.pool.end();
  connection = undefined;
  own = undefined;
}
