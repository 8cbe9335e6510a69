import fs from "node:fs/promises";
import type { Route } from "./+types/envois-formulaire";
import { adminGalleryPath, MAX_GALLERY_PHOTO_BYTES } from "~/lib/gallery-urls";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { incomingUploadPath } from "~/server/admin/images.server";
import { MultipartError, streamFileField } from "~/server/admin/multipart.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import {
  receiveWholePhoto,
  TOO_LARGE,
  UNKNOWN_GALLERY,
  UploadRefusal,
} from "~/server/uploads/resumable.server";

/**
 * One photo sent by the gallery page's plain form (a browser without JavaScript): the same checks as the
 * upload by pieces, then back to the page with a toast that says what happened.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { resource: true });
  const galleryId = params.galleryId;
  if (!isUuid(galleryId)) return Response.json({ error: UNKNOWN_GALLERY }, { status: 404 });
  const back = adminGalleryPath(galleryId);
  // The form cannot keep a chosen file: the page comes back with the reason in a toast.
  const refused = (description: string) =>
    redirectWithToast(back, { type: "error", title: "Photo non envoyée", description });

  const announced = Number(request.headers.get("Content-Length") ?? 0);
  if (announced > MAX_GALLERY_PHOTO_BYTES + 64 * 1024) return refused(TOO_LARGE);
  const incoming = await incomingUploadPath();
  try {
    let file;
    try {
      file = await streamFileField(request, {
        fieldName: "photo",
        target: incoming,
        maxBytes: MAX_GALLERY_PHOTO_BYTES,
      });
    } catch (error) {
      if (!(error instanceof MultipartError)) throw error;
      return refused(error.reason === "too-large" ? TOO_LARGE : "Choisissez une photo à envoyer.");
    }
    if (file.size === 0 && file.fileName === "") return refused("Choisissez une photo à envoyer.");
    const handle = await fs.open(incoming);
    const head = Buffer.alloc(16);
    try {
      await handle.read(head, 0, 16, 0);
    } finally {
      await handle.close();
    }
    await receiveWholePhoto({
      galleryId,
      name: file.fileName.normalize("NFC").trim().slice(0, 255),
      size: file.size,
      path: incoming,
      head,
      adminId: admin.id,
    });
    return redirectWithToast(back, {
      type: "success",
      title: "Photo envoyée",
      description: `${file.fileName} : préparation en cours.`,
    });
  } catch (error) {
    if (error instanceof UploadRefusal) {
      if (error.status === 404) return Response.json(error.body, { status: 404 });
      return refused(error.message);
    }
    log.error("gallery_form_upload_failed", { error });
    return refused("Erreur du serveur pendant l'enregistrement de la photo. Réessayez.");
  } finally {
    await fs.rm(incoming, { force: true });
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
