import fs from "node:fs/promises";
import type { Route } from "./+types/formulaire";
import { adminGalleryPath, MAX_GALLERY_PHOTO_BYTES } from "~/lib/gallery-urls";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { incomingUploadPath } from "~/server/images/uploads.server";
import { MultipartError, streamFileField } from "~/server/multipart.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import {
  FORM_OUTCOME_PARAM,
  formOutcomeMessage,
  type FormOutcome,
} from "~/server/uploads/form-outcome";
import {
  receiveWholePhoto,
  UNKNOWN_GALLERY,
  UploadRefusal,
} from "~/server/uploads/resumable.server";

/**
 * One photo sent by the gallery page's plain form (a browser without JavaScript): the same checks as the
 * upload by pieces, then back to the page, which says what happened beside the form (`?envoi=`).
 */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { resource: true });
  const galleryId = params.galleryId;
  if (!isUuid(galleryId)) return Response.json({ error: UNKNOWN_GALLERY }, { status: 404 });
  const back = (outcome: FormOutcome) => {
    const message = formOutcomeMessage(outcome);
    return redirectWithToast(
      `${adminGalleryPath(galleryId)}?${FORM_OUTCOME_PARAM}=${outcome}`,
      message?.ok
        ? { type: "success", title: "Photo envoyée", description: message.text }
        : { type: "error", title: "Photo non envoyée", description: message?.text },
    );
  };

  const announced = Number(request.headers.get("Content-Length") ?? 0);
  if (announced > MAX_GALLERY_PHOTO_BYTES + 64 * 1024) return back("trop-grande");
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
      return back(error.reason === "too-large" ? "trop-grande" : "vide");
    }
    if (file.size === 0 && file.fileName === "") return back("vide");
    const head = Buffer.alloc(16);
    const handle = await fs.open(incoming);
    try {
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
    await receiveWholePhoto({
      galleryId,
      name: file.fileName,
      size: file.size,
      path: incoming,
      head,
      adminId: admin.id,
    });
    return back("ok");
  } catch (error) {
    if (error instanceof UploadRefusal) {
      if (error.status === 404) return Response.json(error.body, { status: 404 });
      if (error.status === 413) return back("trop-grande");
      if (error.status === 415) return back("format");
      if (error.body.duplicate) return back("doublon");
      return back("vide");
    }
    log.error("gallery_form_upload_failed", { error });
    return back("erreur");
  } finally {
    await fs.rm(incoming, { force: true });
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
