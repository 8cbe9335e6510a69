import type { Route } from "./+types/calendrier";
import { calendarFeed, isCalendarFeedToken } from "~/server/booking/calendar-feed.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";

/**
 * The owner's calendar of every booking, /calendrier/{token}.ics (decision 0116): its secret token is its only
 * key (no session: a phone's calendar fetches it). A token that is not the current one: 404, the same as
 * any unknown address, as a file route's French page (decision 0202): she may open it in a browser.
 */
export const loader = fileRoute(async ({ params }: Route.LoaderArgs) => {
  const token = /^(.+)\.ics$/.exec(params.file)?.[1];
  if (!(await isCalendarFeedToken(token))) throw refuse(404);
  return new Response(await calendarFeed(), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="reservations.ics"',
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
      "Referrer-Policy": "no-referrer",
    },
  });
});
