import { defineJob } from "../jobs/queue.server";
import { sendMonthlyBackupLinks } from "./monthly-link.server";
import { backupSettings, type BackupJob, runBackupJob, watchBackups } from "./service.server";

/*
 * The backups' jobs (decisions 0117, 0118, 0139), listed in boot/jobs.server.
 */

/**
 * The queue `backup`: nightly at BACKUP_HOUR, Paris time, and the owner's requests (« Sauvegarder
 * maintenant », a check, a restore). `singleton`: one at a time across every server. Not retried: a failure
 * is recorded and e-mailed, the next night tries again, the owner can too.
 */
export const backupJob = defineJob<BackupJob>({
  name: "backup",
  policy: {
    retryLimit: 0,
    policy: "singleton",
    notify: true,
    expireInSeconds: 6 * 60 * 60,
    heartbeatSeconds: 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: {
    cron: () => `0 ${backupSettings().hour} * * *`,
    tz: "Europe/Paris",
    data: { reason: "schedule" },
  },
  handler: async ([job]) => {
    if (job) await runBackupJob(job.data);
  },
});

/**
 * The queue `backup-watch`, every 5 minutes: runs whose server died are closed, and none done for 26 hours
 * (the server was down at night, the job never ran) is e-mailed once a day. A failed look is the next one's.
 */
export const backupWatchJob = defineJob({
  name: "backup-watch",
  policy: {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "*/5 * * * *", tz: "Europe/Paris" },
  handler: async () => {
    await watchBackups();
  },
});

/**
 * The queue `backup-link`: the latest backup's download link, e-mailed once a month to the administrators
 * who asked (decision 0139); looked at daily at 10 h, so a month whose first days the server was down still
 * gets its e-mail.
 */
export const backupLinkJob = defineJob({
  name: "backup-link",
  policy: {
    retryLimit: 1,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "0 10 * * *", tz: "Europe/Paris" },
  handler: async () => {
    await sendMonthlyBackupLinks();
  },
});
