import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { SEED_AUTHOR } from "./ensure-seed.server";
import { bookingStudioPath } from "~/lib/booking/urls";
import { missingForOnlineBooking, type BookingFacts } from "./go-live.server";

type StudioRow = { studio_id: string; session_types: number; photographers: number };
type DemoRow = { name: string; reviewed: boolean };

/**
 * What the go-live checklist and the studio form know of online booking: per studio, its public session
 * types and active photographers (decision 0127's guard-rail); and the demo's session types still offered,
 * each reviewed once someone other than the seed saved it (decision 0126).
 */
export async function bookingFacts(): Promise<BookingFacts> {
  const [perStudio, demo] = await Promise.all([
    db().execute<StudioRow>(sql`
      select s.id as studio_id,
        (select count(*)::int from session_type_studios l join session_types t on t.id = l.session_type_id
          where l.studio_id = s.id and t.archived_at is null and t.visibility = 'public') as session_types,
        (select count(*)::int from photographer_studios l join photographers p on p.id = l.photographer_id
          where l.studio_id = s.id and p.active) as photographers
      from studios s where s.retired_at is null
    `),
    db().execute<DemoRow>(sql`
      select t.name,
        exists (select 1 from content_revisions r
          where r.subject = 'session-type:' || t.id and r.author_name <> ${SEED_AUTHOR}) as reviewed
      from session_types t
      where t.archived_at is null
        and exists (select 1 from content_revisions r
          where r.subject = 'session-type:' || t.id and r.author_name = ${SEED_AUTHOR})
      order by t.position, t.name
    `),
  ]);
  return {
    studios: new Map(
      perStudio.rows.map((row) => [
        row.studio_id,
        { sessionTypes: row.session_types, photographers: row.photographers },
      ]),
    ),
    demoSessionTypes: demo.rows.map((row) => ({ name: row.name, reviewed: row.reviewed })),
  };
}

/**
 * Why a studio cannot take bookings on the site yet, in French, or null when it can (decision 0127): a
 * studio not created yet has neither session type nor photographer.
 */
export async function onlineBookingRefusal(studioId: string | null): Promise<string | null> {
  const facts = studioId ? (await bookingFacts()).studios.get(studioId) : undefined;
  const missing = missingForOnlineBooking(facts ?? { sessionTypes: 0, photographers: 0 });
  if (missing.length === 0) return null;
  return `La réservation en ligne ne peut pas être activée : il manque ${missing.join(" et ")}. Complétez d'abord Réservations (Séances, Réglages).`;
}

/** A studio's public booking page as a visitor opens it, and its QR code (an SVG data URL, made here). */
export async function publicBookingLink(siteUrl: string, slug: string) {
  const url = `${siteUrl.replace(/\/$/, "")}${bookingStudioPath(slug)}`;
  // qrcode is loaded when first needed, not at start-up (decision 0092).
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { url, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}
