import type { Route } from "./+types/index";
import { parseIntent } from "~/lib/forms";
import { adminGalleryPath } from "~/lib/gallery-urls";
import { requireAdmin } from "~/server/admin/guard.server";
import { listPath, pagePosition } from "~/server/db/keyset.server";
import { refusedIntent } from "~/server/forms.server";
import { requireGallery } from "~/server/galleries/admin-pages.server";
import { redirectWithToast } from "~/server/toast.server";
import {
  ADMIN_PHOTO_ORDER,
  adminPhotoPage,
  deletePhoto,
  movePhoto,
  setCoverPhoto,
  sortPhotosByName,
} from "~/server/uploads/gallery-photos.server";
import { FORM_OUTCOME_PARAM, formOutcomeMessage } from "~/server/uploads/form-outcome";
import { interruptedUploads } from "~/server/uploads/resumable.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { gallery, header } = await requireGallery(params.id);
  // What became of a photo sent by the plain form (no JavaScript, so no toast): a known word only.
  const query = new URL(request.url).searchParams;
  const outcome = query.get(FORM_OUTCOME_PARAM) ?? "";
  // One page of the photos and counts by the database: a gallery can hold 2,000 (decision 0136).
  const [progress, interrupted] = await Promise.all([
    adminPhotoPage(gallery.id, pagePosition(ADMIN_PHOTO_ORDER, query)),
    interruptedUploads(gallery.id),
  ]);
  return {
    gallery: { id: gallery.id, title: gallery.title, coverPhotoId: gallery.coverPhotoId },
    header,
    progress,
    interrupted,
    formMessage: formOutcomeMessage(outcome),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const { gallery } = await requireGallery(params.id);
  // Back to the page of the grid the owner was on (request.url may be the `.data` request's).
  const back = listPath(adminGalleryPath(gallery.id), new URL(request.url).searchParams, [
    "apres",
    "avant",
  ]);
  const formData = await request.formData();
  if (formData.get("intent") === "sort-by-name") {
    await sortPhotosByName(gallery.id);
    return redirectWithToast(back, { type: "success", title: "Photos triées par nom de fichier" });
  }
  const parsed = parseIntent(formData, ["up", "down", "move", "cover", "delete"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Photo inconnue");
  const { intent, id } = parsed;
  if (intent === "up" || intent === "down" || intent === "move") {
    // `move` (drag and drop): to the place `position`, from 1.
    const to = Number(formData.get("position"));
    if (intent === "move" && !(Number.isSafeInteger(to) && to >= 1))
      return refusedIntent("intent", "Photo inconnue");
    const moved = await movePhoto(gallery.id, id, intent === "move" ? { to } : intent);
    return redirectWithToast(
      back,
      moved
        ? { type: "success", title: "Ordre des photos enregistré" }
        : { type: "error", title: "Cette photo ne peut pas aller plus loin" },
    );
  }
  if (intent === "cover") {
    if (!(await setCoverPhoto(gallery.id, id))) return refusedIntent("id", "Photo inconnue");
    return redirectWithToast(back, { type: "success", title: "Couverture de la galerie choisie" });
  }
  const name = await deletePhoto(gallery.id, id);
  if (name === null) return refusedIntent("id", "Photo inconnue");
  return redirectWithToast(back, {
    type: "success",
    title: "Photo supprimée",
    description: name,
  });
}
