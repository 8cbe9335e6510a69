import fs from "node:fs/promises";
import type { FieldErrors } from "~/lib/forms";
import { parseForm } from "~/lib/forms";
import { mediaDetailsSchema, UPLOAD_TEXT_FIELDS } from "~/lib/media-forms";
import { ContentError, type Author } from "./content-store.server";
import { parseSlotKey } from "./media-slots.server";
import { assignSlot, storeMedia } from "./media-store.server";
import { log } from "../logger.server";
import {
  ImageRejectedError,
  incomingUploadPath,
  MAX_UPLOAD_BYTES,
  TOO_LARGE_MESSAGE,
} from "../images/uploads.server";
import { MultipartError, streamFileField } from "../multipart.server";

/**
 * One photo posted to the media library (multipart: `file`, `alt`, optional `focalX`/`focalY`, and
 * `emplacement` when it is uploaded for a slot), streamed to disk, checked, stored. Shared by the page that
 * receives the form without JavaScript and the address the page's script sends it to with its progress.
 */
export type MediaUploadOutcome =
  | { ok: true; id: string; slotLabel: string | null }
  | { ok: false; status: number; values: Record<string, string>; errors: FieldErrors };

const MULTIPART_MESSAGES: Record<MultipartError["reason"], [string, number]> = {
  "not-multipart": ["Choisissez une photo à téléverser.", 400],
  malformed: ["La photo n'a pas pu être lue : l'envoi a été interrompu ou est incomplet.", 400],
  "no-file": ["Choisissez une photo à téléverser.", 400],
  "too-large": [TOO_LARGE_MESSAGE, 413],
};

export async function receiveMediaUpload(
  request: Request,
  author: Author,
): Promise<MediaUploadOutcome> {
  const announced = Number(request.headers.get("Content-Length") ?? 0);
  if (announced > MAX_UPLOAD_BYTES + 64 * 1024) {
    return { ok: false, status: 413, values: {}, errors: { file: TOO_LARGE_MESSAGE } };
  }
  const incoming = await incomingUploadPath();
  try {
    let file;
    try {
      file = await streamFileField(request, {
        fieldName: "file",
        target: incoming,
        maxBytes: MAX_UPLOAD_BYTES,
        textFields: UPLOAD_TEXT_FIELDS,
      });
    } catch (error) {
      if (!(error instanceof MultipartError)) throw error;
      const [message, status] = MULTIPART_MESSAGES[error.reason];
      return { ok: false, status, values: {}, errors: { file: message } };
    }
    const parsed = parseForm(file.fields, mediaDetailsSchema);
    const values = parsed.values;
    const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors };
    if (file.size === 0 && file.fileName === "") errors.file = "Choisissez une photo à téléverser.";
    const slot = values.emplacement ?? "";
    if (slot && !parseSlotKey(slot)) errors.file ??= "Cet emplacement n'existe pas.";
    if (!parsed.ok || Object.keys(errors).length > 0) {
      return { ok: false, status: 400, values, errors };
    }
    let id: string;
    try {
      id = await storeMedia(
        { name: file.fileName, path: incoming },
        { alt: parsed.data.alt, focal: { x: parsed.data.focalX, y: parsed.data.focalY } },
      );
    } catch (error) {
      if (!(error instanceof ImageRejectedError)) throw error;
      return { ok: false, status: 415, values, errors: { file: error.message } };
    }
    if (!slot) return { ok: true, id, slotLabel: null };
    try {
      return { ok: true, id, slotLabel: await assignSlot(slot, id, author) };
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      // The photo is in the library; the slot it was meant for is gone meanwhile.
      return { ok: true, id, slotLabel: null };
    }
  } catch (error) {
    log.error("admin_media_upload_failed", { error });
    return {
      ok: false,
      status: 500,
      values: {},
      errors: { file: "Erreur du serveur pendant l'enregistrement de la photo. Réessayez." },
    };
  } finally {
    await fs.rm(incoming, { force: true });
  }
}
