import { sql } from "drizzle-orm";
import { RETENTION_MONTHS } from "~/lib/retention";
import type { Database } from "../db/client.server";

/**
 * Booking's part of the nightly personal-data purge (boot/personal-data-purge.server, decision 0115):
 * bookings erased with their history, occupancies and reminders 18 months after the session (or its last
 * change, whichever is later). A session still to come is never erased. Returns how many were erased.
 */
export async function purgeOldBookings(database: Database): Promise<number> {
  const erased = await database.execute(
    sql`delete from bookings
        where greatest(ends_at, updated_at) < now() - make_interval(months => ${RETENTION_MONTHS})`,
  );
  return erased.rowCount ?? 0;
}
