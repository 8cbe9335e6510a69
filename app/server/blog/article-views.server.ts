import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { outsideRequest } from "../db/query-stats.server";
import { blogArticles } from "../db/schema";
import { log } from "../logger.server";

/**
 * Article views, counted in memory and written once a second in one statement, instead of one UPDATE of
 * the same hot row per visit: under load, those UPDATEs queued on the row's lock and held pool connections
 * that page renders needed. A crash loses at most the last second of views (an indicative counter);
 * a shutdown writes them first (`flushArticleViews` in the server's stop sequence).
 */

const FLUSH_INTERVAL_MS = 1_000;

let pending = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<void> = Promise.resolve();

/** Counts one view of the published article `id`; written within a second. */
export function countArticleView(id: string): void {
  pending.set(id, (pending.get(id) ?? 0) + 1);
  // Created outside the request so that the writes are not charged to whichever page came first.
  timer ??= outsideRequest(() => setTimeout(() => void flushArticleViews(), FLUSH_INTERVAL_MS));
}

/** Writes the views counted so far; resolves once they are stored (or logged as lost). */
export function flushArticleViews(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  const batch = pending;
  pending = new Map();
  flushing = flushing.then(() => (batch.size > 0 ? write(batch) : undefined));
  return flushing;
}

async function write(batch: Map<string, number>): Promise<void> {
  const rows = [...batch].map(([id, count]) => sql`(${id}::uuid, ${count}::integer)`);
  try {
    await outsideRequest(() =>
      db().execute(sql`
        update ${blogArticles} set view_count = ${blogArticles.viewCount} + views.count
        from (values ${sql.join(rows, sql`, `)}) as views (id, count)
        where ${blogArticles.id} = views.id and ${blogArticles.published}`),
    );
  } catch (error) {
    const views = [...batch.values()].reduce((sum, count) => sum + count, 0);
    log.warn("article_views_not_counted", { error, views });
  }
}
