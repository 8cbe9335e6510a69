import type { Route } from "./+types/ics";
import { bookingIcsFile } from "~/server/booking/emails.server";
import { managedBooking } from "~/server/booking/manage-page.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";

/**
 * /reservation/{jeton}/seance.ics: « Ajouter à mon agenda » of the client's page (decision 0124), the same
 * event (UID, SEQUENCE, state) as the e-mails' `.ics`. The token is the only key: any other is a file
 * route's French 404 (decision 0202).
 */
export const loader = fileRoute(async ({ params }: Route.LoaderArgs) => {
  const { booking } = await managedBooking(params.token);
  const file = await bookingIcsFile(booking.id, params.token);
  if (file === null) throw refuse(404);
  return new Response(file, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'attachment; filename="seance.ics"',
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex, nofollow",
      "Referrer-Policy": "same-origin",
    },
  });
});
