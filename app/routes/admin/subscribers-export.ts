import type { Route } from "./+types/subscribers-export";
import { requireAdmin } from "~/server/admin/guard.server";
import { listSubscribersForAdmin, subscribersCsv } from "~/server/admin/subscribers.server";

/** The subscriber list as a CSV download (resource route: refused with 401/403, never redirected). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const csv = subscribersCsv(await listSubscribersForAdmin());
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="abonnes-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
