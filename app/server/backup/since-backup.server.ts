import { asc, count, gt } from "drizzle-orm";
import { db } from "../db/client.server";
import { blogNewsletterSubscribers, bookings, contactMessages, galleries } from "../db/schema";
import type { ErasedSince } from "~/lib/backups";

/**
 * The bookings, client galleries, messages and subscribers made since a backup (their creation after its
 * date), which a restore of it erases (decision 0128): the owner reads them before typing the word.
 */
export async function erasedSince(since: Date): Promise<ErasedSince> {
  const counted = async (query: Promise<Array<{ value: number }>>) => (await query)[0]?.value ?? 0;
  const [bookingCount, galleryCount, messageCount, subscriberCount, clients] = await Promise.all([
    counted(db().select({ value: count() }).from(bookings).where(gt(bookings.createdAt, since))),
    counted(db().select({ value: count() }).from(galleries).where(gt(galleries.createdAt, since))),
    counted(
      db()
        .select({ value: count() })
        .from(contactMessages)
        .where(gt(contactMessages.createdAt, since)),
    ),
    counted(
      db()
        .select({ value: count() })
        .from(blogNewsletterSubscribers)
        .where(gt(blogNewsletterSubscribers.subscribedAt, since)),
    ),
    db()
      .select({
        name: bookings.clientName,
        phone: bookings.clientPhone,
        email: bookings.clientEmail,
        startsAt: bookings.startsAt,
      })
      .from(bookings)
      .where(gt(bookings.createdAt, since))
      .orderBy(asc(bookings.startsAt))
      .limit(200),
  ]);
  return {
    bookings: bookingCount,
    galleries: galleryCount,
    messages: messageCount,
    subscribers: subscriberCount,
    clients: clients.map((client) => ({ ...client, startsAt: client.startsAt.toISOString() })),
  };
}
