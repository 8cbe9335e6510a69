import { isUuid } from "~/lib/forms";
import { requireGalleryFileAccess } from "~/server/galleries/access.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { clientPhoto } from "~/server/galleries/client.server";
import { downloadablePhotoIds, NOT_UNLOCKED_MESSAGE } from "~/server/galleries/photo-sales.server";
import {
  FILE_CACHE_CONTROL,
  contentDisposition,
  downloadName,
  streamObject,
} from "~/server/galleries/client-files.server";
import { galleryOriginalKey } from "~/server/storage/keys";
import type { Route } from "./+types/telecharger";

/**
 * /galerie-client/{id}/telecharger/{photoId}: one delivery original (GPS removed by the processing; a HEIC
 * became a JPEG), as an attachment named like the uploaded file. Only when the owner allows downloads:
 * otherwise a 404, like any address the client has no business with; a photo still to buy: 403. Each a
 * French page (decision 0202).
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  const gallery = await requireGalleryFileAccess(request, params.id, { allowAdmin: true });
  if (!gallery.downloadsAllowed || !isUuid(params.photoId)) {
    throw refuse(404);
  }
  const photo = await clientPhoto(gallery.id, params.photoId);
  if (!photo?.originalExtension) throw refuse(404);
  // Decision 0184: only a photo her package includes, she bought or the owner offered.
  if (!(await downloadablePhotoIds(gallery)).has(photo.id)) {
    throw refuse(403, NOT_UNLOCKED_MESSAGE);
  }
  const name = downloadName(photo.originalName, photo.originalExtension);
  return streamObject(request, galleryOriginalKey(gallery.id, photo.id, photo.originalExtension), {
    "Cache-Control": FILE_CACHE_CONTROL,
    "Content-Disposition": contentDisposition(name),
  });
});
