import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../app/server/db/embedded.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL URL whose user may create databases; tests make their own database from it. */
    adminDatabaseUrl: string;
  }
}

/**
 * One throwaway PostgreSQL cluster for the whole run (or the server DATABASE_URL names). Each test file
 * creates its own database in it (tests/support/database.ts).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("adminDatabaseUrl", process.env.DATABASE_URL);
    return;
  }
  const directory = await mkdtemp(path.join(os.tmpdir(), "studio-test-pg-"));
  // Thrown away with the run: no flush to the disk at each commit and each database copied (decision 0192).
  const cluster = await startEmbeddedPostgres({ directory, database: "postgres", throwaway: true });
  project.provide("adminDatabaseUrl", cluster.url);
  return async () => {
    await cluster.stop();
    await rm(directory, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
}
