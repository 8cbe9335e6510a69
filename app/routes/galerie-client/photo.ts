import { mayDownload, sellsPhotos } from "~/lib/gallery-sales";
import { galleryFormatsFor, unboughtWidths } from "~/lib/gallery-urls";
import { isUuid } from "~/lib/forms";
import { requireGalleryFileAccess } from "~/server/galleries/access.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { clientPhoto } from "~/server/galleries/client.server";
import { FILE_CACHE_CONTROL, streamObject } from "~/server/galleries/client-files.server";
import { galleryPhotoRights, saleTerms } from "~/server/galleries/photo-sales.server";
import { galleryVariantKey, parseVariantName } from "~/server/storage/keys";
import type { Route } from "./+types/photo";

/**
 * /galerie-client/{id}/photos/{photoId}/r{rev}-w{width}.{avif|webp|jpg}: one web size of a ready photo,
 * streamed from the store, for the browser holding the gallery's code (or an administrator's preview).
 * Only the sizes the processing wrote (the row's `widths`, `variant_revision` and the formats of each
 * width): anything else is a 404 without touching the store. A photo she has to buy (decision 0196) only
 * below its original's width and up to 1600 px: its web copy is never the original. Refused: a French page
 * (decision 0202).
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  const gallery = await requireGalleryFileAccess(request, params.id, { allowAdmin: true });
  const variant = parseVariantName(params.file);
  if (!variant || !isUuid(params.photoId)) throw refuse(404);
  const photo = await clientPhoto(gallery.id, params.photoId);
  if (
    !photo ||
    photo.variantRevision !== variant.revision ||
    !photo.widths.includes(variant.width) ||
    !galleryFormatsFor(variant.width).includes(variant.format)
  ) {
    throw refuse(404);
  }
  // The rights are read only for the large sizes: the grid's never need them.
  if (
    sellsPhotos(saleTerms(gallery)) &&
    unboughtWidths(photo.width ?? 0, [variant.width]).length === 0 &&
    !mayDownload((await galleryPhotoRights(gallery)).rights.get(photo.id))
  ) {
    throw refuse(404);
  }
  const key = galleryVariantKey(
    gallery.id,
    photo.id,
    variant.revision,
    variant.width,
    variant.format,
  );
  return streamObject(request, key, { "Cache-Control": FILE_CACHE_CONTROL });
});
