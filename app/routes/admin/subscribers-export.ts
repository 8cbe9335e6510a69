import type { Route } from "./+types/subscribers-export";
import { isoDayInParis } from "~/lib/dates";
import { requireAdmin } from "~/server/admin/guard.server";
import { listSubscribersForAdmin, subscribersCsv } from "~/server/admin/subscribers.server";

/** The subscriber list as a CSV download (resource route: refused with 401/403, never redirected). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const csv = subscribersCsv(await listSubscribersForAdmin());
  const date = isoDayInParis(new Date());
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="abonnes-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
