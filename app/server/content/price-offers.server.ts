import { sql } from "drizzle-orm";
import { bookingChooserPath, bookingDaysPath } from "~/lib/booking/urls";
import { db } from "../db/client.server";
import type { SiteContent } from "./site-content.server";

/*
 * The price cards that lead to booking their session (decision 0127): a card naming a public session type
 * that a studio taking bookings on the site offers gets « Réserver », to that studio's days of the session,
 * or to the choice of studios when several offer it.
 */

export type BookableType = { id: string; slug: string; name: string; studioIds: string[] };

/** The public session types still offered, each with the studios offering it. */
export async function publicSessionTypes(): Promise<BookableType[]> {
  const result = await db().execute<{
    id: string;
    slug: string;
    name: string;
    studio_ids: string[];
  }>(sql`
    select t.id, t.slug, t.name, coalesce(array_agg(l.studio_id::text) filter (where l.studio_id is not null), '{}'::text[]) as studio_ids
    from session_types t left join session_type_studios l on l.session_type_id = t.id
    where t.archived_at is null and t.visibility = 'public'
    group by t.id, t.slug, t.name
  `);
  return result.rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    studioIds: row.studio_ids,
  }));
}

/** The slugs of the studios taking bookings on the site that offer this type, in menu order. */
export function bookingStudiosOf(content: SiteContent, type: BookableType): string[] {
  return content.studios
    .filter((studio) => studio.data.onlineBooking && type.studioIds.includes(studio.id))
    .map((studio) => studio.slug);
}

/** Per session type id named by a card: where its « Réserver » leads (none when nowhere to book it). */
export async function cardBookingPaths(content: SiteContent): Promise<Map<string, string>> {
  const named = new Set(
    content.documents.prices.tabs.flatMap((tab) => tab.cards.map((card) => card.sessionType)),
  );
  named.delete("");
  const paths = new Map<string, string>();
  if (named.size === 0) return paths;
  for (const type of await publicSessionTypes()) {
    if (!named.has(type.id)) continue;
    const studios = bookingStudiosOf(content, type);
    const [only] = studios;
    if (studios.length === 1 && only) paths.set(type.id, bookingDaysPath(only, type.slug));
    else if (studios.length > 1) paths.set(type.id, bookingChooserPath(type.slug));
  }
  return paths;
}
