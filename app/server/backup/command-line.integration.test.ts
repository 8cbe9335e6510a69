import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { backupRuns, blogArticles, users } from "../db/schema";
import {
  localStorageOf,
  resetStorageForTests,
  useStorageForTests,
} from "../storage/storage.server";
import { BackupBusyError } from "./errors.server";
import {
  backUpFromCommandLine,
  backupHealth,
  backupSettings,
  restoreFromCommandLine,
  runBackupJob,
  watchBackups,
} from "./service.server";

/*
 * `npm run backup` and `npm run restore` go through the page's door (decision 0143): recorded in
 * `backup_runs` as the command line's, counted by the health, and one at a time with the page's and the
 * nightly job's runs, whichever process or server runs them. The test stops a run at a known point by
 * holding a lock on a table no page reads (as tests/integration/backup-kill.test.ts does), never by timing.
 */

const database = useAppDatabase({ jobs: true });
const HELD_TABLE = "public.verifications";

let dataDir: string;
/** The test's own connections: the app's pool is the runs'. */
let watcher: pg.Pool;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "backup-command-line-"));
  useStorageForTests(localStorageOf(dataDir));
  watcher = new pg.Pool({ connectionString: database.url(), max: 2 });
  await db()
    .insert(users)
    .values({
      id: "owner-command-line",
      name: "Camille",
      email: "camille@example.com",
      role: "admin",
    })
    .onConflictDoNothing();
});

afterAll(async () => {
  await watcher?.end();
  resetStorageForTests();
  await rm(dataDir, { recursive: true, force: true });
});

const settings = () => ({ ...backupSettings(), directory: path.join(dataDir, "backups") });

/** Holds `mode` on HELD_TABLE (released by the returned function), on a connection of its own. */
async function holdTable(mode: string) {
  const holder = await watcher.connect();
  await holder.query("begin");
  await holder.query(`lock table ${HELD_TABLE} in ${mode} mode`);
  return async () => {
    await holder.query("rollback");
    holder.release();
  };
}

