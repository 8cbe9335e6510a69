import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSiteJobQueue } from "../../app/server/boot/jobs.server";
import { enqueue, stopJobQueue } from "../../app/server/jobs/queue.server";
import { useAdmin } from "../support/accounts";
import { backupHourFarFromNow, startScript } from "../support/command-line";
import { fetchPage, textOf } from "../support/html";
import {
  PROCESS_TEST_TIMEOUT,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process";
import { closeServerDatabase, targetServer } from "../support/server-under-test";

/*
 * `npm run backup` and `npm run restore` beside a running site go through the backups page's door
 * (decision 0143): a command-line backup is on /admin/sauvegardes (« ligne de commande ») and in the health;
 * a command-line restore is refused in French while the site's nightly backup runs, and the nightly job
 * waits for a command-line restore to end. Runs are stopped at a known point by a lock the test holds on a
 * table no page reads (as backup-kill.test.ts does), and the test waits on what PostgreSQL shows waiting.
 */

const HELD_TABLE = "public.verifications";

let server: ServerProcess;
let pool: pg.Pool;

beforeAll(async () => {
  // The nightly backup's own hour far from now: only the test's jobs run.
  server = await startServerProcess(inject("adminDatabaseUrl"), {
    BACKUP_HOUR: backupHourFarFromNow(),
  });
  await targetServer(server);
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 3 });
}, 120_000);

afterAll(async () => {
  await closeServerDatabase();
  await pool?.end();
  await server?.stop();
});

// After the server's hooks, as with useOwnServer: its account is removed before the server stops.
const admin = useAdmin();

type Run = {
  id: string;
  kind: string;
  reason: string;
  status: string;
  origin: string;
  file: string | null;
  started_at: Date;
  finished_at: Date | null;
};

const runs = async () =>
  (await pool.query<Run>("select * from backup_runs order by started_at")).rows;

/** Holds `mode` on HELD_TABLE until the returned function releases it. */
async function holdTable(mode: string) {
  const holder = await pool.connect();
  await holder.query("begin");
  await holder.query(`lock table ${HELD_TABLE} in ${mode} mode`);
  return async () => {
    await holder.query("rollback");
    holder.release();
  };
}

/** Waits (outer bound 60 s) until a statement starting with `query` waits for a lock. */
async function waitingOn(query: string) {
  const deadline = Date.now() + PROCESS_TEST_TIMEOUT;
  for (;;) {
    const { rows } = await pool.query(
      `select 1 from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
      [`${query}%`],
    );
    if (rows.length > 0) return;
    if (Date.now() > deadline) throw new Error(`« ${query} » n'a jamais attendu de verrou.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits (outer bound 60 s) until the nightly backups recorded are `count`, all finished. */
async function nightlyBackupsDone(count: number): Promise<Run[]> {
  const deadline = Date.now() + PROCESS_TEST_TIMEOUT;
  for (;;) {
    const nightly = (await runs()).filter((run) => run.reason === "schedule");
    if (nightly.length === count && nightly.every((run) => run.status !== "running")) {
      return nightly;
    }
    if (Date.now() > deadline)
      throw new Error(`Sauvegardes de la nuit : ${JSON.stringify(nightly)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The site's nightly backup, queued as its schedule queues it (the server's worker runs it). */
async function queueNightlyBackup() {
  await startSiteJobQueue(server.databaseUrl);
  try {
    await enqueue("backup", { reason: "schedule" });
  } finally {
    await stopJobQueue(2_000);
  }
}

describe("the command line beside the running site", () => {
  let archive: string;

  it("a command-line backup is on the backups page as the command line's, and in the health", async () => {
    const backup = startScript(server, "backup.ts");
    expect(await backup.exited, backup.stderr()).toBe(0);
    const [run] = await runs();
    expect(run).toMatchObject({ kind: "backup", status: "done", origin: "command-line" });
    if (!run?.file) throw new Error("no archive recorded");
    archive = path.join(server.dataDir, "backups", run.file);
    expect(backup.stdout()).toContain(`✔ Sauvegarde ${run.file} :`);

    const page = await fetchPage("/admin/sauvegardes", { cookie: admin.cookie() });
    const row = [
      ...page.document.querySelectorAll('section[aria-labelledby="liste-sauvegardes"] tbody tr'),
    ].find((tr) => textOf(tr).includes("ligne de commande"));
    expect(row).toBeDefined();
    const health = textOf(
      page.document.querySelector('section[aria-labelledby="etat-sauvegardes"]'),
    );
    expect(health).toContain("Dernière sauvegarde réussie : le");
    expect(health).not.toContain("Aucune sauvegarde");
  });

  it("a command-line restore is refused in French while the nightly backup runs, and the nightly job waits for one", async () => {
    // The nightly backup, stopped in the middle of its snapshot.
    let release = await holdTable("access exclusive");
    await queueNightlyBackup();
    await waitingOn("copy (select");
    const refused = startScript(server, "restore.ts", [archive]);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(
      /✖ Une autre opération sur les sauvegardes est en cours \(la sauvegarde de la nuit, commencée le .+\) : la restauration n'a pas commencé\..* Le site n'a pas été modifié\./,
    );
    expect((await runs()).filter((run) => run.kind === "restore")).toEqual([]);
    await release();
    const [first] = await nightlyBackupsDone(1);
    expect(first?.status).toBe("done");

    // A command-line restore, stopped with its transaction open before it empties the tables.
    release = await holdTable("access share");
    const restore = startScript(server, "restore.ts", [archive, "--sans-sauvegarde"]);
    await waitingOn("truncate");
    await queueNightlyBackup();
    // The server's job waits for the restore's turn, and has not started a backup.
    await waitingOn("select pg_advisory_lock");
    expect((await runs()).filter((run) => run.reason === "schedule")).toHaveLength(1);
    await release();
    expect(await restore.exited, restore.stderr()).toBe(0);
    const [restored] = (await runs()).filter((run) => run.kind === "restore");
    expect(restored).toMatchObject({ status: "done", origin: "command-line" });
    const [, second] = await nightlyBackupsDone(2);
    expect(second?.status).toBe("done");
    expect(second?.started_at.getTime()).toBeGreaterThanOrEqual(
      restored?.finished_at?.getTime() ?? Infinity,
    );
  });
});
