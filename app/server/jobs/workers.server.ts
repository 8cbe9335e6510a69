import type { JobWithMetadata, PgBoss } from "pg-boss";
import { importExternalCalendars } from "../booking/external-busy.server";
import { expireLapsedRequests } from "../booking/bookings.server";
import { sendDueReminders } from "../booking/reminders.server";
import { env } from "../env.server";
import { handlePhotoJobs } from "../galleries/processing.server";
import { runGalleryRetention } from "../galleries/retention.server";
import { log } from "../logger.server";
import "../mail/kinds.server";
import { mailJobHandler, type MailJob } from "../mail/outbox.server";
import { mailConfig, type MailConfig } from "../mail/transport.server";
import { newsletterJobHandler, type NewsletterBatchJob } from "../newsletter/sending.server";
import { publishDueArticles } from "../scheduled-publishing.server";
import {
  backupSettings,
  type BackupJob,
  runBackupJob,
  watchBackups,
} from "../backup/service.server";
import { sendMonthlyBackupLinks } from "../backup/monthly-link.server";
import { jobQueue, queueStopping, type PhotoJob, type QueueName } from "./queue.server";

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
  queue: QueueName,
  pollingIntervalSeconds: number,
  handler: (jobs: JobWithMetadata<Data>[]) => Promise<void>,
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
        await handler(jobs);
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
 * The workers of this process: scheduled publishing always; gallery photos when PHOTO_WORKERS > 0 (one
 * queue worker per thread of the photo pool, decision 0102); e-mail only with SMTP_URL (without it, e-mail
 * jobs wait in the queue until a process that has it starts).
 */
export async function startWorkers({
  mail = mailConfig(),
  photoWorkers = env().PHOTO_WORKERS,
}: { mail?: MailConfig | null; photoWorkers?: number } = {}): Promise<void> {
  const boss = jobQueue();
  await boss.schedule("publish", "* * * * *", {}, { tz: "Europe/Paris" });
  // A publication's job becomes due at its time, which nothing announces: looked for every 5 s (pg-boss
  // would wait 30 s under NOTIFY).
  const poll = { pollingIntervalSeconds: 5, notifyPollingIntervalSeconds: 5 };
  await boss.work("publish", poll, async () => {
    await publishDueArticles();
  });
  // Photos whose retry time has come are looked for every 10 s.
  for (let worker = 0; worker < photoWorkers; worker++) {
    await workThrough<PhotoJob>(boss, "photos", 10, handlePhotoJobs);
  }
  // The galleries' retention (decision 0105), once a day at night.
  await boss.schedule("gallery-retention", "30 3 * * *", {}, { tz: "Europe/Paris" });
  await boss.work("gallery-retention", async () => {
    await runGalleryRetention();
  });
  // Backups (decision 0117): nightly, and when the owner asks; one at a time across every server.
  await boss.schedule(
    "backup",
    `0 ${backupSettings().hour} * * *`,
    { reason: "schedule" },
    {
      tz: "Europe/Paris",
    },
  );
  await boss.work<BackupJob>("backup", async ([job]) => {
    if (job) await runBackupJob(job.data);
  });
  // Every 5 minutes: runs whose server died are closed, a night without a backup is e-mailed (once a day).
  await boss.schedule("backup-watch", "*/5 * * * *", {}, { tz: "Europe/Paris" });
  await boss.work("backup-watch", async () => {
    await watchBackups();
  });
  // The monthly download link of the latest backup (decision 0139): looked at each day at 10 h, sent once
  // a month to each administrator who asked.
  await boss.schedule("backup-link", "0 10 * * *", {}, { tz: "Europe/Paris" });
  await boss.work("backup-link", async () => {
    await sendMonthlyBackupLinks();
  });
  // Booking reminders 48 h and 2 h before (decision 0115), and the requests left unanswered past their
  // deadline: every 5 minutes, each once.
  await boss.schedule("booking-reminders", "*/5 * * * *", {}, { tz: "Europe/Paris" });
  await boss.work("booking-reminders", async () => {
    await expireLapsedRequests();
    await sendDueReminders();
  });
  // The photographers' own calendars, every 15 minutes (decision 0116).
  await boss.schedule("booking-busy-import", "*/15 * * * *", {}, { tz: "Europe/Paris" });
  await boss.work("booking-busy-import", async () => {
    await importExternalCalendars();
  });
  if (!mail) {
    log.warn("mail_disabled", { reason: "SMTP_URL is not set: e-mails wait in the queue" });
    return;
  }
  // Two e-mails at a time (the transport's pool has two connections).
  const sendMail = mailJobHandler(mail);
  for (let worker = 0; worker < 2; worker++) {
    await workThrough<MailJob>(boss, "mail", 5, sendMail);
  }
  const sendBatch = newsletterJobHandler(mail);
  await workThrough<NewsletterBatchJob>(boss, "newsletter", 2, (jobs) => {
    // A batch ends at the next e-mail when the process stops (see queueStopping).
    const stopping = queueStopping();
    return sendBatch(
      jobs.map((job) => ({ ...job, signal: AbortSignal.any([job.signal, stopping]) })),
    );
  });
}
