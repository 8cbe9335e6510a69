import { sql } from "drizzle-orm";
import { RETENTION_MONTHS } from "~/lib/retention";
import type { Database } from "../db/client.server";
import { CONFIRMATION_LIFETIME_DAYS } from "~/lib/newsletter-links";

/*
 * The newsletter's parts of the nightly personal-data purge (boot/personal-data-purge.server).
 */

/**
 * Deletes the subscribers whose last activity is older than the retention period, then forgets what the
 * mail servers answered about the people gone (their sendings stay counted, without the text). Returns how
 * many subscribers were deleted.
 */
export async function purgeInactiveSubscribers(database: Database): Promise<number> {
  const deleted = await database.execute(
    sql`delete from blog_newsletter_subscribers
        where last_activity_at < now() - make_interval(months => ${RETENTION_MONTHS})`,
  );
  await database.execute(
    sql`update newsletter_deliveries set error = null where subscriber_id is null and error is not null`,
  );
  return deleted.rowCount ?? 0;
}

/** Forgets the sign-ups never confirmed once their link has expired; returns how many. */
export async function purgeUnconfirmedSignUps(database: Database): Promise<number> {
  const deleted = await database.execute(
    sql`delete from blog_newsletter_subscribers where status = 'pending'
        and coalesce(confirmation_sent_at, subscribed_at) < now() - make_interval(days => ${CONFIRMATION_LIFETIME_DAYS})`,
  );
  return deleted.rowCount ?? 0;
}
