import type { PgBoss } from "pg-boss";
import { accountantMonthlyMailJob } from "../accounting/accountant-mail.server";
import { backupJob, backupLinkJob, backupWatchJob } from "../backup/jobs.server";
import { depositRefundJob, depositRequestJob } from "../booking/deposits.server";
import { bookingBusyImportJob, bookingRemindersJob } from "../booking/jobs.server";
import { env } from "../env.server";
import { photoOrderRefundJob } from "../galleries/photo-order-release.server";
import { photoJob } from "../galleries/processing.server";
import { galleryRetentionJob } from "../galleries/retention.server";
import { startJobQueue, type AnyJob } from "../jobs/queue.server";
import { startJobWorkers } from "../jobs/workers.server";
import { log } from "../logger.server";
import { mailJob, type AnyMailKind } from "../mail/outbox.server";
import { mailConfig, type MailConfig } from "../mail/transport.server";
import { newsletterJob } from "../newsletter/sending.server";
import { applyEventJob } from "../payments/inbox.server";
import { paymentExpiryJob, paymentReconciliationJob } from "../payments/jobs.server";
import { journalClosureJob } from "../payments/journal.server";
import { publishJob } from "../blog/scheduled-publishing.server";
import { voucherExpiryJob } from "../vouchers/lifecycle.server";
import { MAIL_KINDS } from "./mail-kinds.server";
import { personalDataPurgeJob } from "./personal-data-purge.server";

/** What a process tells its workers: each job's definition reads the part it needs. */
export type ProcessSettings = {
  /** The mail server (SMTP_URL); null: e-mail jobs wait in the queue for a process that has one. */
  mail: MailConfig | null;
  /** Threads of the photo pool (PHOTO_WORKERS): as many workers of `photos`, none when 0 (decision 0102). */
  photoWorkers: number;
  /** The kinds of e-mail the mail worker can write. */
  mailKinds: readonly AnyMailKind[];
};

/**
 * Every job of the site (decision 0149), each defined by its feature (defineJob): the queues are made from
 * this list and each process starts its workers from it. A new job: its feature's module and one line here.
 * Queue names and options never change under jobs already in a database (the upgrade test starts on an
 * older release's).
 */
export const SITE_JOBS: readonly AnyJob<ProcessSettings>[] = [
  publishJob,
  photoJob,
  galleryRetentionJob,
  backupJob,
  backupWatchJob,
  backupLinkJob,
  bookingRemindersJob,
  bookingBusyImportJob,
  personalDataPurgeJob,
  mailJob,
  newsletterJob,
  applyEventJob,
  paymentExpiryJob,
  paymentReconciliationJob,
  journalClosureJob,
  voucherExpiryJob,
  accountantMonthlyMailJob,
  depositRefundJob,
  depositRequestJob,
  photoOrderRefundJob,
];

/** Starts this process's job queue, with every queue of SITE_JOBS (decision 0080). */
export function startSiteJobQueue(databaseUrl: string): Promise<PgBoss> {
  return startJobQueue(databaseUrl, SITE_JOBS);
}

/**
 * The schedules and this process's workers of every job: e-mail only with SMTP_URL, gallery photos when
 * PHOTO_WORKERS > 0. Tests give their own mail server or none.
 */
export async function startWorkers({
  mail = mailConfig(),
  photoWorkers = env().PHOTO_WORKERS,
  mailKinds = MAIL_KINDS,
}: Partial<ProcessSettings> = {}): Promise<void> {
  await startJobWorkers(SITE_JOBS, { mail, photoWorkers, mailKinds });
  if (!mail)
    log.warn("mail_disabled", { reason: "SMTP_URL is not set: e-mails wait in the queue" });
}
