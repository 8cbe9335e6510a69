import type { Route } from "./+types/envoi";
import type { UploadAnswer } from "~/lib/media-forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { receiveMediaUpload } from "~/server/content/media-upload.server";

/**
 * The upload sent by the media library's script (XMLHttpRequest, for its progress): the same checks as the
 * page without JavaScript, answered as JSON (`UploadAnswer`) for the page to show or follow.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { resource: true });
  const outcome = await receiveMediaUpload(request, {
    id: admin.id,
    name: admin.name || admin.email,
  });
  if (!outcome.ok) {
    return Response.json(
      { ok: false, values: outcome.values, errors: outcome.errors } satisfies UploadAnswer,
      { status: outcome.status },
    );
  }
  const answer: UploadAnswer = outcome.slotLabel
    ? {
        ok: true,
        location: "/admin/medias/emplacements",
        message: `Photo téléversée : elle remplace la précédente (${outcome.slotLabel}).`,
      }
    : {
        ok: true,
        location: `/admin/medias/${outcome.id}`,
        message: "Photo téléversée : placez son point d'intérêt si besoin.",
      };
  return Response.json(answer, { status: 201 });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
