import type { Route } from "./+types/progression";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { pagePosition } from "~/server/db/keyset.server";
import {
  ADMIN_PHOTO_ORDER,
  adminPhotoPage,
  findAdminGallery,
} from "~/server/uploads/gallery-photos.server";

/**
 * The gallery's counts and the photos of the page the grid shows (its `apres`/`avant`, decision 0136) as
 * JSON, polled every 2 s by its page while some are not ready.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const gallery = isUuid(params.id) ? await findAdminGallery(params.id) : null;
  if (!gallery) return Response.json({ error: "Galerie introuvable" }, { status: 404 });
  const position = pagePosition(ADMIN_PHOTO_ORDER, new URL(request.url).searchParams);
  return Response.json(await adminPhotoPage(gallery.id, position), {
    headers: { "Cache-Control": "no-store" },
  });
}
