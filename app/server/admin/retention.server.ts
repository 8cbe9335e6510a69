import { sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { log } from "../logger.server";
import { purgeExpiredRateLimits } from "../rate-limit.server";
import { purgeOldMailFailures } from "../mail/failures.server";
import { CONFIRMATION_LIFETIME_DAYS } from "../newsletter/links.server";
import { purgeGalleries } from "../galleries/retention.server";

/** SPEC §9: personal data is kept 18 months after the person's last activity. */
export const RETENTION_MONTHS = 18;

/**
 * Deletes contact messages and newsletter subscribers whose last activity is older than the retention
 * period. A message's last activity is when it was handled, else when it was sent.
 */
export async function purgeExpiredPersonalData(
  database: Database,
): Promise<{ messages: number; subscribers: number; unconfirmed: number }> {
  const cutoff = sql`now() - make_interval(months => ${RETENTION_MONTHS})`;
  const messages = await database.execute(
    sql`delete from contact_messages where coalesce(handled_at, created_at) < ${cutoff}`,
  );
  const subscribers = await database.execute(
    sql`delete from blog_newsletter_subscribers where last_activity_at < ${cutoff}`,
  );
  // What the mail servers answered about the people gone (their sendings stay counted, without the text).
  await database.execute(
    sql`update newsletter_deliveries set error = null where subscriber_id is null and error is not null`,
  );
  // A sign-up never confirmed is forgotten once its link has expired.
  const unconfirmed = await database.execute(
    sql`delete from blog_newsletter_subscribers where status = 'pending'
        and coalesce(confirmation_sent_at, subscribed_at) < now() - make_interval(days => ${CONFIRMATION_LIFETIME_DAYS})`,
  );
  return {
    messages: messages.rowCount ?? 0,
    subscribers: subscribers.rowCount ?? 0,
    unconfirmed: unconfirmed.rowCount ?? 0,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Runs the purges now and then once a day; the timer does not keep the process alive. Expired rate-limit
 * windows go too: their keys hold client addresses, which need no keeping once the window is over.
 */
export function startRetentionJob(database: Database): () => void {
  const run = async () => {
    try {
      const removed = await purgeExpiredPersonalData(database);
      if (removed.messages || removed.subscribers || removed.unconfirmed) {
        log.info("retention_purge", removed);
      }
      await purgeExpiredRateLimits();
      await purgeOldMailFailures();
      // Client galleries at their purge date, stale uploads, inactive clients (decision 0105).
      const galleries = await purgeGalleries(RETENTION_MONTHS);
      if (galleries.galleriesDeleted || galleries.uploadsAborted || galleries.clientsForgotten) {
        log.info("retention_galleries", galleries);
      }
    } catch (error) {
      log.error("retention_purge_failed", { error });
    }
  };
  void run();
  const timer = setInterval(() => void run(), DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
