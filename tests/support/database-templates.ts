import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { prepareDatabase } from "../../app/server/boot/database.server";
import { createConnection } from "../../app/server/db/client.server";

export type DatabaseTemplates = { plain: string; demo: string };

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Databases migrated and seeded once for the run, which a test file's new database copies
     * (`create database … template …`) instead of applying every migration again (decision 0159).
     */
    databaseTemplates: DatabaseTemplates;
  }
}

async function adminQuery(adminUrl: string, query: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A new database of `adminUrl`'s cluster, prepared as the site prepares its own at start. */
async function makeTemplate(adminUrl: string, demo: boolean): Promise<string> {
  const name = `template_${demo ? "demo" : "plain"}_${randomBytes(4).toString("hex")}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { db, pool } = createConnection(url.toString(), { max: 5 });
  try {
    await prepareDatabase(db, { demo });
  } finally {
    // No connection may stay on a template while it is copied.
    await pool.end();
  }
  return name;
}

/**
 * Global set-up, after tests/setup/postgres.ts: the run's templates, made once before any file starts and
 * dropped after the last. Each file still gets a database of its own, and still runs the site's preparation
 * on it (`createTestDatabase`, `startServerProcess`), which then finds every migration and seed in place:
 * about 1 s of migrations a file, 50 files and more a run, become a copy of a few hundred milliseconds.
 */
export default async function setup(project: TestProject) {
  const adminUrl = project.getProvidedContext().adminDatabaseUrl;
  const templates: DatabaseTemplates = {
    plain: await makeTemplate(adminUrl, false),
    demo: await makeTemplate(adminUrl, true),
  };
  project.provide("databaseTemplates", templates);
  return async () => {
    for (const name of Object.values(templates)) {
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    }
  };
}
