import type { JobWithMetadata, PgBoss } from "pg-boss";
import { jobQueue, queueStopping, type AnyJob } from "./queue.server";

/**
 * One worker of `queue` that works through a backlog without pausing. pg-boss's NOTIFY only announces a job
 * being created, and a worker that has handled one otherwise waits for its next poll (30 s under NOTIFY)
 * before it looks again: ten confirmations queued at once left in pairs every 30 s, and a newsletter's
 * batches, all created together, one every 30 s. So the worker fetches again as soon as it has handled a
 * job, and polls every `pollingIntervalSeconds` for the jobs whose retry time has come (nothing announces
 * those either).
 */
async function workThrough<Data extends object>(
  boss: PgBoss,
  queue: string,
  pollingIntervalSeconds: number,
  handler: (jobs: JobWithMetadata<Data>[]) => Promise<unknown>,
): Promise<void> {
  // Set once work() has answered with the worker's id (before any job can end: a job needs a fetch).
  let fetchAgain = () => {};
  const worker = await boss.work(
    queue,
    {
      includeMetadata: true,
      batchSize: 1,
      localConcurrency: 1,
      pollingIntervalSeconds,
      notifyPollingIntervalSeconds: pollingIntervalSeconds,
    },
    async (jobs: JobWithMetadata<Data>[]) => {
      try {
        // One job at a time: pg-boss keeps what the handler returns as the job's output.
        return await handler(jobs);
      } finally {
        fetchAgain();
      }
    },
  );
  // Not once the process is stopping: the next job stays in the queue for the next start.
  fetchAgain = () => {
    if (!queueStopping().aborted) boss.notifyWorker(worker);
  };
}

/**
 * Schedules the recurring jobs of `jobs` and starts this process's workers of each (decision 0149), as
 * each definition says. A schedule is one row per queue in pg-boss, shared by every server: registering it
 * again from each start changes nothing, and pg-boss sends each occurrence once.
 */
export async function startJobWorkers<Settings>(
  jobs: readonly AnyJob<Settings>[],
  settings: Settings,
): Promise<void> {
  const boss = jobQueue();
  for (const job of jobs) {
    if (job.schedule) {
      const { cron, tz, data = {}, missed } = job.schedule;
      await boss.schedule(
        job.name,
        typeof cron === "function" ? cron() : cron,
        data,
        missed ? { tz, missed } : { tz },
      );
    }
    const workers = job.workers?.(settings) ?? 1;
    const handler = (jobs: JobWithMetadata<object>[]) => job.handler(jobs, settings);
    for (let worker = 0; worker < workers; worker++) {
      if (job.backlog) {
        await workThrough(boss, job.name, job.pollingIntervalSeconds ?? 2, handler);
      } else {
        const polling = job.pollingIntervalSeconds;
        await boss.work(
          job.name,
          {
            includeMetadata: true,
            ...(polling === undefined
              ? {}
              : { pollingIntervalSeconds: polling, notifyPollingIntervalSeconds: polling }),
          },
          handler,
        );
      }
    }
  }
}
