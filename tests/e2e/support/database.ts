import { inject } from "vitest";
import { createConnection, type Database } from "../../../app/server/db/client.server";

let connection: ReturnType<typeof createConnection> | undefined;

/**
 * The database of the server under test, to arrange fixtures and to check what a form stored. Every e2e
 * file shares one server: create uniquely named rows and remove them afterwards.
 */
export function serverDatabase(): Database {
  connection ??= createConnection(inject("databaseUrl"), { max: 3 });
  return connection.db;
}

export async function closeServerDatabase(): Promise<void> {
  await connection?.pool.end();
  connection = undefined;
}
