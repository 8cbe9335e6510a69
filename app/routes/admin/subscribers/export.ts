import type { Route } from "./+types/export";
import { isoDayInParis } from "~/lib/dates";
import { stateFilter, subscriberStateFilters } from "~/lib/newsletter-admin";
import { requireAdmin } from "~/server/admin/guard.server";
import { searchParam } from "~/server/db/keyset.server";
import { subscribersCsvStream } from "~/server/newsletter/subscribers.server";

/**
 * The subscriber list as a CSV download (resource route: refused with 401/403, never redirected), with
 * the list's filter and search when given (`?statut=actifs`: « Copier les emails » of a long list). The
 * file is streamed a batch at a time (decision 0130).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const params = new URL(request.url).searchParams;
  const filter = stateFilter(params.get("statut"));
  const stream = subscribersCsvStream({
    state: filter ? subscriberStateFilters[filter] : null,
    search: searchParam(params),
  });
  const date = isoDayInParis(new Date());
  const name = filter === "actifs" ? `abonnes-actifs-${date}` : `abonnes-${date}`;
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
