import { purgeOldBookings } from "../booking/retention.server";
import { purgeOldContactMessages } from "../contact/contact-messages.server";
import { db, type Database } from "../db/client.server";
import { purgeForgottenGalleryClients } from "../galleries/retention.server";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";
import { purgeOldMailFailures } from "../mail/failures.server";
import { purgeInactiveSubscribers, purgeUnconfirmedSignUps } from "../newsletter/retention.server";
import { purgeExpiredRateLimits } from "../rate-limit.server";

/**
 * The personal data each feature forgets once its time is over (SPEC §9: 18 months after the person's
 * last activity; decision 0151). Each purge is its feature's, answers how many rows it removed and is safe
 * to run again. A new one: its feature's module and one line here.
 */
export const PERSONAL_DATA_PURGES = {
  messages: purgeOldContactMessages,
  subscribers: purgeInactiveSubscribers,
  unconfirmed: purgeUnconfirmedSignUps,
  galleries: purgeForgottenGalleryClients,
  bookings: purgeOldBookings,
  rateLimits: purgeExpiredRateLimits,
  mailFailures: purgeOldMailFailures,
} satisfies Record<string, (database: Database) => Promise<number>>;

export type PurgeReport = Record<keyof typeof PERSONAL_DATA_PURGES, number>;

/**
 * Runs every purge; one that fails does not keep the others from running, and the run then fails (its job
 * is retried). Returns what each removed.
 */
export async function purgeExpiredPersonalData(database: Database): Promise<PurgeReport> {
  const removed = {} as PurgeReport;
  const failed: string[] = [];
  for (const [name, purge] of Object.entries(PERSONAL_DATA_PURGES)) {
    const key = name as keyof PurgeReport;
    try {
      removed[key] = await purge(database);
    } catch (error) {
      removed[key] = 0;
      failed.push(name);
      log.error("retention_purge_failed", { purge: name, error });
    }
  }
  if (Object.values(removed).some(Boolean)) log.info("retention_purge", removed);
  if (failed.length > 0) throw new Error(`Purge des données personnelles incomplète : ${failed}`);
  return removed;
}

/**
 * The queue `personal-data-purge`: every purge once a night at 04:15 Paris time (after the galleries'
 * retention at 03:30), once across every server: pg-boss sends each occurrence of the one shared schedule
 * once, and `singleton` runs one at a time. A night missed while no server ran is caught up at the next
 * start (`missed: once`).
 */
export const personalDataPurgeJob = defineJob({
  name: "personal-data-purge",
  policy: {
    retryLimit: 2,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 60 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "15 4 * * *", tz: "Europe/Paris", missed: "once" },
  handler: async () => {
    await purgeExpiredPersonalData(db());
  },
});
