import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";
import { createConnection, type Database } from "../db/client.server";
import { migrationsFolder } from "../db/migrate.server";
import { log } from "../logger.server";
import { BackupRefusedError } from "./errors.server";

/*
 * A database of its own on the site's PostgreSQL server (decision 0117), for what must not touch the site: the
 * check of a backup (« Vérifier cette sauvegarde »: restored there, counted, dropped) and the restore of an
 * archive from an older version (restored there at its own migration level, brought up by the migrations
 * after it, then copied over the site's tables in one transaction). Dropped afterwards, whatever happens.
 */

type Journal = { entries: Array<{ idx: number; tag: string }> };

/** The connection string of `url` with another database name. */
function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Scratch databases are named `verification_sauvegarde_{creation, Unix seconds}_{random}`. */
export const SCRATCH_PREFIX = "verification_sauvegarde_";
/** Older than this and unused, a scratch database is a killed process's leftover. */
const LEFTOVER_AFTER_SECONDS = 10 * 60;

/**
 * Drops the scratch databases a killed process left (its `finally` never ran): a check or an older
 * archive's restore cut by kill -9 or a crash. One still in use (another process's check, however long) is
 * refused by PostgreSQL without FORCE and left alone; a young one may be another process's, about to connect.
 */
async function dropLeftovers(pool: pg.Pool) {
  const { rows } = await pool.query<{ name: string }>(
    "select datname as name from pg_database where starts_with(datname, $1)",
    [SCRATCH_PREFIX],
  );
  const now = Date.now() / 1000;
  for (const { name } of rows) {
    const created = Number(name.slice(SCRATCH_PREFIX.length).split("_")[0]);
    if (Number.isInteger(created) && now - created < LEFTOVER_AFTER_SECONDS) continue;
    await pool.query(`drop database if exists "${name}"`).catch(() => undefined);
  }
}

/**
 * Runs `task` with a new empty database on the server of `pool`, then drops it. The user of the site needs
 * the CREATEDB right (the embedded database has it); without it, a French refusal.
 */
export async function withScratchDatabase<T>(
  pool: pg.Pool,
  task: (scratch: Database) => Promise<T>,
): Promise<T> {
  const url = (pool.options as { connectionString?: string }).connectionString;
  if (!url) throw new Error("connection string unknown");
  await dropLeftovers(pool);
  const name = `${SCRATCH_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString("hex")}`;
  try {
    await pool.query(`create database "${name}"`);
  } catch (error) {
    if ((error as { code?: string }).code === "42501") {
      throw new BackupRefusedError(
        "Le serveur PostgreSQL refuse de créer une base de vérification : donnez le droit CREATEDB à l'utilisateur du site (README, « Sauvegardes et restauration »).",
        { cause: error },
      );
    }
    throw error;
  }
  const scratch = createConnection(withDatabase(url, name), { max: 2 });
  try {
    return await task(scratch.db);
  } finally {
    await scratch.pool.end();
    // Its connections are closed: a plain drop. FORCE (which cuts connections, logged as pool errors) only
    // if one is somehow still there.
    await pool.query(`drop database if exists "${name}"`).catch(async (error: unknown) => {
      log.warn("scratch_database_busy", { name, error });
      await pool.query(`drop database if exists "${name}" with (force)`);
    });
  }
}

/**
 * Applies the site's first `count` migrations to `database` (an archive's level): the journal cut there,
 * in a folder of its own, so that drizzle applies those and no more.
 */
export async function migrateTo(database: Database, count: number): Promise<void> {
  const source = migrationsFolder();
  const journal = JSON.parse(
    await readFile(path.join(source, "meta", "_journal.json"), "utf8"),
  ) as Journal;
  const folder = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
  try {
    await mkdir(path.join(folder, "meta"));
    const entries = journal.entries.slice(0, count);
    await writeFile(
      path.join(folder, "meta", "_journal.json"),
      JSON.stringify({ ...journal, entries }),
    );
    for (const entry of entries) {
      await copyFile(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    }
    await migrate(database, { migrationsFolder: folder });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
