import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { formatLongDateTimeFr } from "~/lib/dates";
import { db } from "../db/client.server";
import { backupRuns, users } from "../db/schema";
import { env, type Env } from "../env.server";
import { log } from "../logger.server";
import { enqueue } from "../jobs/queue.server";
import { registerMailKind } from "../mail/outbox.server";
import { storage } from "../storage/storage.server";
import { type BackupProgress, createBackup, type BackupResult } from "./backup.server";
import { restoreBackup, type RestoreReport, verifyBackup } from "./restore.server";
import { backupsToKeep, type Retention } from "./retention";

/*
 * The site's backups as the operator and the owner see them (issue 26): where they are, which are kept,
 * a backup now, a restore of one of them. The archive itself is backup.server / restore.server.
 */

export type BackupSettings = {
  directory: string;
  key: string | undefined;
  hour: number;
  retention: Retention;
};

export function backupSettings(config: Env = env()): BackupSettings {
  return {
    directory: path.join(config.dataDir, "backups"),
    key: config.BACKUP_KEY,
    hour: config.BACKUP_HOUR,
    retention: {
      daily: config.BACKUP_KEEP_DAILY,
      weekly: config.BACKUP_KEEP_WEEKLY,
      monthly: config.BACKUP_KEEP_MONTHLY,
    },
  };
}

const NAME = /^sauvegarde-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})\.tar(\.enc)?$/;

export type BackupFile = { name: string; size: number; createdAt: Date; encrypted: boolean };

