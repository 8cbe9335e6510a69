import { sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { log } from "../logger.server";
import { purgeExpiredRateLimits } from "../rate-limit.server";
import { purgeOldMailFailures } from "../mail/failures.server";
import { CONFIRMATION_LIFETIME_DAYS } from "../newsletter/links.server";

/** SPEC §9: personal data is kept 18 months after the person's last activity. */
export const RETENTION_MONTHS = 18;

/**
 * Deletes contact messages and newsletter subscribers whose last activity is older than the retention
 * period. A message's last activity is when it was handled, else when it was sent.
 */
export async function purgeExpiredPersonalData(database: Database): Promise<{
  messages: number;
  subscribers: number;
  unconfirmed: number;
  galleries: number;
  bookings: number;
}> {
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
  // Client galleries (decision 0105) are deleted long before, at their purge date; the net: one untouched
  // for 18 months (client's last visit, else its last edit) forgets who the client is and what they wrote.
  const galleries = await database.execute(
    sql`update galleries set client_name = 'Client', client_email = 'client@invalid', updated_at = now()
        where coalesce(last_client_activity_at, updated_at) < ${cutoff}
        and client_email <> 'client@invalid'`,
  );
  await database.execute(
    sql`update gallery_photos set favourite_comment = null
        where favourite_comment is not null and gallery_id in (
          select id from galleries where client_email = 'client@invalid')`,
  );
  // Bookings (decision 0115): erased with their history, occupancies and reminders 18 months
  // after the session (or its last change, whichever is later). A session still to come is never erased.
  const erasedBookings = await database.execute(
    sql`delete from bookings where greatest(ends_at, updated_at) < ${cutoff}`,
  );
  return {
    bookings: erasedBookings.rowCount ?? 0,
    messages: messages.rowCount ?? 0,
    subscribers: subscribers.rowCount ?? 0,
    unconfirmed: unconfirmed.rowCount ?? 0,
    galleries: galleries.rowCount ?? 0,
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
      if (
        removed.messages ||
        removed.subscribers ||
        removed.unconfirmed ||
        removed.galleries ||
        removed.bookings
      ) {
        log.info("retention_purge", removed);
      }
      await purgeExpiredRateLimits();
      await purgeOldMailFailures();
    } catch (error) {
      log.error("retention_purge_failed", { error });
    }
  };
  void run();
  const timer = setInterval(() => void run(), DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
