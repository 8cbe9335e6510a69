import { Readable } from "node:stream";
import type { Route } from "./+types/photo";
import { isUuid } from "~/lib/forms";
import { refuse } from "~/lib/file-refusal";
import { requireAdmin } from "~/server/admin/guard.server";
import { fileRoute } from "~/server/http/file-refusal.server";
import { galleryVariantKey, parseVariantName } from "~/server/storage/keys";
import { storage } from "~/server/storage/storage.server";
import { findPhotoOfGallery } from "~/server/uploads/gallery-photos.server";

/**
 * A web size of a gallery's photo for the owner's grid (`r1-w480.jpg`…), streamed from the storage module:
 * only a photo of this gallery, only a file name of the convention. Private to the signed-in browser.
 * Refused (another gallery's photo, a size it does not have, signed out): the French page of every file
 * route (decision 0202, amended 2026-12-02), which the owner reads when she opens the image on its own.
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  await requireAdmin(request, { resource: true });
  const variant = parseVariantName(params.file);
  const photo =
    variant && isUuid(params.id) && isUuid(params.photoId)
      ? await findPhotoOfGallery(params.id, params.photoId)
      : null;
  if (!variant || !photo || !photo.widths.includes(variant.width)) throw refuse(404);
  const key = galleryVariantKey(
    params.id,
    params.photoId,
    variant.revision,
    variant.width,
    variant.format,
  );
  if (request.headers.get("If-None-Match")) {
    const info = await storage().head(key);
    if (info && request.headers.get("If-None-Match") === info.etag)
      return new Response(null, { status: 304, headers: cacheHeaders(info.etag) });
  }
  const object = await storage().get(key);
  if (!object) throw refuse(404);
  return new Response(Readable.toWeb(object.body) as ReadableStream, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      ...cacheHeaders(object.etag),
    },
  });
});

// The name carries the revision: the same address never shows other bytes; private (admin only).
const cacheHeaders = (etag: string) => ({
  ETag: etag,
  "Cache-Control": "private, max-age=86400",
});
