import { PgBoss, fromDrizzle, type Queue, type SendOptions } from "pg-boss";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { log } from "../logger.server";

/*
 * The job queue (docs/architecture.md: background jobs): pg-boss on the site's own PostgreSQL, in its schema
 * `pgboss`. Jobs survive restarts and are shared by every app process; a job created inside one of our
 * transactions exists exactly when the transaction commits (the outbox pattern: a contact message and the
 * job that e-mails it are one write). Decision record 0080.
 */

/** A transaction of ours (or the database itself) that a job can be created in. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

// About a day of attempts: delays doubling from 5 s up to 30 minutes, 60 of them.
const retries = { retryLimit: 60, retryDelay: 5, retryBackoff: true, retryDelayMax: 30 * 60 };

/** The queues and their policies. */
export const QUEUES = {
  /** One e-mail each: confirmations, contact messages, administrators' links. */
  mail: {
    ...retries,
    notify: true,
    expireInSeconds: 5 * 60,
    heartbeatSeconds: 10,
    // Waits while SMTP_URL is unset for a month (a contact message stays in the admin's Messages anyway;
    // a confirmation link is only valid 7 days).
    retentionSeconds: 30 * 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  /**
   * One batch of a newsletter's deliveries each. `singleton`: one batch at a time across every process, so
   * MAIL_RATE_PER_MINUTE is the site's pace, not each process's.
   */
  newsletter: {
    ...retries,
    policy: "singleton",
    notify: true,
    expireInSeconds: 2 * 60 * 60,
    heartbeatSeconds: 10,
    // A sending's batches wait a year while SMTP_URL is unset: a batch whose job was dropped would leave its
    // deliveries pending for ever, and its article could not be sent again.
    retentionSeconds: 366 * 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  /** Publishes the articles whose scheduled time has come (at that time, and every minute as a net). */
  publish: {
    ...retries,
    retryDelay: 10,
    retryDelayMax: 5 * 60,
    notify: true,
    expireInSeconds: 5 * 60,
    retentionSeconds: 366 * 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  /**
   * One uploaded photo of a client gallery each ({@link PhotoJob}): decoded, cleaned of its location data,
   * made into web sizes and a placeholder, in a worker thread (decision 0102). A few attempts only: a file
   * that fails three times is damaged, and the owner reads why on the gallery's page.
   */
  photos: {
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    notify: true,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 30,
    retentionSeconds: 30 * 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  /**
   * The client galleries' retention, daily at 03:30 Paris time (decision 0105): galleries past their
   * deletion date, abandoned uploads, leftover temporary files. `singleton`: one run at a time.
   */
  "gallery-retention": {
    retryLimit: 3,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 60 * 60,
    retentionSeconds: 7 * 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  /**
   * The site's backups (decision 0117): nightly at BACKUP_HOUR, Paris time, and « Sauvegarder maintenant ».
   * `singleton`: one backup at a time across every server. Not retried: a failure is recorded and
   * e-mailed, the next night tries again, the owner can too.
   */
  backup: {
    retryLimit: 0,
    policy: "singleton",
    notify: true,
    expireInSeconds: 6 * 60 * 60,
    heartbeatSeconds: 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  /**
   * Booking reminders, every 5 minutes (decision 0115): `singleton`, one run at a time; a run that fails
   * is simply the next one's work (each reminder's row makes it once).
   */
  "booking-reminders": {
    retryLimit: 1,
    retryDelay: 60,
    policy: "singleton",
    expireInSeconds: 5 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  /**
   * The look at the backups every 5 minutes (decision 0117): runs whose server died are closed, and none done for
   * 26 hours (the server was down at night, the job never ran) is e-mailed once a day. A failed look is the
   * next one's.
   */
  "backup-watch": {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  /**
   * The latest backup's download link, e-mailed once a month to the administrators who asked (decision
   * 0139): looked at daily, so a month whose first days the server was down still gets its e-mail.
   */
  "backup-link": {
    retryLimit: 1,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  /**
   * The busy times of the photographers' own calendars, imported every 15 minutes (decision
   * 0116). `singleton`: one import at a time; a missed run is simply the next one.
   */
  "booking-busy-import": {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 60 * 60,
    deleteAfterSeconds: 60 * 60,
  },
} satisfies Record<string, Omit<Queue, "name">>;

export type QueueName = keyof typeof QUEUES;

/** A job of the `photos` queue: the photo to process (its row says which gallery and file). */
export type PhotoJob = { photoId: string };

const holder = globalThis as typeof globalThis & {
  __studioJobs?: PgBoss;
  __studioJobsStopping?: AbortController;
};

/**
 * Aborted when this process starts stopping its queue: a handler that works through many e-mails stops
 * at the next one, so the batch goes back to the queue while the database is still open (instead of
 * pg-boss giving up on it after the grace, possibly between an e-mail's acceptance and its record).
 */
export function queueStopping(): AbortSignal {
  holder.__studioJobsStopping ??= new AbortController();
  return holder.__studioJobsStopping.signal;
}

/**
 * Starts the queue for this process (creating or migrating its schema) and makes sure the queues exist.
 * Workers are registered separately (jobs/workers.server).
 */
export async function startJobQueue(databaseUrl: string): Promise<PgBoss> {
  if (holder.__studioJobs) return holder.__studioJobs;
  // A new start (tests start and stop the queue more than once in one process): handlers run again.
  holder.__studioJobsStopping = new AbortController();
  const boss = new PgBoss({
    connectionString: databaseUrl,
    application_name: "studio-jobs",
    // A small pool: the workers send one e-mail at a time, and the site's own pool serves the pages.
    max: 3,
    useListenNotify: true,
    // A worker that died (killed process) is noticed within about 20 s and its job handed to another.
    monitorIntervalSeconds: 10,
    superviseIntervalSeconds: 10,
  });
  boss.on("error", (error: unknown) => log.error("job_queue_error", { error }));
  await boss.start();
  for (const [name, options] of Object.entries(QUEUES)) {
    const existing = await boss.getQueue(name);
    if (!existing) await boss.createQueue(name, options);
    else {
      const { policy: _policy, ...changeable } = options as Omit<Queue, "name">;
      await boss.updateQueue(name, changeable);
    }
  }
  holder.__studioJobs = boss;
  return boss;
}

/** The started queue of this process. */
export function jobQueue(): PgBoss {
  if (!holder.__studioJobs) throw new Error("La file de tâches n'est pas démarrée.");
  return holder.__studioJobs;
}

/**
 * Tells the running handlers that the process is stopping (queueStopping): a newsletter batch stops at its
 * next e-mail. Called first thing on SIGTERM, before the HTTP server drains its requests (up to 10 s), so
 * that no e-mail leaves during that wait.
 */
export function announceQueueStop(): void {
  queueStopping();
  holder.__studioJobsStopping?.abort(new Error("Arrêt du processus : la suite attend la file."));
}

/** Stops the workers (letting a running job finish for up to `timeoutMs`) and closes the queue's pool. */
export async function stopJobQueue(timeoutMs = 10_000): Promise<void> {
  const boss = holder.__studioJobs;
  holder.__studioJobs = undefined;
  // Stays aborted until the queue starts again: a batch fetched while pg-boss stops (a worker asks for its
  // next job as soon as one ends) must stop at once too, not run on a fresh signal until the grace ends.
  announceQueueStop();
  await boss?.stop({ graceful: true, timeout: timeoutMs });
}

/**
 * Creates a job; inside `tx` when given, so that it exists exactly when the caller's writes commit.
 * Returns the job's id (null when a singleton key already has one).
 */
export async function enqueue(
  queue: QueueName,
  data: object,
  options: Omit<SendOptions, "db"> & { tx?: Executor } = {},
): Promise<string | null> {
  const { tx, ...sendOptions } = options;
  return jobQueue().send(queue, data, {
    ...sendOptions,
    ...(tx ? { db: fromDrizzle(tx, sql) } : {}),
  });
}
