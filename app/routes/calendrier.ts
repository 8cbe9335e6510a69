import type { Route } from "./+types/calendrier";
import { calendarFeed, isCalendarFeedToken } from "~/server/booking/calendar-feed.server";

/**
 * The owner's calendar of every booking, /calendrier/{token}.ics (decision 0116): its secret token is its only
 * key (no session: a phone's calendar fetches it). A token that is not the current one: 404, the same as
 * any unknown address.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const token = /^(.+)\.ics$/.exec(params.file)?.[1];
  if (!(await isCalendarFeedToken(token))) {
    return new Response("Page non trouvée", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(await calendarFeed(), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="reservations.ics"',
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
      "Referrer-Policy": "no-referrer",
    },
  });
}
