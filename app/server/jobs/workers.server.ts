import type { JobWithMetadata } from "pg-boss";
import { log } from "../logger.server";
import { mailJobHandler } from "../mail/outbox.server";
import { mailConfig, type MailConfig } from "../mail/transport.server";
import { newsletterJobHandler, type NewsletterBatchJob } from "../newsletter/sending.server";
import { publishDueArticles } from "../scheduled-publishing.server";
import { jobQueue, queueStopping } from "./queue.server";

/**
 * The workers of this process: scheduled publishing always; e-mail only with SMTP_URL (without it, e-mail
 * jobs wait in the queue until a process that has it starts).
 */
export async function startWorkers({
  mail = mailConfig(),
}: { mail?: MailConfig | null } = {}): Promise<void> {
  const boss = jobQueue();
  await boss.schedule("publish", "* * * * *", {}, { tz: "Europe/Paris" });
  await boss.work("publish", { pollingIntervalSeconds: 5 }, async () => {
    await publishDueArticles();
  });
  if (!mail) {
    log.warn("mail_disabled", { reason: "SMTP_URL is not set: e-mails wait in the queue" });
    return;
  }
  await boss.work(
    "mail",
    { includeMetadata: true, batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 5 },
    mailJobHandler(mail),
  );
  const sendBatch = newsletterJobHandler(mail);
  // Set once work() has answered with the worker's id (before any batch can end: a batch needs a fetch).
  let fetchNextBatch = () => {};
  const newsletterWorker = await boss.work(
    "newsletter",
    {
      includeMetadata: true,
      batchSize: 1,
      pollingIntervalSeconds: 2,
      // The queue's NOTIFY only announces new jobs: without this, a batch whose retry time has come (after
      // an SMTP failure, or a dead process's batch handed back) would wait pg-boss's 30 s for it.
      notifyPollingIntervalSeconds: 2,
    },
    async (jobs: JobWithMetadata<NewsletterBatchJob>[]) => {
      const stopping = queueStopping();
      try {
        // A batch ends at the next e-mail when the process stops (see queueStopping).
        await sendBatch(
          jobs.map((job) => ({ ...job, signal: AbortSignal.any([job.signal, stopping]) })),
        );
      } finally {
        // The next batch of a sending is already waiting, and nothing announces it: fetch it now rather
        // than after the polling interval (at a high MAIL_RATE_PER_MINUTE a batch lasts less than that).
        fetchNextBatch();
      }
    },
  );
  fetchNextBatch = () => boss.notifyWorker(newsletterWorker);
}
