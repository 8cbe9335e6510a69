import type { Route } from "./+types/export";
import { isoDayInParis } from "~/lib/dates";
import { requireAdmin } from "~/server/admin/guard.server";
import { bookingsCsv, bookingsForExport } from "~/server/booking/agenda.server";

/** Every booking as a CSV download (resource route: refused with 401/403, never redirected). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const csv = bookingsCsv(await bookingsForExport());
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="reservations-${isoDayInParis(new Date())}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
