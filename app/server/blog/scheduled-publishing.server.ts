import { sql } from "drizzle-orm";
import { now } from "../clock.server";
import { db } from "../db/client.server";
import { defineJob, RETRIES_FOR_A_DAY, type Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { createSending, type CreateSendingOutcome } from "../newsletter/sending.server";

/*
 * Scheduled publishing: a draft with `scheduled_at` is published by the job queue at that time (a job
 * created for that moment, and a sweep every minute as a net for a job lost or a time changed), and its
 * newsletter leaves in the same transaction when the owner asked for one. Publishing raises the content
 * version (triggers), so the blog, the feed and the sitemap show it at once.
 */

/**
 * Publishes every draft whose time has come, dated from its scheduled time; returns their ids. Safe to run
 * at any time and concurrently: a draft being published by another sweep (or saved by the owner) is
 * skipped, not waited for, and the next sweep sees it. A draft whose autosave emptied its excerpt or its
 * content waits: it could not be published from the form either. Due by the database's clock (the one the
 * queue's job for that time ran by) or the server's (which a test moves on, decision 0146).
 */
export async function publishDueArticles(): Promise<string[]> {
  return db().transaction(async (tx) => {
    const due = await tx.execute<{ id: string; newsletter_on_publish: boolean }>(sql`
      with due as (
        select id from blog_articles
        where scheduled_at <= greatest(now(), ${now().toISOString()}::timestamptz)
          and not published and excerpt <> '' and content <> ''
        order by scheduled_at, id
        for update skip locked
      )
      update blog_articles article
      set published = true, published_at = article.scheduled_at, scheduled_at = null,
        updated_at = now()
      from due where article.id = due.id
      returning article.id, article.newsletter_on_publish
    `);
    for (const article of due.rows) {
      log.info("article_published_on_schedule", { articleId: article.id });
      await sendIfAsked(
        { id: article.id, newsletterOnPublish: article.newsletter_on_publish },
        null,
        tx,
      );
    }
    return due.rows.map((row) => row.id);
  });
}

/**
 * The queue `publish`: publishes the articles whose scheduled time has come, at that time (a job per
 * publication) and every minute as a net. A publication's job becomes due at its time, which nothing
 * announces: looked for every 5 s (pg-boss would wait 30 s under NOTIFY).
 */
export const publishJob = defineJob({
  name: "publish",
  policy: {
    ...RETRIES_FOR_A_DAY,
    retryDelay: 10,
    retryDelayMax: 5 * 60,
    notify: true,
    expireInSeconds: 5 * 60,
    retentionSeconds: 366 * 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  schedule: { cron: "* * * * *", tz: "Europe/Paris" },
  pollingIntervalSeconds: 5,
  handler: async () => {
    await publishDueArticles();
  },
});

/** Asks the queue to publish at `at` (call it with the transaction that stores `scheduled_at`). */
export async function enqueuePublication(at: Date, tx?: Executor): Promise<void> {
  await publishJob.send({}, { startAfter: at, tx });
}

/**
 * The newsletter of an article just published, when the owner asked for one (« Envoyer l'article aux
 * abonnés à la publication »), in the publishing transaction `tx`; null when she did not. Never twice:
 * createSending keeps one sending per article.
 */
export async function sendIfAsked(
  article: { id: string; newsletterOnPublish: boolean },
  createdBy: string | null,
  tx: Executor,
): Promise<CreateSendingOutcome | null> {
  if (!article.newsletterOnPublish) return null;
  const outcome = await createSending({ articleId: article.id, createdBy }, tx);
  log.info("newsletter_on_publication", { articleId: article.id, outcome: outcome.kind });
  return outcome;
}
