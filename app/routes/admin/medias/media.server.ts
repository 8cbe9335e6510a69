import type { Route } from "./+types/media";
import { isUuid, parseForm, parseIntent } from "~/lib/forms";
import { mediaDetailsSchema } from "~/lib/media-forms";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  deleteMedia,
  loadLibraryPhoto,
  mediaUsage,
  updateMedia,
} from "~/server/content/media-store.server";
import { invalidForm, refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

async function photoOr404(id: string) {
  const photo = isUuid(id) ? await loadLibraryPhoto(id) : undefined;
  if (!photo) throw new Response("Photo introuvable", { status: 404 });
  return photo;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const photo = await photoOr404(params.id);
  const usage = (await mediaUsage()).get(photo.id) ?? [];
  return { photo, usage };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") {
    const target = parseIntent(formData, ["delete"]);
    if (!target.ok || target.id !== params.id) return refusedIntent("id", "Photo inconnue");
    const outcome = await deleteMedia(target.id);
    if (outcome.status === "used") {
      return redirectWithToast(`/admin/medias/${target.id}`, {
        type: "error",
        title: "Photo utilisée",
        description: `Cette photo est utilisée (${outcome.usage.join(", ")}) : remplacez-la d'abord.`,
      });
    }
    return redirectWithToast("/admin/medias", { type: "success", title: "Photo supprimée" });
  }
  await photoOr404(params.id);
  const parsed = parseForm(formData, mediaDetailsSchema, { omit: ["intent"] });
  if (!parsed.ok) return invalidForm(parsed.values, parsed.errors);
  try {
    const { alt, focalX, focalY } = parsed.data;
    await updateMedia(params.id, { alt, focal: { x: focalX, y: focalY } });
  } catch (error) {
    log.error("admin_media_update_failed", { error });
    return invalidForm(parsed.values, {
      alt: "Erreur du serveur : la photo n'est pas enregistrée.",
    });
  }
  return redirectWithToast(`/admin/medias/${params.id}`, {
    type: "success",
    title: "Photo enregistrée",
  });
}
