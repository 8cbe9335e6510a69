import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createBackup } from "../../app/server/backup/backup.server";
import { verifyBackup } from "../../app/server/backup/restore.server";
import { localDestination } from "../../app/server/backup/destination.server";
import { localStorageOf } from "../../app/server/storage/storage.server";
import type { Storage } from "../../app/server/storage/types";
import { backupHourFarFromNow, startScript } from "../support/command-line";
import {
  PROCESS_TEST_TIMEOUT,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";

/*
 * Decisions 0117 and 0128: kill -9 in the middle of `npm run backup` and of `npm run restore` leaves the site serving its
 * data and the earlier backups as they were, and the next backup or restore succeeds.
 *
 * Where the kill lands. The test holds a lock on one table (`verifications`, which no page reads), so the
 * command stops at a known point and the kill never depends on timing: the backup in the middle of its
 * snapshot (earlier tables already in its `.partial-…` archive, this one's COPY waiting); the restore once
 * every file of the archive is staged on the disk and its transaction open, its TRUNCATE waiting — the window
 * where the archive's files are staged and the tables still the site's.
 */

const HELD_TABLE = "public.verifications";
// Every wait is on an event (a lock seen waiting, an exit, a connection gone), under PROCESS_TEST_TIMEOUT:
// beside heavy work, a fresh clone's restore once took longer than the 60 s the wait used to allow to stage
// its files and reach its TRUNCATE.
const DAY = 86_400_000;

let server: ServerProcess;
let pool: pg.Pool;
let storage: Storage;
let backups: string;
/** The backups made before the kills, name → SHA-256. */
let earlier: Record<string, string> = {};

beforeAll(async () => {
  // The nightly backup far from now: no archive but the test's.
  server = await startServerProcess(inject("adminDatabaseUrl"), {
    BACKUP_HOUR: backupHourFarFromNow(),
  });
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 3 });
  storage = localStorageOf(server.dataDir);
  backups = path.join(server.dataDir, "backups");
  await pool.query(
    `insert into blog_articles (title, slug, excerpt, content, author, published, published_at)
     select 'Séance ' || n, 'seance-' || n, 'Extrait ' || n, '<p>Texte ' || n || '</p>', 'Sophie', true, now() - n * interval '1 day'
       from generate_series(1, 30) as n`,
  );
  await pool.query(
    `insert into blog_newsletter_subscribers (email, status, consent_source)
     select 'abonne-' || n || '@example.fr', 'active', 'blog' from generate_series(1, 2000) as n`,
  );
  for (let index = 0; index < 20; index++) {
    await storage.put(`media/photo-${index}-1200.webp`, Buffer.alloc(30_000, index), {
      contentType: "image/webp",
    });
  }
  // Two earlier nights' backups (their dates keep them under the retention whatever runs after).
  for (const daysAgo of [2, 1]) {
    await createBackup({
      pool,
      storage,
      directory: backups,
      now: new Date(Date.now() - daysAgo * DAY),
    });
  }
  earlier = await checksums();
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** Every archive in the backups folder (names as the site lists them), with its SHA-256. */
async function checksums(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const { name } of await localDestination(backups).list()) {
    found[name] = createHash("sha256")
      .update(await readFile(path.join(backups, name)))
      .digest("hex");
  }
  return found;
}

/** Runs a command-line script of the site (`scripts/…`) on the server's database and data folder. */
function runScript(script: string, args: string[] = []) {
  const run = startScript(server, script, args);
  return { ...run, output: () => `${run.stdout()}${run.stderr()}` };
}

/**
 * Holds `lock` on HELD_TABLE until released, and waits until a statement of another connection starting
 * with `waiting` waits for it: the command has reached that point. Resolves with that connection's pid.
 * No deadline of its own: a command slowed by a busy machine gets there later (the test's timeout is the
 * outer bound), one that exits first fails the wait at once.
 */
