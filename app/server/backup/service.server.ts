import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { db } from "../db/client.server";
import { env, type Env } from "../env.server";
import { log } from "../logger.server";
import { storage } from "../storage/storage.server";
import { createBackup, type BackupResult } from "./backup.server";
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
export async function backUpNow(settings = backupSettings()): Promise<BackupResult> {
  const started = Date.now();
  const result = await createBackup({
    pool: db().$client,
    storage: storage(),
    directory: settings.directory,
    key: settings.key,
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
  await verifyBackup(file, settings.key);
  const safetyBackup = safety
    ? await createBackup({ ...target, directory: settings.directory })
    : null;
  const report = await restoreBackup(file, target);
  log.info("backup_restored", { file: path.basename(file), ...report });
  return { ...report, safetyBackup: safetyBackup ? path.basename(safetyBackup.file) : null };
}
