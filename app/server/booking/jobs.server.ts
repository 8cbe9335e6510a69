import { defineJob } from "../jobs/queue.server";
import { expireLapsedRequests } from "./bookings.server";
import { importExternalCalendars } from "./external-busy.server";
import { sendDueReminders } from "./reminders.server";

/*
 * Booking's recurring jobs (decisions 0115 and 0116), listed in boot/jobs.server.
 */

/**
 * The queue `booking-reminders`, every 5 minutes: the reminders 48 h and 2 h before (each once), and the
 * requests left unanswered past their deadline. `singleton`: one run at a time; a run that fails is simply
 * the next one's work (each reminder's row makes it once).
 */
export const bookingRemindersJob = defineJob({
  name: "booking-reminders",
  policy: {
    retryLimit: 1,
    retryDelay: 60,
    policy: "singleton",
    expireInSeconds: 5 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  schedule: { cron: "*/5 * * * *", tz: "Europe/Paris" },
  handler: async () => {
    await expireLapsedRequests();
    await sendDueReminders();
  },
});

/**
 * The queue `booking-busy-import`, every 15 minutes: the busy times of the photographers' own calendars
 * (decision 0116). `singleton`: one import at a time; a missed run is simply the next one.
 */
export const bookingBusyImportJob = defineJob({
  name: "booking-busy-import",
  policy: {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 60 * 60,
    deleteAfterSeconds: 60 * 60,
  },
  schedule: { cron: "*/15 * * * *", tz: "Europe/Paris" },
  handler: async () => {
    await importExternalCalendars();
  },
});