async function holdUntilWaiting(lock: string, waiting: string, child: ChildProcess) {
  const holder = new pg.Client({ connectionString: server.databaseUrl });
  await holder.connect();
  await holder.query("begin");
  await holder.query(`lock table ${HELD_TABLE} in ${lock} mode`);
  for (;;) {
    const { rows } = await pool.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
      [`${waiting}%`],
    );
    if (rows[0]) {
      return {
        pid: rows[0].pid,
        release: async () => {
          await holder.query("rollback");
          await holder.end();
        },
      };
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await holder.end();
      throw new Error(`« ${waiting} » n'a jamais attendu le verrou.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the killed command's database connection is gone (its transaction rolled back). */
async function connectionGone(pid: number) {
  for (;;) {
    const { rows } = await pool.query("select 1 from pg_stat_activity where pid = $1", [pid]);
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the site holds: every row of the tables a visitor sees, and every stored file's SHA-256. */
async function siteState() {
  const tables: Record<string, unknown[]> = {};
  for (const table of [
    "blog_articles",
    "blog_newsletter_subscribers",
    "site_documents",
    "studios",
  ]) {
    tables[table] = (await pool.query(`select * from ${table} order by 1`)).rows;
  }
  const files: Record<string, string> = {};
  for await (const { key } of storage.list("")) {
    const object = await storage.get(key);
    const hash = createHash("sha256");
    for await (const chunk of object?.body ?? []) hash.update(chunk as Buffer);
    files[key] = hash.digest("hex");
  }
  return { tables, files };
}

async function expectServing(slug: string) {
  const health = await fetch(`${server.baseUrl}/healthz`);
  expect(health.status).toBe(200);
  const page = await fetch(`${server.baseUrl}/blog/${slug}`);
  expect(page.status).toBe(200);
  await page.arrayBuffer();
}

describe("kill -9 of a backup or a restore", () => {
  it(
    "mid-backup: the site serves, earlier backups are untouched, no half archive is listed, the next backup succeeds",
    { timeout: PROCESS_TEST_TIMEOUT },
    async () => {
      const backup = runScript("backup.ts");
      const held = await holdUntilWaiting("access exclusive", "copy (select", backup.child);
      // The archive was under way: its partial file holds the tables before the held one.
      const partial = (await readdir(backups)).find((name) => name.startsWith(".partial-"));
      expect(partial).toBeDefined();
      backup.child.kill("SIGKILL");
      expect(await backup.exited).toBeNull();
      await held.release();
      await connectionGone(held.pid);

      await expectServing("seance-1");
      expect(await checksums()).toEqual(earlier);
      // The leftover is not a backup: never listed, removed by the retention after a day.
      expect((await localDestination(backups).list()).map((file) => file.name)).toEqual(
        Object.keys(earlier).sort().reverse(),
      );

      const next = runScript("backup.ts");
      expect(await next.exited, next.output()).toBe(0);
      const listed = await localDestination(backups).list();
      expect(listed).toHaveLength(3);
      const newest = listed[0];
      if (!newest) throw new Error("no backup listed");
      expect(Object.keys(earlier)).not.toContain(newest.name);
      const manifest = await verifyBackup(path.join(backups, newest.name));
      expect(manifest.tables.find((table) => table.name === "public.blog_articles")?.rows).toBe(30);
      const now = await checksums();
      for (const [name, sum] of Object.entries(earlier)) expect(now[name]).toBe(sum);
    },
  );

  it(
    "mid-restore: the site keeps its data and files, earlier backups are untouched, the next restore succeeds",
    { timeout: PROCESS_TEST_TIMEOUT },
    async () => {
      const [yesterday] = Object.keys(earlier).sort().reverse();
      if (!yesterday) throw new Error("no earlier backup");
      const archive = path.join(backups, yesterday);
      // Since yesterday's backup: an article deleted, a photo deleted, another added.
      await pool.query("delete from blog_articles where slug = 'seance-30'");
      await storage.delete(["media/photo-19-1200.webp"]);
      await storage.put("media/nouvelle-1200.webp", Buffer.alloc(12_000, 99), {
        contentType: "image/webp",
      });
      const before = await siteState();
      const backupsBefore = await checksums();

      const restore = runScript("restore.ts", [archive, "--sans-sauvegarde"]);
      const held = await holdUntilWaiting("access share", "truncate", restore.child);
      restore.child.kill("SIGKILL");
      expect(await restore.exited).toBeNull();
      await held.release();
      await connectionGone(held.pid);

      await expectServing("seance-1");
      // The triggers the restore turned off for its load (search words, content version) are on again.
      const { rows: disabled } = await pool.query(
        "select tgname from pg_trigger where not tgisinternal and tgenabled = 'D'",
      );
      expect(disabled).toEqual([]);
      const after = await siteState();
      expect(after.tables).toEqual(before.tables);
      // Every file the site had is there with the same bytes, and no other is live. The archive's files
      // wait under a staging prefix, never served, until the tables commit (decision 0128): the next
      // restore sweeps them away.
      for (const [key, sum] of Object.entries(before.files)) expect(after.files[key]).toBe(sum);
      const added = Object.keys(after.files).filter((key) => !(key in before.files));
      expect(added.every((key) => key.startsWith("restauration/"))).toBe(true);
      expect(added.some((key) => key.endsWith("/media/photo-19-1200.webp"))).toBe(true);
      expect(await checksums()).toEqual(backupsBefore);

      const again = runScript("restore.ts", [archive, "--sans-sauvegarde"]);
      expect(await again.exited, again.output()).toBe(0);
      const restored = await siteState();
      expect(
        (restored.tables.blog_articles as Array<{ slug: string }>).map((row) => row.slug),
      ).toContain("seance-30");
      expect(Object.keys(restored.files)).toContain("media/photo-19-1200.webp");
      expect(Object.keys(restored.files)).not.toContain("media/nouvelle-1200.webp");
      expect(Object.keys(restored.files).filter((key) => key.startsWith("restauration/"))).toEqual(
        [],
      );
      await expectServing("seance-30");
      expect(await checksums()).toEqual(backupsBefore);
    },
  );
});