/** The backups of a folder, newest first (other files are not backups and are left alone). */
export async function listBackups(directory = backupSettings().directory): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files: BackupFile[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match) continue;
    const [, year, month, day, hours, minutes, seconds, encrypted] = match;
    files.push({
      name,
      size: (await stat(path.join(directory, name))).size,
      createdAt: new Date(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}Z`),
      encrypted: Boolean(encrypted),
    });
  }
  return files.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** The path of a listed backup by its name, or null (a name is never a path: nothing outside the folder). */
export async function backupPath(name: string, directory = backupSettings().directory) {
  if (!NAME.test(name)) return null;
  const file = path.join(directory, name);
  try {
    await stat(file);
    return file;
  } catch {
    return null;
  }
}

/** Deletes the backups the retention no longer keeps, and leftovers of interrupted ones; returns names. */
export async function applyRetention(settings = backupSettings()): Promise<string[]> {
  const files = await listBackups(settings.directory);
  const kept = backupsToKeep(
    files.map((file) => file.createdAt),
    settings.retention,
  );
  const removed = files.filter((_, index) => !kept.has(index)).map((file) => file.name);
  for (const name of removed) await rm(path.join(settings.directory, name), { force: true });
  for (const name of await readdir(settings.directory)) {
    if (name.startsWith(".partial-")) {
      const leftover = path.join(settings.directory, name);
      // Another server's backup may be under way: only day-old leftovers are someone's interrupted one.
      if (Date.now() - (await stat(leftover)).mtimeMs > 24 * 60 * 60 * 1000) {
        await rm(leftover, { recursive: true, force: true });
      }
    }
  }
  return removed;
}

/** A backup now, then the retention. */
export async function backUpNow(
  settings = backupSettings(),
  onProgress?: (progress: BackupProgress) => void,
): Promise<BackupResult> {
  const started = Date.now();
  const result = await createBackup({
    pool: db().$client,
    storage: storage(),
    directory: settings.directory,
    key: settings.key,
    onProgress,
  });
  const removed = await applyRetention(settings);
  log.info("backup_done", {
    file: path.basename(result.file),
    bytes: result.size,
    tables: result.manifest.tables.length,
    files: result.manifest.files.length,
    ms: Date.now() - started,
    removed,
  });
  return result;
}

/**
 * Restores a backup over the site (the archive checked whole first; see restore.server), after a safety
 * backup of the site as it is (unless `safety` is false): a restore of the wrong archive can be undone.
 */
export async function restoreFrom(
  file: string,
  {
    settings = backupSettings(),
    safety = true,
  }: { settings?: BackupSettings; safety?: boolean } = {},
): Promise<RestoreReport & { safetyBackup: string | null }> {
  const target = { pool: db().$client, storage: storage(), key: settings.key };
  // Checked before the safety backup: a damaged archive costs nothing.
  const verified = await verifyBackup(file, settings.key);
  const safetyBackup = safety
    ? await createBackup({ ...target, directory: settings.directory })
    : null;
  const report = await restoreBackup(file, { ...target, verified });
  log.info("backup_restored", { file: path.basename(file), ...report });
  return { ...report, safetyBackup: safetyBackup ? path.basename(safetyBackup.file) : null };
}

export type BackupReason = "schedule" | "manual" | "safety";

/** A job of the `backup` queue: why, and who asked (« Sauvegarder maintenant »). */
export type BackupJob = { reason: BackupReason; by?: string | null };

/** Queues a backup (one at a time across every server: the queue is a singleton). */
export function requestBackup(by: string | null): Promise<string | null> {
  return enqueue("backup", { reason: "manual", by } satisfies BackupJob);
}

/**
 * Runs one backup and records it (`backup_runs`, its progress at most once a second); a failure is recorded
 * with its reason and e-mailed to the administrators, then thrown.
 */
export async function runRecordedBackup(
  { reason, by = null }: BackupJob,
  settings = backupSettings(),
): Promise<BackupResult> {
  const [run] = await db()
    .insert(backupRuns)
    .values({ reason, requestedBy: by })
    .returning({ id: backupRuns.id });
  if (!run) throw new Error("backup run not recorded");
  let lastReport = 0;
  const report = (progress: BackupProgress) => {
    if (Date.now() - lastReport < 1000) return;
    lastReport = Date.now();
    void db()
      .update(backupRuns)
      .set({ progress })
      .where(eq(backupRuns.id, run.id))
      .catch(() => undefined);
  };
  try {
    const result = await backUpNow(settings, report);
    await db()
      .update(backupRuns)
      .set({
        status: "done",
        file: path.basename(result.file),
        bytes: result.size,
        progress: null,
        finishedAt: new Date(),
      })
      .where(eq(backupRuns.id, run.id));
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error("backup_failed", { error, reason });
    await db()
      .update(backupRuns)
      .set({ status: "failed", error: message.slice(0, 2000), finishedAt: new Date() })
      .where(eq(backupRuns.id, run.id));
    await tellAdministrators(run.id);
    throw error;
  }
}

/** The site's backups at a glance, for the dashboard and /admin/sauvegardes. */
export type BackupHealth = {
  state: "ok" | "running" | "failed" | "missed" | "never";
  lastSuccess: { at: Date; file: string | null; bytes: number | null } | null;
  lastFailure: { at: Date; error: string | null } | null;
};

/** The `backup` queue's time limit (QUEUES.backup.expireInSeconds). */
const INTERRUPTED_AFTER_MS = 6 * 60 * 60 * 1000;
/** A night's backup is missed when the last good one is older than this. */
const MISSED_AFTER_MS = 26 * 60 * 60 * 1000;

export async function backupHealth(now = new Date()): Promise<BackupHealth> {
  const rows = await db().select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(20);
  // A run still « running » past the queue's time limit was cut off (its server stopped): a failure.
  const runs = rows.map((run) =>
    run.status === "running" && now.getTime() - run.startedAt.getTime() > INTERRUPTED_AFTER_MS
      ? {
          ...run,
          status: "failed" as const,
          error: run.error ?? "sauvegarde interrompue (le serveur s'est arrêté)",
        }
      : run,
  );
  const success = runs.find((run) => run.status === "done");
  const latestFinished = runs.find((run) => run.status !== "running");
  const failure = runs.find((run) => run.status === "failed");
  const lastSuccess = success
    ? { at: success.finishedAt ?? success.startedAt, file: success.file, bytes: success.bytes }
    : null;
  const lastFailure = failure
    ? { at: failure.finishedAt ?? failure.startedAt, error: failure.error }
    : null;
  const state: BackupHealth["state"] =
    runs[0]?.status === "running"
      ? "running"
      : latestFinished?.status === "failed"
        ? "failed"
        : !lastSuccess
          ? "never"
          : now.getTime() - lastSuccess.at.getTime() > MISSED_AFTER_MS
            ? "missed"
            : "ok";
  return { state, lastSuccess, lastFailure };
}

const enqueueBackupFailed = registerMailKind<{ runId: string; to: string }>("backup-failed", {
  failureKind: "admin",
  async compose({ runId, to }) {
    const [run] = await db().select().from(backupRuns).where(eq(backupRuns.id, runId));
    if (!run || run.status !== "failed") return null;
    const when = formatLongDateTimeFr(run.startedAt);
    const siteUrl = env().SITE_URL;
    return {
      to,
      subject: "La sauvegarde du site a échoué",
      text: [
        "Bonjour,",
        "",
        `La sauvegarde du site du ${when} a échoué : ${run.error ?? "raison inconnue"}.`,
        "",
        "Les sauvegardes précédentes sont intactes, et la prochaine sera tentée la nuit prochaine.",
        "Si l'échec se répète, transmettez ce message à la personne qui s'occupe de l'hébergement du site",
        `(${siteUrl}).`,
      ].join("\n"),
      messageId: `<sauvegarde-${runId}-${to.replace(/[^a-z0-9]/gi, "")}@${new URL(siteUrl).hostname}>`,
    };
  },
});

/** The failure, e-mailed to every administrator (once each per failed run). */
async function tellAdministrators(runId: string) {
  const admins = await db()
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), isNotNull(users.email)));
  for (const admin of admins) {
    await enqueueBackupFailed(
      { runId, to: admin.email },
      { once: `backup-failed:${runId}:${admin.email}` },
    );
  }
}
