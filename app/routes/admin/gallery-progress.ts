import type { Route } from "./+types/gallery-progress";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  findAdminGallery,
  listAdminPhotos,
  progressOf,
} from "~/server/uploads/gallery-photos.server";

/** The gallery's photos and their states as JSON, polled every 2 s by its page while some are not ready. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const gallery = isUuid(params.id) ? await findAdminGallery(params.id) : null;
  if (!gallery) return Response.json({ error: "Galerie introuvable" }, { status: 404 });
  return Response.json(progressOf(await listAdminPhotos(gallery.id)), {
    headers: { "Cache-Control": "no-store" },
  });
}
