import type { Route } from "./+types/reglages";
import { parseIntent } from "~/lib/forms";
import { GALLERY_EXTENSION_DAYS } from "~/lib/gallery-schemas";
import { formatDateFr } from "~/lib/dates";
import { requireAdmin } from "~/server/admin/guard.server";
import { formatAccessCode } from "~/server/galleries/access.server";
import {
  loadGalleryForm,
  requireGallery,
  saveGalleryForm,
} from "~/server/galleries/admin-pages.server";
import { changeAccessCode, deleteGallery, extendExpiry } from "~/server/galleries/galleries.server";
import { refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  const loaded = await loadGalleryForm(request, params.id);
  const gallery = loaded.gallery;
  if (!gallery) throw new Error("unreachable: an id was given");
  return { ...loaded, gallery, code: formatAccessCode(gallery.accessCode) };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  if (formData.get("intent") === "save") return saveGalleryForm(request, formData, params.id);
  const parsed = parseIntent(formData, ["new-code", "extend", "delete"]);
  if (!parsed.ok || parsed.id !== params.id) {
    return refusedIntent(parsed.ok ? "id" : parsed.reason, "Galerie inconnue");
  }
  const { gallery } = await requireGallery(params.id);
  const here = `/admin/galeries/${gallery.id}/reglages`;
  switch (parsed.intent) {
    case "new-code": {
      const code = await changeAccessCode(gallery.id);
      if (!code) return refusedIntent("id", "Galerie inconnue");
      return redirectWithToast(here, {
        type: "success",
        title: `Nouveau code : ${formatAccessCode(code)}`,
        description: "L'ancien code et les liens déjà ouverts ne fonctionnent plus.",
      });
    }
    case "extend": {
      const until = await extendExpiry(gallery.id, GALLERY_EXTENSION_DAYS);
      if (!until) return refusedIntent("id", "Galerie inconnue");
      return redirectWithToast(here, {
        type: "success",
        title: "Galerie prolongée",
        description: `Ouverte jusqu'au ${formatDateFr(new Date(until.getTime() - 1))}.`,
      });
    }
    case "delete": {
      try {
        await deleteGallery(gallery.id);
      } catch (error) {
        // Marked as being deleted: the retention finishes the work.
        log.error("admin_gallery_delete_failed", { id: gallery.id, error });
        return redirectWithToast("/admin/galeries", {
          type: "error",
          title: "Suppression inachevée",
          description: "La galerie n'est plus visible ; ses fichiers seront effacés cette nuit.",
        });
      }
      return redirectWithToast("/admin/galeries", {
        type: "success",
        title: "Galerie supprimée",
        description: `« ${gallery.title} » et ses photos sont effacées.`,
      });
    }
  }
}
