import { and, asc, count, gt, isNull, sum } from "drizzle-orm";
import { db } from "../db/client.server";
import {
  blogNewsletterSubscribers,
  bookings,
  contactMessages,
  galleries,
  invoices,
  orders,
  voucherUses,
  vouchers,
} from "../db/schema";
import type { ErasedMoney, ErasedSince } from "~/lib/backups";

/** How many invoice numbers the confirmation lists; beyond, it says how many in all. */
const DOCUMENTS_LISTED = 20;

/**
 * The money that moved after `since` (decision 0207): the orders paid, the invoices and credit notes
 * issued (their first numbers), the vouchers sold (issued) and the voucher uses not given back.
 */
async function moneySince(since: Date): Promise<ErasedMoney> {
  const [paid, documentCount, documents, sold, used] = await Promise.all([
    db()
      .select({ value: count(), cents: sum(orders.amountCents).mapWith(Number) })
      .from(orders)
      .where(gt(orders.paidAt, since)),
    db().select({ value: count() }).from(invoices).where(gt(invoices.issuedAt, since)),
    db()
      .select({ number: invoices.number })
      .from(invoices)
      .where(gt(invoices.issuedAt, since))
      .orderBy(asc(invoices.issuedAt), asc(invoices.number))
      .limit(DOCUMENTS_LISTED),
    db().select({ value: count() }).from(vouchers).where(gt(vouchers.issuedAt, since)),
    db()
      .select({ value: count() })
      .from(voucherUses)
      .where(and(gt(voucherUses.at, since), isNull(voucherUses.cancelledAt))),
  ]);
  return {
    payments: paid[0]?.value ?? 0,
    paymentsCents: paid[0]?.cents ?? 0,
    documentCount: documentCount[0]?.value ?? 0,
    documents: documents.map((row) => row.number),
    vouchersSold: sold[0]?.value ?? 0,
    voucherUses: used[0]?.value ?? 0,
  };
}

/**
 * The bookings, client galleries, messages and subscribers made since a backup (their creation after its
 * date), which a restore of it erases (decision 0128), and the money that moved since (decision 0207): the
 * owner reads them before typing the word.
 */
export async function erasedSince(since: Date): Promise<ErasedSince> {
  const counted = async (query: Promise<Array<{ value: number }>>) => (await query)[0]?.value ?? 0;
  const [bookingCount, galleryCount, messageCount, subscriberCount, clients, money] =
    await Promise.all([
      counted(db().select({ value: count() }).from(bookings).where(gt(bookings.createdAt, since))),
      counted(
        db().select({ value: count() }).from(galleries).where(gt(galleries.createdAt, since)),
      ),
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
      moneySince(since),
    ]);
  return {
    bookings: bookingCount,
    galleries: galleryCount,
    messages: messageCount,
    subscribers: subscriberCount,
    clients: clients.map((client) => ({ ...client, startsAt: client.startsAt.toISOString() })),
    money,
  };
}
