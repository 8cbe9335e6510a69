import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { queueReminderMail, type ReminderKind } from "./emails.server";

/*
 * Reminders 48 h and 2 h before a confirmed session (decision 0115), from a job every 5 minutes
 * (booking/jobs.server.ts). Each reminder is a row of `booking_reminders` (booking, kind, start) written in
 * the same transaction as its e-mail's job: a second run, or a second process, finds the row and queues
 * nothing, so none leaves twice; the e-mail itself checks, when it leaves, that the booking is still on at
 * that time. A booking made or moved inside the window has just had its own e-mail: no reminder for it, nor
 * for one whose client the site never writes to (decision 0138).
 */

const REMINDERS: readonly { kind: ReminderKind; hours: number; until: number }[] = [
  // 48 h before, until the 2 h reminder takes over.
  { kind: "48h", hours: 48, until: 2 },
  { kind: "2h", hours: 2, until: 0 },
];

/** Queues the reminders due at `now`; returns how many were queued. */
export async function sendDueReminders(now = new Date()): Promise<number> {
  let queued = 0;
  for (const { kind, hours, until } of REMINDERS) {
    queued += await db().transaction(async (tx) => {
      const due = await tx.execute<{ booking_id: string; starts_at: Date | string }>(sql`
        insert into booking_reminders (booking_id, kind, starts_at)
        select id, ${kind}, starts_at from bookings
        where state = 'confirmed' and client_mail
          and starts_at > ${now.toISOString()}::timestamptz + make_interval(hours => ${until})
          and starts_at <= ${now.toISOString()}::timestamptz + make_interval(hours => ${hours})
          and updated_at < starts_at - make_interval(hours => ${hours})
        on conflict do nothing
        returning booking_id, starts_at`);
      for (const row of due.rows) {
        await queueReminderMail(tx, row.booking_id, kind, new Date(row.starts_at));
      }
      return due.rows.length;
    });
  }
  return queued;
}
