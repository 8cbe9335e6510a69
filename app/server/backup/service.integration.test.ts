import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { backupRuns, users } from "../db/schema";
import { resetStorageForTests, useStorageForTests } from "../storage/storage.server";
import { localStorageOf } from "../storage/storage.server";
import {
  backupHealth,
  backupSettings,
  listBackups,
  requestBackup,
  requestCheck,
  runRecordedBackup,
  watchBackups,
} from "./service.server";

useAppDatabase({ jobs: true });

describe("recorded backups", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "backup-service-"));
    useStorageForTests(localStorageOf(dataDir));
    await db()
      .insert(users)
      .values({ id: "owner-backups", name: "Camille", email: "camille@example.com", role: "admin" })
      .onConflictDoNothing();
  });
  afterAll(async () => {
    resetStorageForTests();
    await rm(dataDir, { recursive: true, force: true });
  });

  const settings = () => ({ ...backupSettings(), directory: path.join(dataDir, "backups") });

  it("says « never » before the first, then « ok » with the archive listed", async () => {
    expect((await backupHealth()).state).toBe("never");
    const result = await runRecordedBackup({ reason: "manual", by: "Camille" }, settings());
    const health = await backupHealth();
    expect(health.state).toBe("ok");
    expect(health.lastSuccess).toMatchObject({
      file: path.basename(result.file),
      bytes: result.size,
    });
    expect((await listBackups(settings())).map((file) => file.name)).toEqual([
      path.basename(result.file),
    ]);
    // A day and a half later with nothing since: missed.
    expect((await backupHealth(new Date(Date.now() + 36 * 60 * 60 * 1000))).state).toBe("missed");
  });

  it("records a failure with its reason, e-mails the administrators, and shows red until the next success", async () => {
    // A folder that cannot be made: its parent is a file.
    await writeFile(path.join(dataDir, "un-fichier"), "");
    const broken = { ...settings(), directory: path.join(dataDir, "un-fichier", "backups") };
    await expect(runRecordedBackup({ reason: "schedule" }, broken)).rejects.toThrow();
    const health = await backupHealth();
    expect(health.state).toBe("failed");
    expect(health.lastFailure?.error).toBeTruthy();
    expect(health.lastFailure?.emailed).toBe(true);
    const jobs = await db().$client.query<{ data: { kind: string; to: string } }>(
      "select data from pgboss.job where name = 'mail' and data->>'kind' = 'backup-failed'",
    );
    expect(jobs.rows.map((row) => row.data.to)).toContain("camille@example.com");

    await runRecordedBackup({ reason: "schedule" }, settings());
    expect((await backupHealth()).state).toBe("ok");
  });

  it("records a backup, a check or a restore asked from the page at once, once however often it is asked", async () => {
    await db().delete(backupRuns);
    const first = await requestBackup("Camille");
    expect(await requestBackup("Camille")).toBe(first);
    const check = await requestCheck("sauvegarde-2026-11-27-030000.tar", "Camille");
    expect(await requestCheck("sauvegarde-2026-11-27-030000.tar", "Camille")).toBe(check);
    expect(await requestCheck("sauvegarde-2026-11-26-030000.tar", "Camille")).not.toBe(check);
    const runs = await db().select().from(backupRuns);
    expect(runs.map((run) => [run.kind, run.status, run.file]).sort()).toEqual([
      ["backup", "queued", null],
      ["check", "queued", "sauvegarde-2026-11-26-030000.tar"],
      ["check", "queued", "sauvegarde-2026-11-27-030000.tar"],
    ]);
    const jobs = await db().$client.query<{ data: { runId: string } }>(
      "select data from pgboss.job where name = 'backup'",
    );
    expect(jobs.rows.map((job) => job.data.runId).sort()).toEqual(runs.map((run) => run.id).sort());
    // Waiting runs are not backups done or failed: the health does not count them.
    expect((await backupHealth()).state).toBe("never");
    await db().delete(backupRuns);
  });

  it("a run whose server died is closed within minutes, the owner e-mailed; a young one is left to start", async () => {
    await db().delete(backupRuns);
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const [dead, gone, young] = await db()
      .insert(backupRuns)
      .values([
        // « Running » with no job of the queue active: its server was killed under it.
        { reason: "schedule", status: "running", startedAt: minutesAgo(5) },
        // Waiting for a job that no longer exists.
        {
          kind: "check",
          reason: "manual",
          status: "queued",
          file: "x.tar",
          startedAt: minutesAgo(5),
        },
        { reason: "manual", status: "running", startedAt: minutesAgo(0) },
      ])
      .returning({ id: backupRuns.id });
    // The look every 5 minutes closes them; the health then reads the runs as they are.
    await watchBackups();
    const health = await backupHealth();
    expect(health.state).toBe("running");
    const after = await db().select().from(backupRuns);
    const statusOf = (id: string | undefined) => after.find((run) => run.id === id)?.status;
    expect([statusOf(dead?.id), statusOf(gone?.id), statusOf(young?.id)]).toEqual([
      "failed",
      "failed",
      "running",
    ]);
    expect(after.find((run) => run.id === dead?.id)?.error).toBe(
      "interrompue : le serveur s'est arrêté pendant le travail",
    );
    const mails = await db().$client.query<{ data: { runId: string } }>(
      "select data from pgboss.job where name = 'mail' and data->>'kind' = 'backup-failed'",
    );
    expect(mails.rows.map((row) => row.data.runId)).toContain(dead?.id);
    expect(mails.rows.map((row) => row.data.runId)).not.toContain(gone?.id);
    await db().delete(backupRuns);
  });

  it("a night without a backup is e-mailed to the administrators the next morning, once", async () => {
    await db().delete(backupRuns);
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await db()
      .insert(backupRuns)
      .values({
        reason: "schedule",
        status: "done",
        startedAt: hoursAgo(30),
        finishedAt: hoursAgo(30),
      });
    expect(await watchBackups()).toBe(true);
    expect(await watchBackups()).toBe(true);
    const missed = async () =>
      (
        await db().$client.query<{ data: { to: string } }>(
          "select data from pgboss.job where name = 'mail' and data->>'kind' = 'backup-missed'",
        )
      ).rows.map((row) => row.data.to);
    expect(await missed()).toEqual(["camille@example.com"]);
    // Last night's done: nothing to say.
    await db()
      .insert(backupRuns)
      .values({
        reason: "schedule",
        status: "done",
        startedAt: hoursAgo(5),
        finishedAt: hoursAgo(5),
      });
    expect(await watchBackups()).toBe(false);
    await db().delete(backupRuns);
  });

  it("a run cut off by a stopped server counts as failed after the queue's time limit", async () => {
    await db()
      .insert(backupRuns)
      .values({ reason: "schedule", startedAt: new Date(Date.now() - 7 * 60 * 60 * 1000) });
    // Newer successes hide it; alone as the latest, it is a failure.
    await db().delete(backupRuns);
    await db()
      .insert(backupRuns)
      .values({ reason: "schedule", startedAt: new Date(Date.now() - 7 * 60 * 60 * 1000) });
    expect((await backupHealth()).state).toBe("failed");
    expect(await readdir(settings().directory)).not.toContain(".partial");
  });
});
