import { sql } from "drizzle-orm";
import { db } from "./db/client.server";
import { enqueue, type Executor } from "./jobs/queue.server";
import { log } from "./logger.server";
import { createSending } from "./newsletter/sending.server";

/*
 * Scheduled publishing: a draft with `scheduled_at` is published by the job queue at that time (a job
 * created for that moment, and a sweep every minute as a net for a job lost or a time changed), and its
 * newsletter leaves in the same transaction when the owner asked for one. Publishing raises the content
 * version (triggers), so the blog, the feed and the sitemap show it at once.
 */

/** Publishes every draft whose time has come; returns their ids. Safe to run at any time, concurrently. */
export async function publishDueArticles(): Promise<string[]> {
  return db().transaction(async (tx) => {
    const due = await tx.execute<{ id: string; newsletter_on_publish: boolean }>(sql`
      update blog_articles
      set published = true, published_at = scheduled_at, scheduled_at = null, updated_at = now()
      where scheduled_at <= now() and not published
      returning id, newsletter_on_publish
    `);
    for (const article of due.rows) {
      log.info("article_published_on_schedule", { articleId: article.id });
      if (article.newsletter_on_publish) {
        const outcome = await createSending({ articleId: article.id, createdBy: null }, tx);
        log.info("scheduled_newsletter", { articleId: article.id, outcome: outcome.kind });
      }
    }
    return due.rows.map((row) => row.id);
  });
}

/** Asks the queue to publish at `at` (call it with the transaction that stores `scheduled_at`). */
export async function enqueuePublication(at: Date, tx?: Executor): Promise<void> {
  await enqueue("publish", {}, { startAfter: at, tx });
}
