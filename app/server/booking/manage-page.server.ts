import { eq } from "drizzle-orm";
import { data } from "react-router";
import { studioDataSchema } from "~/content/schemas";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { isActive, isCalledOff } from "~/lib/booking/model";
import { bookingDaysPath } from "~/lib/booking/urls";
import { db } from "../db/client.server";
import { sessionTypes, studios } from "../db/schema";
import { findBookingByManageToken, type BookingRecord } from "./bookings.server";
import { voucherPaymentOfBooking, type VoucherPayment } from "./vouchers.server";

/*
 * The client's own page, /reservation/{jeton} (decision 0115): the token names one booking, anything else
 * (forged, malformed, of a booking erased by the retention) is the same 404, which says nothing of any
 * other booking.
 */

const HOUR = 3_600_000;

export type ManagedBooking = {
  booking: BookingRecord;
  type: {
    id: string;
    name: string;
    cutoffHours: number;
    privateToken: string | null;
    archived: boolean;
    priceText: string;
    includedText: string;
  };
  studio: {
    name: string;
    phone: string;
    address: { street: string; postalCode: string; city: string };
  };
  /**
   * Whether the client may still cancel or move it online (active, waiting for its deposit included,
   * before the cut-off).
   */
  changeable: boolean;
  /** Where to choose another time of the same session, once this one is refused, expired or cancelled. */
  rebookPath: string | null;
  /** The gift voucher paying it, or its deposit; null when none (decisions 0170 and 0199). */
  voucherPayment: VoucherPayment | null;
};

export async function managedBooking(
  token: string | undefined,
  now = new Date(),
): Promise<ManagedBooking> {
  const booking = await findBookingByManageToken(token);
  if (!booking) throw data(null, NOT_FOUND_INIT);
  const [row] = await db()
    .select({
      name: sessionTypes.name,
      priceText: sessionTypes.priceText,
      includedText: sessionTypes.includedText,
      cutoffHours: sessionTypes.cancellationCutoffHours,
      privateToken: sessionTypes.privateToken,
      archivedAt: sessionTypes.archivedAt,
      typeSlug: sessionTypes.slug,
      studioSlug: studios.slug,
      studioData: studios.data,
    })
    .from(sessionTypes)
    .innerJoin(studios, eq(studios.id, booking.studioId))
    .where(eq(sessionTypes.id, booking.sessionTypeId));
  if (!row) throw data(null, NOT_FOUND_INIT);
  const studio = studioDataSchema.safeParse(row.studioData);
  return {
    booking,
    type: {
      id: booking.sessionTypeId,
      name: row.name,
      priceText: row.priceText,
      includedText: row.includedText,
      cutoffHours: row.cutoffHours,
      privateToken: row.privateToken,
      archived: row.archivedAt !== null,
    },
    studio: studio.success
      ? { name: studio.data.name, phone: studio.data.phone, address: studio.data.address }
      : { name: "Studio", phone: "", address: { street: "", postalCode: "", city: "" } },
    changeable:
      isActive(booking.state) &&
      now.getTime() <= booking.startsAt.getTime() - row.cutoffHours * HOUR,
    rebookPath:
      isCalledOff(booking.state) && row.archivedAt === null
        ? bookingDaysPath(row.studioSlug, row.typeSlug, { lien: row.privateToken })
        : null,
    voucherPayment: await voucherPaymentOfBooking(booking.id),
  };
}
