import type { Route } from "./+types/selection";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { requireGallery } from "~/server/galleries/admin-pages.server";
import { gallerySelection, reopenSelection } from "~/server/galleries/galleries.server";
import { refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { gallery, header } = await requireGallery(params.id);
  const photos = await gallerySelection(gallery.id);
  return {
    gallery: header,
    validatedAt: gallery.selectionValidatedAt?.toISOString() ?? null,
    photos: photos.map((photo) => ({ ...photo, favouritedAt: photo.favouritedAt?.toISOString() })),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = parseIntent(await request.formData(), ["reopen"]);
  if (!parsed.ok || parsed.id !== params.id) {
    return refusedIntent(parsed.ok ? "id" : parsed.reason, "Galerie inconnue");
  }
  const { gallery } = await requireGallery(params.id);
  const reopened = await reopenSelection(gallery.id);
  return redirectWithToast(
    `/admin/galeries/${gallery.id}/selection`,
    reopened
      ? {
          type: "success",
          title: "Sélection rouverte",
          description: "Le client peut de nouveau modifier ses favoris puis valider.",
        }
      : { type: "error", title: "Aucune sélection validée à rouvrir" },
  );
}
