import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import pg from "pg";
import { formatLongDateTimeFr } from "~/lib/dates";
import { db } from "../db/client.server";
import { type BackupRunProgress, type BackupRunReport, backupRuns, users } from "../db/schema";
import { env, type Env } from "../env.server";
import { log } from "../logger.server";
import { enqueue } from "../jobs/queue.server";
import { defineMailKind } from "../mail/outbox.server";
import { storage } from "../storage/storage.server";
import { type BackupProgress, createBackup, type BackupResult } from "./backup.server";
import {
  backupS3SettingsOf,
  type BackupS3Settings,
  type BackupDestination,
  type BackupFile,
  isBackupName,
  localDestination,
  s3Destination,
} from "./destination.server";
import { BackupBusyError } from "./errors.server";
import { ownerMessageOf as failureWords } from "./failure-words.server";
import { checkBackup, isEncryptedFile, restoreBackup, verifyRestorable } from "./restore.server";
import { backupsToKeep, type Retention } from "./retention";
import { finishPendingSwitches } from "./staged-files.server";

export type { BackupFile };
/** The command line's refusal while another run holds the turn (scripts/backup.ts, scripts/restore.ts). */
export { BackupBusyError };

/*
 * The site's backups as the operator and the owner see them (decision 0117): where they are kept (this
 * server's folder or the BACKUP_S3_* bucket, destination.server), which are kept, a backup now, and the
 * owner's page's requests (a backup, the check or the restore of one) as recorded jobs of the `backup`
 * queue (decision 0118). The archive itself is backup.server / restore.server.
 */

/** The `backup` queue's time limit (its expireInSeconds, backup/jobs.server). */
const INTERRUPTED_AFTER_MS = 6 * 60 * 60 * 1000;

/** A run still waiting or « running » past the queue's time limit: cut off (its server stopped). */
export function isCutOff(run: { status: string; startedAt: Date }, now = new Date()): boolean {
  return (
    (run.status === "running" || run.status === "queued") &&
    now.getTime() - run.startedAt.getTime() > INTERRUPTED_AFTER_MS
  );
}

export type BackupSettings = {
  /** Where archives are written (then kept, or uploaded when `s3` is set): DATA_DIR/backups. */
  directory: string;
  key: string | undefined;
  hour: number;
  retention: Retention;
  /** BACKUP_S3_*: the backups are kept in this bucket, off the server. */
  s3?: BackupS3Settings;
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
    s3: backupS3SettingsOf(config),
  };
}

/** Where the backups of these settings are kept (destination.server). */
export function destinationOf(settings: BackupSettings = backupSettings()): BackupDestination {
  return settings.s3
    ? s3Destination(settings.s3, settings.directory)
    : localDestination(settings.directory);
}

/** The backups kept, newest first. */
export function listBackups(settings: BackupSettings = backupSettings()): Promise<BackupFile[]> {
  return destinationOf(settings).list();
}

