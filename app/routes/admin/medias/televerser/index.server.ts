import type { Route } from "./+types/index";
import { requireAdmin } from "~/server/admin/guard.server";
import { receiveMediaUpload } from "~/server/content/media-upload.server";
import { invalidForm } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { slot: new URL(request.url).searchParams.get("emplacement") ?? "" };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const outcome = await receiveMediaUpload(request, {
    id: admin.id,
    name: admin.name || admin.email,
  });
  if (!outcome.ok) return invalidForm(outcome.values, outcome.errors);
  if (outcome.slotLabel) {
    return redirectWithToast("/admin/medias/emplacements", {
      type: "success",
      title: "Photo téléversée",
      description: `Elle remplace la précédente : ${outcome.slotLabel}.`,
    });
  }
  return redirectWithToast(`/admin/medias/${outcome.id}`, {
    type: "success",
    title: "Photo téléversée",
    description: "Placez son point d'intérêt si besoin.",
  });
}
