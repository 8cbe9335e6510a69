import { and, eq, gte, isNull } from "drizzle-orm";
import { isoDayInParis } from "~/lib/dates";
import { parseVoucherCode } from "~/lib/vouchers/code";
import { now } from "../clock.server";
import type { SiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { sessionTypeStudios, sessionTypes, vouchers } from "../db/schema";

/*
 * Where the QR code printed on a voucher leads (`/bons-cadeaux?code=…`, decision 0197), whether vouchers
 * are on sale or not: a session voucher still usable to its session's booking page at a studio that takes
 * bookings online (its own, or the first in the site's order offering it), where the details form takes
 * its code; anything else (an amount, spent at the studio; a session not bookable online; a code that is
 * no usable voucher) to the studios' contacts.
 */

export const VOUCHER_CONTACT_PATH = "/contact";

/** The path the code leads to, and whether it is a voucher still usable (a guess is not). */
export async function voucherLinkTarget(
  typed: string,
  content: Pick<SiteContent, "studios">,
): Promise<{ path: string; usable: boolean }> {
  const parsed = parseVoucherCode(typed);
  if (!parsed.ok) return { path: VOUCHER_CONTACT_PATH, usable: false };
  const [voucher] = await db()
    .select()
    .from(vouchers)
    .where(
      and(
        eq(vouchers.code, parsed.code),
        eq(vouchers.status, "active"),
        gte(vouchers.expiresOn, isoDayInParis(now())),
      ),
    );
  if (!voucher) return { path: VOUCHER_CONTACT_PATH, usable: false };
  if (voucher.kind !== "session" || !voucher.sessionTypeId) {
    return { path: VOUCHER_CONTACT_PATH, usable: true };
  }
  const offered = await db()
    .select({
      studioId: sessionTypeStudios.studioId,
      slug: sessionTypes.slug,
      visibility: sessionTypes.visibility,
      privateToken: sessionTypes.privateToken,
    })
    .from(sessionTypes)
    .innerJoin(sessionTypeStudios, eq(sessionTypeStudios.sessionTypeId, sessionTypes.id))
    .where(and(eq(sessionTypes.id, voucher.sessionTypeId), isNull(sessionTypes.archivedAt)));
  const studio = content.studios.find(
    (candidate) =>
      candidate.data.onlineBooking &&
      (voucher.studioId === null || candidate.id === voucher.studioId) &&
      offered.some((row) => row.studioId === candidate.id),
  );
  const type = offered[0];
  if (!studio || !type) return { path: VOUCHER_CONTACT_PATH, usable: true };
  // A private session's page opens with its link's secret: the voucher's holder may book it.
  const secret =
    type.visibility === "private" && type.privateToken
      ? `?lien=${encodeURIComponent(type.privateToken)}`
      : "";
  return { path: `/reserver/${studio.slug}/${type.slug}${secret}`, usable: true };
}