/** Deletes the backups the retention no longer keeps, and leftovers of interrupted ones; returns names. */
export async function applyRetention(settings = backupSettings()): Promise<string[]> {
  const destination = destinationOf(settings);
  const files = await destination.list();
  const kept = backupsToKeep(
    files.map((file) => file.createdAt),
    settings.retention,
  );
  const removed = files.filter((_, index) => !kept.has(index)).map((file) => file.name);
  await destination.remove(removed);
  const local = await readdir(settings.directory).catch(() => []);
  for (const name of local) {
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

/** A backup now, handed to its destination (kept here, or uploaded), then the retention. */
export async function backUpNow(
  settings = backupSettings(),
  onProgress?: (progress: BackupProgress) => void,
  { retention = true }: { retention?: boolean } = {},
): Promise<BackupResult & { name: string }> {
  const started = Date.now();
  const result = await createBackup({
    pool: db().$client,
    storage: storage(),
    directory: settings.directory,
    key: settings.key,
    onProgress,
  });
  try {
    await destinationOf(settings).keep(result.file);
  } catch (error) {
    // Not uploaded: no archive left behind in the local folder to fill the disk unseen.
    if (settings.s3) await rm(result.file, { force: true });
    throw error;
  }
  const removed = retention ? await applyRetention(settings) : [];
  log.info("backup_done", {
    file: path.basename(result.file),
    bytes: result.size,
    tables: result.manifest.tables.length,
    files: result.manifest.files.length,
    ms: Date.now() - started,
    removed,
  });
  return { ...result, name: path.basename(result.file) };
}

/**
 * The one turn of backups, checks and restores (decision 0143): a session advisory lock, held on a connection
 * of its own for the whole run. The `backup` queue is a singleton, which keeps the page's and the nightly
 * job's runs apart; this lock keeps a command line's (a process without the queue) apart from them too, on
 * any server, and a killed process's connection gives it back with it.
 */
const BACKUP_TURN_LOCK = 7_319_008;

/**
 * Runs `work` in the turn: a job of the queue waits for it (the page shows its run « En attente »); a command
 * line is refused at once with a BackupBusyError saying what runs and that `notStarted`.
 */
async function inBackupTurn<T>(
  when: "wait" | { notStarted: string },
  work: () => Promise<T>,
): Promise<T> {
  // Outside the pool: the pages keep the pool's five connections while a run holds the turn for minutes.
  const client = new pg.Client(db().$client.options);
  client.on("error", (error) => log.error("backup_turn_connection_lost", { error }));
  await client.connect();
  try {
    if (when === "wait") {
      await client.query("select pg_advisory_lock($1)", [BACKUP_TURN_LOCK]);
    } else {
      const { rows } = await client.query<{ taken: boolean }>(
        "select pg_try_advisory_lock($1) as taken",
        [BACKUP_TURN_LOCK],
      );
      if (!rows[0]?.taken) throw new BackupBusyError(await busyMessage(when.notStarted));
    }
    return await work();
  } finally {
    // The session's end gives the lock back.
    await client.end().catch(() => undefined);
  }
}

/** Whether a backup, check or restore holds the turn (in any process): SQL for a `where`. */
const turnHeld = sql`exists (
  select 1 from pg_locks
  where locktype = 'advisory' and granted and classid = 0 and objid = ${BACKUP_TURN_LOCK} and objsubid = 1
    and database = (select oid from pg_database where datname = current_database()))`;

/** The command line's refusal while another run holds the turn, naming it when it is recorded. */
async function busyMessage(notStarted: string): Promise<string> {
  const [run] = await db()
    .select()
    .from(backupRuns)
    .where(
      and(
        eq(backupRuns.status, "running"),
        gt(backupRuns.startedAt, new Date(Date.now() - INTERRUPTED_AFTER_MS)),
      ),
    )
    .orderBy(desc(backupRuns.startedAt))
    .limit(1);
  const which = run
    ? ` (${runWords(run)}, commencée le ${formatLongDateTimeFr(run.startedAt)})`
    : "";
  return `Une autre opération sur les sauvegardes est en cours${which} : ${notStarted}. Une seule sauvegarde, vérification ou restauration à la fois : relancez la commande quand elle sera terminée (la page Sauvegardes de l'administration montre où elle en est).`;
}

/** A run in words, for the command line: « la sauvegarde de la nuit », « la restauration de … ». */
function runWords(run: typeof backupRuns.$inferSelect): string {
  const by =
    run.origin === "command-line"
      ? " lancée en ligne de commande"
      : run.requestedBy
        ? ` demandée par ${run.requestedBy}`
        : "";
  if (run.kind === "check") return `la vérification de ${run.file ?? "une sauvegarde"}${by}`;
  if (run.kind === "restore") return `la restauration de ${run.file ?? "une sauvegarde"}${by}`;
  if (run.reason === "schedule") return "la sauvegarde de la nuit";
  if (run.reason === "safety") return `la sauvegarde de sécurité d'une restauration${by}`;
  return `une sauvegarde${by}`;
}

/** `npm run backup`: a backup now, recorded as the command line's, in the turn (refused while another runs). */
export function backUpFromCommandLine(
  settings = backupSettings(),
): Promise<BackupResult & { name: string }> {
  return inBackupTurn({ notStarted: "la sauvegarde n'a pas commencé" }, () =>
    runRecordedBackup({ reason: "manual", origin: "command-line" }, settings),
  );
}

/**
 * `npm run restore`: restores an archive over the site (a file here, else a backup of the destination by its
 * name, downloaded first from S3), recorded as the command line's restore, in the turn (refused while
 * another run holds it). The same work as the page's (restoreOver), after a safety backup unless `safety` is
 * false; with BACKUP_KEY, a plain archive only with `acceptUnencrypted` (decision 0129). Null when there is
 * no such archive.
 */
export function restoreFromCommandLine(
  archive: string,
  {
    settings = backupSettings(),
    safety = true,
    acceptUnencrypted = false,
  }: { settings?: BackupSettings; safety?: boolean; acceptUnencrypted?: boolean } = {},
): Promise<BackupRunReport | null> {
  return inBackupTurn({ notStarted: "la restauration n'a pas commencé" }, async () => {
    const recorded = async (file: string, name: string) => {
      const [run] = await db()
        .insert(backupRuns)
        .values({ kind: "restore", reason: "manual", origin: "command-line", file: name })
        .returning({ id: backupRuns.id });
      if (!run) throw new Error("restore run not recorded");
      try {
        const report = await restoreOver(
          file,
          name,
          { settings, safety, acceptUnencrypted, by: null, origin: "command-line" },
          progressWriter(run.id),
        );
        await finishRun(run.id, { report });
        return report;
      } catch (error) {
        await finishRun(run.id, { error });
        throw error;
      }
    };
    const local = path.resolve(archive);
    const onDisk = await stat(local).then(
      () => true,
      () => false,
    );
    if (onDisk) return recorded(local, path.basename(local));
    const name = path.basename(archive);
    const found = await destinationOf(settings).withLocalFile(name, (file) => recorded(file, name));
    return found?.value ?? null;
  });
}

export type BackupReason = "schedule" | "manual" | "safety";

/** Who started a run: the site's server (the page, the nightly job) or the command line (decision 0143). */
export type BackupOrigin = "server" | "command-line";

/**
 * A job of the `backup` queue: a backup (why, who asked, and its run when the page recorded it already),
 * or the check or restore of an archive (its run, recorded when the owner asked). One queue for the three:
 * it is a singleton, so a backup, a check and a restore never run at the same time, on any server.
 */
export type BackupJob =
  | { reason: BackupReason; by?: string | null; runId?: string }
  | { operation: "check" | "restore"; runId: string };

/**
 * Queues a backup (« Sauvegarder maintenant »), recorded at once as waiting so that the page shows it;
 * nothing new when one is already waiting or running. Returns its run.
 */
export async function requestBackup(by: string | null): Promise<string> {
  return requestRun({ kind: "backup", by, file: null });
}

/** Queues « Vérifier cette sauvegarde » of a listed backup (see runCheck); its run. */
export function requestCheck(name: string, by: string | null): Promise<string> {
  return requestRun({ kind: "check", by, file: name });
}

/** Queues the restore of a listed backup over the site (see runRestore); its run. */
export function requestRestore(name: string, by: string | null): Promise<string> {
  return requestRun({ kind: "restore", by, file: name });
}

async function requestRun({
  kind,
  by,
  file,
}: {
  kind: "backup" | "check" | "restore";
  by: string | null;
  file: string | null;
}): Promise<string> {
  return db().transaction(async (tx) => {
    // One request at a time per kind and archive: a second click finds the first one's run.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('backup-request'))`);
    const [pending] = await tx
      .select({ id: backupRuns.id })
      .from(backupRuns)
      .where(
        and(
          eq(backupRuns.kind, kind),
          inArray(backupRuns.status, ["queued", "running"]),
          file === null ? isNull(backupRuns.file) : eq(backupRuns.file, file),
          gt(backupRuns.startedAt, new Date(Date.now() - INTERRUPTED_AFTER_MS)),
        ),
      )
      .limit(1);
    if (pending) return pending.id;
    const [run] = await tx
      .insert(backupRuns)
      .values({ kind, reason: "manual", status: "queued", requestedBy: by, file })
      .returning({ id: backupRuns.id });
    if (!run) throw new Error("backup run not recorded");
    const job: BackupJob =
      kind === "backup"
        ? { reason: "manual", by, runId: run.id }
        : { operation: kind, runId: run.id };
    await enqueue("backup", job, { tx });
    return run.id;
  });
}

/** One job of the `backup` queue (backup/jobs.server). */
export async function runBackupJob(job: BackupJob, settings = backupSettings()): Promise<void> {
  // Waits for a command line's run to end (decision 0143); the queue keeps its own jobs one at a time.
  await inBackupTurn("wait", async () => {
    if ("operation" in job) {
      if (job.operation === "check") await runCheck(job.runId, settings);
      else await runRestore(job.runId, settings);
      return;
    }
    await runRecordedBackup(job, settings);
  });
}

/** A run's progress, written at most once a second (a backup reports each table and file). */
function progressWriter(runId: string) {
  let last = 0;
  return (progress: BackupRunProgress, force = false) => {
    if (!force && Date.now() - last < 1000) return;
    last = Date.now();
    void db()
      .update(backupRuns)
      .set({ progress })
      .where(eq(backupRuns.id, runId))
      .catch(() => undefined);
  };
}

/** A run of the page, now started: null when it is no longer waiting (done already, or unknown). */
async function startRun(runId: string) {
  const [run] = await db()
    .update(backupRuns)
    .set({ status: "running", startedAt: new Date() })
    .where(and(eq(backupRuns.id, runId), eq(backupRuns.status, "queued")))
    .returning();
  return run ?? null;
}

async function finishRun(
  runId: string,
  outcome: { report: BackupRunReport } | { error: unknown },
): Promise<void> {
  await db()
    .update(backupRuns)
    .set(
      "report" in outcome
        ? { status: "done", report: outcome.report, progress: null, finishedAt: new Date() }
        : {
            status: "failed",
            error: ownerMessageOf(outcome.error).slice(0, 2000),
            progress: null,
            finishedAt: new Date(),
          },
    )
    .where(eq(backupRuns.id, runId));
}

/** What the owner reads of a failure (failure-words.server), a missing archive included. */
function ownerMessageOf(error: unknown): string {
  if (error instanceof MissingBackupError) return error.message;
  return failureWords(error);
}

class MissingBackupError extends Error {
  override name = "MissingBackupError";
  constructor() {
    super("cette sauvegarde n'existe plus (supprimée depuis, ou déplacée)");
  }
}

/**
 * A check or a restore of the page, run by its job: the run started, its archive at hand (downloaded first
 * from S3), `work` done with it; what it found is the run's report, a failure the run's error (logged as
 * `failedEvent`). A backup gone meanwhile is a failure of its own.
 */
async function runWithArchive(
  runId: string,
  settings: BackupSettings,
  failedEvent: string,
  work: (
    file: string,
    run: { file: string; requestedBy: string | null },
    progress: ReturnType<typeof progressWriter>,
  ) => Promise<BackupRunReport>,
): Promise<void> {
  const run = await startRun(runId);
  if (!run?.file) return;
  const { file: name } = run;
  const progress = progressWriter(runId);
  try {
    if (settings.s3) progress({ step: "download", done: 0, total: 1 }, true);
    const found = await destinationOf(settings).withLocalFile(name, (file) =>
      work(file, { file: name, requestedBy: run.requestedBy }, progress),
    );
    if (!found) throw new MissingBackupError();
    await finishRun(runId, { report: found.value });
  } catch (error) {
    log.error(failedEvent, { error, file: name });
    await finishRun(runId, { error });
  }
}

/**
 * « Vérifier cette sauvegarde »: the archive restored into a database of its own (checkBackup: every entry
 * against its manifest, every table loaded), then dropped; the site is not touched.
 */
export function runCheck(runId: string, settings = backupSettings()): Promise<void> {
  return runWithArchive(runId, settings, "backup_check_failed", async (file, run, progress) => {
    progress({ step: "check", done: 0, total: 1 }, true);
    const report = await checkBackup(file, { pool: db().$client, key: settings.key });
    log.info("backup_checked", { file: run.file, tables: report.tables });
    return report;
  });
}

/**
 * The restore of a listed backup over the site, from the page: the archive checked whole, a safety backup
 * of the site as it is (recorded as a backup of its own), then the restore (restore.server: one
 * transaction). A refusal or a failure leaves the site as it was.
 */
export function runRestore(runId: string, settings = backupSettings()): Promise<void> {
  return runWithArchive(runId, settings, "backup_restore_failed", (file, run, progress) =>
    restoreOver(
      file,
      run.file,
      { settings, safety: true, acceptUnencrypted: false, by: run.requestedBy, origin: "server" },
      progress,
    ),
  );
}

/**
 * A restore's work, the page's and the command line's: the archive checked whole first (decision 0128: a
 * damaged, foreign or newer archive costs nothing), a safety backup recorded as a backup of its own (unless
 * `safety` is false), then the restore (restore.server: one transaction). Returns what the run reports.
 */
async function restoreOver(
  file: string,
  name: string,
  {
    settings,
    safety,
    acceptUnencrypted,
    by,
    origin,
  }: {
    settings: BackupSettings;
    safety: boolean;
    acceptUnencrypted: boolean;
    by: string | null;
    origin: BackupOrigin;
  },
  progress: ReturnType<typeof progressWriter>,
): Promise<BackupRunReport> {
  const target = { pool: db().$client, storage: storage(), key: settings.key, acceptUnencrypted };
  progress({ step: "check", done: 0, total: 1 }, true);
  const verified = await verifyRestorable(file, target);
  let safetyBackup: string | null = null;
  if (safety) {
    progress({ step: "safety", done: 0, total: 1 }, true);
    safetyBackup = (await runRecordedBackup({ reason: "safety", by, origin }, settings)).name;
  }
  progress({ step: "restore", done: 0, total: 1 }, true);
  const restored = await restoreBackup(file, { ...target, verified });
  log.info("backup_restored", { file: name, ...restored });
  return {
    createdAt: verified.createdAt,
    encrypted: await isEncryptedFile(file),
    tables: restored.tables,
    rows: restored.rows,
    files: restored.files,
    bytes: verified.files.reduce((sum, item) => sum + item.size, 0),
    counts: Object.fromEntries(verified.tables.map((table) => [table.name, table.rows])),
    migrations: verified.migrations,
    safetyBackup,
  };
}

/** A check or restore of the page (or null): its state, progress and report. */
export async function backupRun(runId: string) {
  const [run] = await db().select().from(backupRuns).where(eq(backupRuns.id, runId));
  return run ?? null;
}

/** The runs the page shows: those waiting or running, and the latest result of each archive's check. */
export async function recentRuns(limit = 50) {
  return db().select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(limit);
}

/** A listed backup's bytes for a download (or null when there is no such backup). */
export async function readBackup(name: string, settings = backupSettings()) {
  if (!isBackupName(name)) return null;
  return destinationOf(settings).read(name);
}

/**
 * Runs one backup and records it (`backup_runs`, its progress at most once a second); a failure is recorded
 * with its reason and e-mailed to the administrators, then thrown.
 */
export async function runRecordedBackup(
  {
    reason,
    by = null,
    runId,
    origin = "server",
  }: { reason: BackupReason; by?: string | null; runId?: string; origin?: BackupOrigin },
  settings = backupSettings(),
): Promise<BackupResult & { name: string }> {
  const started = runId ? await startRun(runId) : null;
  const [run] = started
    ? [started]
    : await db()
        .insert(backupRuns)
        .values({ reason, requestedBy: by, origin })
        .returning({ id: backupRuns.id });
  if (!run) throw new Error("backup run not recorded");
  const report = progressWriter(run.id);
  try {
    // A safety backup deletes nothing: the retention keeps one a day, and the archive about to be
    // restored may be today's (the next night's retention sorts them).
    const result = await backUpNow(settings, report, { retention: reason !== "safety" });
    await db()
      .update(backupRuns)
      .set({
        status: "done",
        file: result.name,
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
    // The command line has no job queue to e-mail from: it printed the failure to whoever ran it.
    if (origin === "server") await tellAdministrators(run.id);
    throw error;
  }
}

/** The site's backups at a glance, for the dashboard and /admin/sauvegardes. */
export type BackupHealth = {
  state: "ok" | "running" | "failed" | "missed" | "never";
  lastSuccess: { at: Date; file: string | null; bytes: number | null } | null;
  /** `emailed`: false for a command line's backup (decision 0143: whoever ran it read the failure). */
  lastFailure: { at: Date; error: string | null; emailed: boolean } | null;
};

/** A night's backup is missed when the last good one is older than this. */
const MISSED_AFTER_MS = 26 * 60 * 60 * 1000;

/**
 * Closes the runs whose server stopped under them (kill -9, a crash, a power cut): a « running » run while
 * no job of the `backup` queue is active (one at a time: the queue is a singleton, and a run is marked done
 * or failed before its job ends) and no process holds the turn (a command line's run has no job: its
 * connection holds the turn until it ends or dies, decision 0143), a « queued » one whose job is gone.
 * pg-boss fails a dead server's job once its heartbeat stops (60 s), so the owner reads it within minutes
 * instead of after the queue's 6 hours (runs of the last two minutes are left to start).
 * A server's backup closed so is e-mailed like any failed one. Returns how many were closed.
 */
export async function closeInterruptedRuns(now = new Date()): Promise<number> {
  const at = now.toISOString();
  let closed;
  try {
    closed = await db().execute<{ id: string; kind: string; origin: string }>(sql`
      update backup_runs run
      set status = 'failed', error = coalesce(run.error, ${INTERRUPTED_ERROR}), finished_at = ${at}::timestamptz
      where run.started_at < ${at}::timestamptz - make_interval(secs => ${GRACE_SECONDS})
        and ((run.status = 'running' and not ${turnHeld} and not exists (
              select 1 from pgboss.job j where j.name = 'backup' and j.state = 'active'))
          or (run.status = 'queued' and not exists (
              select 1 from pgboss.job j
              where j.name = 'backup' and j.state in ('created', 'retry', 'active')
                and j.data->>'runId' = run.id::text)))
      returning run.id, run.kind, run.origin`);
  } catch (error) {
    // No job queue on this database yet (a first start before the workers, a test without jobs).
    if ((error as { cause?: { code?: string } }).cause?.code === "42P01") return 0;
    throw error;
  }
  for (const run of closed.rows) {
    log.warn("backup_run_interrupted", { runId: run.id, kind: run.kind });
    // A command line's backup is not e-mailed (decision 0143): whoever ran it saw its process end.
    if (run.kind === "backup" && run.origin === "server") await tellAdministrators(run.id);
  }
  return closed.rows.length;
}

const INTERRUPTED_ERROR = "interrompue : le serveur s'est arrêté pendant le travail";
/** A run younger than this is left alone: its job may be starting (and pg-boss takes a minute to fail a dead one). */
const GRACE_SECONDS = 2 * 60;

export async function backupHealth(now = new Date()): Promise<BackupHealth> {
  const rows = await db()
    .select()
    .from(backupRuns)
    .where(and(eq(backupRuns.kind, "backup"), sql`${backupRuns.status} <> 'queued'`))
    .orderBy(desc(backupRuns.startedAt))
    .limit(20);
  // A run still « running » past the queue's time limit was cut off (its server stopped): a failure.
  const runs = rows.map((run) =>
    isCutOff(run, now)
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
    ? {
        at: failure.finishedAt ?? failure.startedAt,
        error: failure.error,
        emailed: failure.origin === "server",
      }
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

export const enqueueBackupFailed = defineMailKind<{ runId: string; to: string }>("backup-failed", {
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

export const enqueueBackupMissed = defineMailKind<{ day: string; to: string }>("backup-missed", {
  failureKind: "admin",
  async compose({ day, to }) {
    // Written when it leaves: a backup done meanwhile says there is nothing to tell.
    const health = await backupHealth();
    if (health.state !== "missed" || !health.lastSuccess) return null;
    const siteUrl = env().SITE_URL;
    return {
      to,
      subject: "Aucune sauvegarde du site depuis plus d'un jour",
      text: [
        "Bonjour,",
        "",
        `La dernière sauvegarde réussie du site date du ${formatLongDateTimeFr(health.lastSuccess.at)} : celle de la nuit n'a pas eu lieu (le serveur était peut-être arrêté).`,
        "",
        `Vous pouvez en faire une tout de suite : ${siteUrl}/admin/sauvegardes, « Sauvegarder maintenant ».`,
        "Si cela se répète, transmettez ce message à la personne qui s'occupe de l'hébergement du site.",
      ].join("\n"),
      messageId: `<sauvegarde-manquee-${day}-${to.replace(/[^a-z0-9]/gi, "")}@${new URL(siteUrl).hostname}>`,
    };
  },
});

/**
 * The look at the backups every 5 minutes (the `backup-watch` job): runs whose server died are closed
 * (closeInterruptedRuns), and when the last good backup is more than 26 hours old every administrator is
 * e-mailed, once a day. A site that never had one is left to its first night (the dashboard says so).
 * Returns whether it e-mailed.
 */
export async function watchBackups(now = new Date()): Promise<boolean> {
  await closeInterruptedRuns(now);
  // A restore killed after its commit: its files are moved where its tables say (decision 0128).
  await finishPendingSwitches(db().$client, storage());
  const health = await backupHealth(now);
  if (health.state !== "missed") return false;
  const day = now.toISOString().slice(0, 10);
  const admins = await db()
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), isNotNull(users.email)));
  for (const admin of admins) {
    await enqueueBackupMissed(
      { day, to: admin.email },
      { once: `backup-missed:${day}:${admin.email}` },
    );
  }
  return admins.length > 0;
}
