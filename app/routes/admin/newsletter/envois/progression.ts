import type { Route } from "./+types/progression";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { findSendingProgress, progressView } from "./index.server";

/** A sending's counts as JSON, polled every 2 s by its page while it is under way. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const progress = isUuid(params.id) ? await findSendingProgress(params.id) : null;
  if (!progress) {
    return Response.json({ error: "Envoi inconnu" }, { status: 404 });
  }
  return Response.json(progressView(progress), { headers: { "Cache-Control": "no-store" } });
}
