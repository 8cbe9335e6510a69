import { afterAll, beforeAll, inject } from "vitest";
import { startServerProcess, type ServerProcess } from "../../support/server-process";
import { closeServerDatabase, targetServer } from "./database";

/**
 * A server and database of the test file's own, for files that change what every page shows (the brand,
 * prices, a studio's phone or hours): on the suite's shared server, another file running at the same time
 * would see the change. Call it first in the file (its hooks must run before the file's own); pass the
 * returned address to `useBrowser({ baseUrl })`. `serverDatabase()` and the account helpers then target it.
 * `env` adds variables to the server's (e.g. SMTP_URL of a capture the file starts in an earlier hook).
 */
export function useOwnServer(
  env: Record<string, string> | (() => Record<string, string>) = {},
): () => string {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServerProcess(
      inject("adminDatabaseUrl"),
      typeof env === "function" ? env() : env,
    );
    await targetServer(server);
  }, 120_000);
  afterAll(async () => {
    await closeServerDatabase();
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("server not started");
    return server.baseUrl;
  };
}
