import { eq, sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { bookings } from "../db/schema";

/*
 * What a booking's state label needs beyond its state (`bookingStateLabel`, lib/booking/model.ts): whether
 * its deposit was awaited (decision 0186), and whether a card payment of it waits for the owner's decision
 * (decision 0172). The owner's agenda, list, booking page, export and calendar feed read them as columns of
 * their query; the client's page and e-mails per booking.
 */

/**
 * A column of the outer `bookings` row, named with its table: drizzle writes a column of a query on one
 * table bare (`"id"`), which inside the subqueries below would be the subquery's own (the count of the
 * list's filter read the history line's id).
 */
const bookingColumn = (name: "id" | "deposit_order_id") =>
  sql`${sql.identifier("bookings")}.${sql.identifier(name)}`;

/**
 * Its deposit was awaited: an order was made for it, or it lapsed waiting for one (its « expired » history
 * line says `unpaid`, as `releaseUnpaidBooking` writes it: a request accepted whose order's job had not run
 * when her window closed has no order). Expired, it reads « Non confirmée : paiement non reçu », never
 * « Demande expirée », which is a request left unanswered.
 */
export const depositAwaitedSql = sql<boolean>`(${bookingColumn("deposit_order_id")} is not null or exists (
  select 1 from booking_events lapse where lapse.booking_id = ${bookingColumn("id")}
    and lapse.kind = 'expired' and lapse.detail->>'unpaid' = 'true'))`;

/** A card payment of its deposit, taken for another total, waits for the owner (decision 0172). */
export const depositHeldSql = sql<boolean>`exists (
  select 1 from payment_attempts held where held.order_id = ${bookingColumn("deposit_order_id")}
    and held.status = 'held')`;

/** The same of one booking, as its row reads it. */
export async function depositAwaitedOf(
  booking: Pick<typeof bookings.$inferSelect, "id" | "state" | "depositOrderId">,
): Promise<boolean> {
  if (booking.depositOrderId !== null) return true;
  if (booking.state !== "expired") return false;
  const [row] = await db()
    .select({ awaited: depositAwaitedSql })
    .from(bookings)
    .where(eq(bookings.id, booking.id));
  return row?.awaited === true;
}
