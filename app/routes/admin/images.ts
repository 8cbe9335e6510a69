import fs from "node:fs/promises";
import type { Route } from "./+types/images";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  ImageRejectedError,
  incomingUploadPath,
  MAX_UPLOAD_BYTES,
  storeBlogImage,
  TOO_LARGE_MESSAGE,
} from "~/server/images/uploads.server";
import { MultipartError, streamFileField } from "~/server/multipart.server";
import { log } from "~/server/logger.server";

const refused = (reason: string, status: number) =>
  Response.json({ error: "Impossible d'uploader l'image", reason }, { status });

const MULTIPART_REFUSALS: Record<MultipartError["reason"], [string, number]> = {
  "not-multipart": ["Aucun fichier reçu.", 400],
  malformed: ["Le fichier n'a pas pu être lu : l'envoi a été interrompu ou est incomplet.", 400],
  "no-file": ["Aucun fichier reçu.", 400],
  "too-large": [TOO_LARGE_MESSAGE, 413],
};

/**
 * Upload of one blog image (resource route, field `file`): answers `{ url }`, or 4xx with
 * 'Impossible d'uploader l'image' and the reason. The body is streamed to a file on disk (originals
 * from a camera reach 50 MB), then decoded, reduced and re-encoded by storeBlogImage.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request, { resource: true });
  // Refused before reading the body when the browser announces too much (multipart adds a little).
  const announced = Number(request.headers.get("Content-Length") ?? 0);
  if (announced > MAX_UPLOAD_BYTES + 64 * 1024) return refused(TOO_LARGE_MESSAGE, 413);

  const incoming = await incomingUploadPath();
  try {
    const file = await streamFileField(request, {
      fieldName: "file",
      target: incoming,
      maxBytes: MAX_UPLOAD_BYTES,
    });
    const url = await storeBlogImage({ name: file.fileName, path: incoming });
    return Response.json({ url }, { status: 201 });
  } catch (error) {
    if (error instanceof MultipartError) return refused(...MULTIPART_REFUSALS[error.reason]);
    if (error instanceof ImageRejectedError) return refused(error.message, 415);
    log.error("admin_image_upload_failed", { error });
    return refused("Erreur du serveur pendant l'enregistrement.", 500);
  } finally {
    await fs.rm(incoming, { force: true });
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
