import type { Route } from "./+types/index";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  parseStartRequest,
  refusalResponse,
  startUpload,
  UploadRefusal,
} from "~/server/uploads/resumable.server";

/**
 * Starts the upload of one photo of a client gallery (decision 0101): JSON `{ galleryId, name, size, type,
 * lastModified }` → `{ uploadId, chunkSize, received, size }`, 201 when new, 200 when the same file's
 * unfinished upload is found again (resume after a reload). Refusals: 413 over 50 Mo, 415 not a photo,
 * 409 « Déjà dans la galerie », 404 unknown gallery.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { resource: true });
  try {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw new UploadRefusal(400, { error: "Demande d'envoi illisible. Rechargez la page." });
    }
    const { status, state } = await startUpload(parseStartRequest(body), admin.id);
    return Response.json(state, { status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return refusalResponse(error);
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
