import { inject } from "vitest";
import { createConnection, type Database } from "../../../app/server/db/client.server";

let connection: ReturnType<typeof createConnection> | undefined;
/** Set by `useOwnServer` for a test file that runs a server of its own. */
let own: { databaseUrl: string; baseUrl: string } | undefined;

/**
 * The database of the server under test, to arrange fixtures and to check what a form stored. Every e2e
 * file shares one server unless it runs its own (`useOwnServer`): create uniquely named rows and remove them
 * afterwards.
 */
export function serverDatabase(): Database {
  connection ??= createConnection(own?.databaseUrl ?? inject("databaseUrl"), { max: 3 });
  return connection.db;
}

/** The address of the server under test. */
export function serverBaseUrl(): string {
  return own?.baseUrl ?? inject("baseUrl");
}

/** From now on, this file's server is the one at `baseUrl`, with the database at `databaseUrl`. */
export async function targetServer(target: { databaseUrl: string; baseUrl: string }) {
  await closeServerDatabase();
  own = target;
}

export async function closeServerDatabase(): Promise<void> {
  await connection?.pool.end();
  connection = undefined;
}
