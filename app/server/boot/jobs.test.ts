import { describe, expect, it } from "vitest";
import { SITE_JOBS } from "./jobs.server";

const DAY = 24 * 60 * 60;
const retries = { retryLimit: 60, retryDelay: 5, retryBackoff: true, retryDelayMax: 30 * 60 };

/*
 * The queues as the jobs already in a database know them (decision 0149): their names and options were
 * written before each job had its own definition, and must not move under them.
 */
const QUEUES_IN_DATABASES = {
  publish: {
    ...retries,
    retryDelay: 10,
    retryDelayMax: 5 * 60,
    notify: true,
    expireInSeconds: 5 * 60,
    retentionSeconds: 366 * DAY,
    deleteAfterSeconds: DAY,
  },
  photos: {
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    notify: true,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 30,
    retentionSeconds: 30 * DAY,
    deleteAfterSeconds: DAY,
  },
  "gallery-retention": {
    retryLimit: 3,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 60 * 60,
    retentionSeconds: 7 * DAY,
    deleteAfterSeconds: 7 * DAY,
  },
  backup: {
    retryLimit: 0,
    policy: "singleton",
    notify: true,
    expireInSeconds: 6 * 60 * 60,
    heartbeatSeconds: 60,
    retentionSeconds: DAY,
    deleteAfterSeconds: 7 * DAY,
  },
  "backup-watch": {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: DAY,
    deleteAfterSeconds: 7 * DAY,
  },
  "backup-link": {
    retryLimit: 1,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: DAY,
    deleteAfterSeconds: 7 * DAY,
  },
  "booking-reminders": {
    retryLimit: 1,
    retryDelay: 60,
    policy: "singleton",
    expireInSeconds: 5 * 60,
    retentionSeconds: DAY,
    deleteAfterSeconds: DAY,
  },
  "booking-busy-import": {
    retryLimit: 0,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 60 * 60,
    deleteAfterSeconds: 60 * 60,
  },
  mail: {
    ...retries,
    notify: true,
    expireInSeconds: 5 * 60,
    heartbeatSeconds: 10,
    retentionSeconds: 30 * DAY,
    deleteAfterSeconds: DAY,
  },
  newsletter: {
    ...retries,
    policy: "singleton",
    notify: true,
    expireInSeconds: 2 * 60 * 60,
    heartbeatSeconds: 10,
    retentionSeconds: 366 * DAY,
    deleteAfterSeconds: 7 * DAY,
  },
};

describe("the site's jobs", () => {
  it("keep the queues' names and options that the jobs already in a database were made with", () => {
    const queues = Object.fromEntries(SITE_JOBS.map((job) => [job.name, job.policy]));
    for (const [name, options] of Object.entries(QUEUES_IN_DATABASES)) {
      expect(queues[name], name).toEqual(options);
    }
  });

  it("are defined once each, every schedule in Paris time", () => {
    const names = SITE_JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const job of SITE_JOBS) if (job.schedule) expect(job.schedule.tz).toBe("Europe/Paris");
    expect(
      Object.fromEntries(
        SITE_JOBS.filter((job) => job.schedule).map((job) => {
          const cron = job.schedule?.cron;
          return [job.name, typeof cron === "function" ? cron() : cron];
        }),
      ),
    ).toEqual({
      publish: "* * * * *",
      "gallery-retention": "30 3 * * *",
      backup: "0 3 * * *",
      "backup-watch": "*/5 * * * *",
      "backup-link": "0 10 * * *",
      "booking-reminders": "*/5 * * * *",
      "booking-busy-import": "*/15 * * * *",
      "personal-data-purge": "15 4 * * *",
      "payments.expiry": "* * * * *",
      "payments.reconciliation": "*/15 * * * *",
      "payments.journal-closure": "10 0 * * *",
      "vouchers.expiry": "30 9 * * *",
      "accounting.monthly-mail": "0 7 1 * *",
    });
  });

  it("close the money journal's days once across every server, a missed night caught up", () => {
    const closure = SITE_JOBS.find((job) => job.name === "payments.journal-closure");
    expect(closure?.policy.policy).toBe("singleton");
    expect(closure?.schedule).toMatchObject({ cron: "10 0 * * *", missed: "once" });
    for (const name of ["payments.expiry", "payments.reconciliation"]) {
      expect(SITE_JOBS.find((job) => job.name === name)?.policy.policy, name).toBe("singleton");
    }
  });

  it("e-mail the accountant's files once a month across every server, a missed 1st caught up", () => {
    const monthly = SITE_JOBS.find((job) => job.name === "accounting.monthly-mail");
    expect(monthly?.policy.policy).toBe("singleton");
    expect(monthly?.schedule).toMatchObject({ cron: "0 7 1 * *", missed: "once" });
  });

  it("purge personal data once a night across every server: one scheduled, singleton job", () => {
    const purge = SITE_JOBS.find((job) => job.name === "personal-data-purge");
    expect(purge?.policy.policy).toBe("singleton");
    expect(purge?.schedule).toMatchObject({ cron: "15 4 * * *", missed: "once" });
  });
});
