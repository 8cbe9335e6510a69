import { log } from "../logger.server";
import { mailJobHandler } from "../mail/outbox.server";
import { mailConfig, type MailConfig } from "../mail/transport.server";
import { newsletterJobHandler } from "../newsletter/sending.server";
import { publishDueArticles } from "../scheduled-publishing.server";
import { jobQueue } from "./queue.server";

/**
 * The workers of this process: scheduled publishing always; e-mail only with SMTP_URL (without it, e-mail
 * jobs wait in the queue until a process that has it starts).
 */
export async function startWorkers({
  mail = mailConfig(),
}: { mail?: MailConfig | null } = {}): Promise<void> {
  const boss = jobQueue();
  await boss.schedule("publish", "* * * * *", {}, { tz: "Europe/Paris" });
  // A publication job waits for its time (startAfter): NOTIFY wakes workers when a job is created, not
  // when it falls due, so the worker looks every 5 s instead of pg-boss's 30 s backstop with NOTIFY.
  await boss.work(
    "publish",
    { pollingIntervalSeconds: 5, notifyPollingIntervalSeconds: 5 },
    async () => {
      await publishDueArticles();
    },
  );
  if (!mail) {
    log.warn("mail_disabled", { reason: "SMTP_URL is not set: e-mails wait in the queue" });
    return;
  }
  await boss.work(
    "mail",
    { includeMetadata: true, batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 5 },
    mailJobHandler(mail),
  );
  await boss.work(
    "newsletter",
    { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: 2 },
    newsletterJobHandler(mail),
  );
}
