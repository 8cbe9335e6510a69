import { PgBoss, fromDrizzle, type JobWithMetadata, type Queue, type SendOptions } from "pg-boss";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { log } from "../logger.server";

/*
 * The job queue (ARCHITECTURE: background jobs): pg-boss on the site's own PostgreSQL, in its schema
 * `pgboss`. Jobs survive restarts and are shared by every app process; a job created inside one of our
 * transactions exists exactly when the transaction commits (the outbox pattern: a contact message and the
 * job that e-mails it are one write). Decision record 0080.
 */

/** A transaction of ours (or the database itself) that a job can be created in. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** About a day of attempts: delays doubling from 5 s up to 30 minutes, 60 of them. */
export const RETRIES_FOR_A_DAY = {
  retryLimit: 60,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 30 * 60,
} as const;

/**
 * A job that asks a payment provider after the commit of what decided it (a refund, a deposit's checkout):
 * about a day of attempts, its workers woken as soon as one is queued (`notify`), a run bounded to 5
 * minutes, kept a week.
 */
export const PROVIDER_JOB_POLICY = {
  ...RETRIES_FOR_A_DAY,
  notify: true,
  expireInSeconds: 5 * 60,
  retentionSeconds: 7 * 24 * 60 * 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
} as const;

/**
 * One kind of job, defined once by the feature that owns it (decision 0149) and listed in boot/jobs.server:
 * its queue (name and pg-boss options, kept as they are for the jobs already in a database), its schedule
 * when it has one, its workers in a process and its handler. `Settings` is what the process tells its
 * workers (boot/jobs.server's ProcessSettings): the mail server, how many photo threads…
 */
export type JobDefinition<Data extends object = object, Settings = unknown> = {
  name: string;
  /** The queue's pg-boss options; `policy` only applies when the queue is created. */
  policy: Omit<Queue, "name">;
  /** A recurring job, sent once per occurrence whichever server's clock calls it. */
  schedule?: {
    /** A cron expression, or the function that reads it from the configuration at start. */
    cron: string | (() => string);
    tz: "Europe/Paris";
    data?: object;
    /** `once`: an occurrence missed while no server ran is sent at the next start (pg-boss's `missed`). */
    missed?: "once";
  };
  /** How many workers this process runs (default 1; 0: none here, the jobs wait for a process that has). */
  workers?: (settings: Settings) => number;
  /** Seconds between looks for jobs whose time has come (retries, a later start): pg-boss's polling. */
  pollingIntervalSeconds?: number;
  /** A worker that fetches its next job as soon as it has handled one, to work through a backlog. */
  backlog?: boolean;
  /**
   * Handles the jobs a worker fetched. A worker of a `backlog` queue fetches one at a time: what its
   * handler returns is kept by pg-boss as that job's `output` (the mail queue's outcome, decision 0150).
   */
  handler: (jobs: JobWithMetadata<Data>[], settings: Settings) => Promise<unknown>;
};

/** A job's definition, with `send` to create one (inside `tx` when given; see enqueue). */
export type DefinedJob<Data extends object = object, Settings = unknown> = JobDefinition<
  Data,
  Settings
> & {
  send: (
    data: Data,
    options?: Omit<SendOptions, "db"> & { tx?: Executor },
  ) => Promise<string | null>;
};

/** Defines a job (decision 0149); its feature exports it and boot/jobs.server lists it. */
export function defineJob<Data extends object = object, Settings = unknown>(
  definition: JobDefinition<Data, Settings>,
): DefinedJob<Data, Settings> {
  return { ...definition, send: (data, options) => enqueue(definition.name, data, options) };
}

/** Any job of a list, whatever its data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJob<Settings = unknown> = JobDefinition<any, Settings>;

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
 * Starts the queue for this process (creating or migrating its schema) and makes sure the queues of `jobs`
 * exist with their options. Workers are registered separately (jobs/workers.server).
 */
export async function startJobQueue(
  databaseUrl: string,
  jobs: readonly Pick<AnyJob, "name" | "policy">[],
): Promise<PgBoss> {
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
    // A schedule's occurrence is sent by a pass that one process of the deployment runs every 5 s (a
    // claim in the database), so within about 5 s of its time rather than up to 30 s (pg-boss's
    // default). It costs the database 12 claims a minute instead of 2, with a read of the schedules
    // each: about 20 more transactions a minute on the 415 an idle server makes (decision 0165).
    cronMonitorIntervalSeconds: 5,
  });
  boss.on("error", (error: unknown) => log.error("job_queue_error", { error }));
  await boss.start();
  for (const { name, policy: options } of jobs) {
    const existing = await boss.getQueue(name);
    if (!existing) await boss.createQueue(name, options);
    else {
      const { policy: _policy, ...changeable } = options;
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
  queue: string,
  data: object,
  options: Omit<SendOptions, "db"> & { tx?: Executor } = {},
): Promise<string | null> {
  const { tx, ...sendOptions } = options;
  return jobQueue().send(queue, data, {
    ...sendOptions,
    ...(tx ? { db: fromDrizzle(tx, sql) } : {}),
  });
}

/**
 * Cancels the jobs of `queue` still waiting (created, or to be retried) whose data holds `match`, inside
 * `tx`: what decided they are no longer wanted and their cancellation are one write. Answers how many.
 */
export async function cancelWaitingJobs(
  queue: string,
  match: Record<string, string>,
  tx: Executor,
): Promise<number> {
  const waiting = await tx.execute<{ id: string }>(sql`
    select id::text from pgboss.job
    where name = ${queue} and state in ('created', 'retry') and data @> ${JSON.stringify(match)}::jsonb`);
  const ids = waiting.rows.map((row) => row.id);
  if (ids.length > 0) await jobQueue().cancel(queue, ids, { db: fromDrizzle(tx, sql) });
  return ids.length;
}
