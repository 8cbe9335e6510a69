import type { Route } from "./+types/index";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { deleteMedia, listLibrary, mediaUsage } from "~/server/content/media-store.server";
import { refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [library, usage] = await Promise.all([listLibrary(), mediaUsage()]);
  return {
    photos: library.map((photo) => ({ ...photo, usage: usage.get(photo.id) ?? [] })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const target = parseIntent(await request.formData(), ["delete"]);
  if (!target.ok) return refusedIntent(target.reason, "Photo inconnue");
  try {
    const outcome = await deleteMedia(target.id);
    if (outcome.status === "used") {
      return redirectWithToast("/admin/medias", {
        type: "error",
        title: "Photo utilisée",
        description: `Cette photo est utilisée (${outcome.usage.join(", ")}) : remplacez-la d'abord.`,
      });
    }
    return redirectWithToast("/admin/medias", {
      type: "success",
      title: outcome.status === "deleted" ? "Photo supprimée" : "Photo déjà supprimée",
    });
  } catch (error) {
    log.error("admin_media_delete_failed", { error });
    return redirectWithToast("/admin/medias", {
      type: "error",
      title: "Erreur",
      description: "Impossible de supprimer la photo",
    });
  }
}