/** Waits until a statement starting with `query` waits for a lock (the run has reached that point). */
async function waitingOn(query: string, failed: () => boolean) {
  for (;;) {
    const { rows } = await watcher.query(
      `select 1 from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
      [`${query}%`],
    );
    if (rows.length > 0) return;
    if (failed()) throw new Error(`« ${query} » n'a jamais attendu.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise whose settling is seen without awaiting it. */
function watched<T>(promise: Promise<T>) {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { promise, settled: () => settled };
}

describe("the command line's door to backups", () => {
  it("a command-line backup is recorded as the command line's and counted by the health", async () => {
    expect((await backupHealth()).state).toBe("never");
    const result = await backUpFromCommandLine(settings());
    const runs = await db().select().from(backupRuns);
    expect(
      runs.map((run) => [run.kind, run.status, run.origin, run.file, run.requestedBy]),
    ).toEqual([["backup", "done", "command-line", result.name, null]]);
    const health = await backupHealth();
    expect(health.state).toBe("ok");
    expect(health.lastSuccess).toMatchObject({ file: result.name, bytes: result.size });
  });

  it("a command-line restore while a backup runs is refused in French and changes nothing; alone, it is recorded", async () => {
    await db().delete(backupRuns);
    const archive = path.join(settings().directory, (await backUpFromCommandLine(settings())).name);
    await db().insert(blogArticles).values({
      title: "Écrit depuis",
      slug: "ecrit-depuis",
      excerpt: "Extrait",
      content: "<p>Texte</p>",
      author: "Sophie",
    });

    // The nightly backup, stopped in the middle of its snapshot.
    const release = await holdTable("access exclusive");
    const nightly = watched(runBackupJob({ reason: "schedule" }, settings()));
    await waitingOn("copy (select", nightly.settled);

    const refusal = await restoreFromCommandLine(archive, { settings: settings() }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(BackupBusyError);
    expect((refusal as Error).message).toMatch(
      /^Une autre opération sur les sauvegardes est en cours \(la sauvegarde de la nuit, commencée le .+\) : la restauration n'a pas commencé\./,
    );
    await expect(backUpFromCommandLine(settings())).rejects.toBeInstanceOf(BackupBusyError);
    expect(
      (await db().select().from(backupRuns)).map((run) => [run.kind, run.reason, run.status]),
    ).toEqual(
      expect.arrayContaining([
        ["backup", "manual", "done"],
        ["backup", "schedule", "running"],
      ]),
    );
    expect(await db().select().from(backupRuns)).toHaveLength(2);

    await release();
    await nightly.promise;
    const report = await restoreFromCommandLine(archive, { settings: settings(), safety: false });
    expect(report?.tables).toBeGreaterThan(0);
    expect(
      await db().select().from(blogArticles).where(eq(blogArticles.slug, "ecrit-depuis")),
    ).toEqual([]);
    const [restore] = await db().select().from(backupRuns).where(eq(backupRuns.kind, "restore"));
    expect(restore).toMatchObject({
      status: "done",
      origin: "command-line",
      file: path.basename(archive),
      requestedBy: null,
    });
  });

  it("the nightly job waits for a command-line restore to end before it starts", async () => {
    await db().delete(backupRuns);
    const archive = path.join(settings().directory, (await backUpFromCommandLine(settings())).name);

    // The restore, stopped with its transaction open, before it empties the tables.
    const release = await holdTable("access share");
    const restore = watched(
      restoreFromCommandLine(archive, { settings: settings(), safety: false }),
    );
    await waitingOn("truncate", restore.settled);

    const nightly = watched(runBackupJob({ reason: "schedule" }, settings()));
    await waitingOn("select pg_advisory_lock", nightly.settled);
    expect(await db().select().from(backupRuns).where(eq(backupRuns.reason, "schedule"))).toEqual(
      [],
    );

    await release();
    await restore.promise;
    await nightly.promise;
    const [restored] = await db().select().from(backupRuns).where(eq(backupRuns.kind, "restore"));
    const [night] = await db().select().from(backupRuns).where(eq(backupRuns.reason, "schedule"));
    expect(restored?.status).toBe("done");
    expect(night?.status).toBe("done");
    expect(night?.startedAt.getTime()).toBeGreaterThanOrEqual(
      restored?.finishedAt?.getTime() ?? Infinity,
    );
  });

  it("a command-line backup that fails is recorded and shown red, and e-mails nobody: whoever ran it read it", async () => {
    await db().delete(backupRuns);
    // A folder that cannot be made: its parent is a file.
    await writeFile(path.join(dataDir, "un-fichier"), "");
    const broken = { ...settings(), directory: path.join(dataDir, "un-fichier", "backups") };
    await expect(backUpFromCommandLine(broken)).rejects.toThrow();
    const health = await backupHealth();
    expect(health.state).toBe("failed");
    expect(health.lastFailure).toMatchObject({ emailed: false });
    const [run] = await db().select().from(backupRuns);
    expect(run).toMatchObject({ status: "failed", origin: "command-line" });
    const mails = await db().$client.query(
      "select 1 from pgboss.job where name = 'mail' and data->>'kind' = 'backup-failed'",
    );
    expect(mails.rows).toEqual([]);
  });

  it("a command-line run is left running while its process holds the turn; once its process died, the look at the backups closes it, e-mailing nobody", async () => {
    await db().delete(backupRuns);
    // A command-line backup under way (stopped in its snapshot): no job of the queue, but the turn held.
    const release = await holdTable("access exclusive");
    const live = watched(backUpFromCommandLine(settings()));
    await waitingOn("copy (select", live.settled);
    // Looked at ten minutes later: past the grace given to a run that is starting.
    const later = () => new Date(Date.now() + 10 * 60_000);
    await watchBackups(later());
    expect((await db().select().from(backupRuns)).map((run) => run.status)).toEqual(["running"]);
    await release();
    await live.promise;

    // A process killed under its run: « running », no job, nobody holds the turn.
    const [dead] = await db()
      .insert(backupRuns)
      .values({ reason: "manual", origin: "command-line" })
      .returning({ id: backupRuns.id });
    await watchBackups(later());
    const [closed] = await db()
      .select()
      .from(backupRuns)
      .where(eq(backupRuns.id, dead?.id ?? ""));
    expect(closed?.status).toBe("failed");
    const mails = await db().$client.query(
      "select 1 from pgboss.job where name = 'mail' and data->>'kind' = 'backup-failed'",
    );
    expect(mails.rows).toEqual([]);
  });
});
