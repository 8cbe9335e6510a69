import { Readable } from "node:stream";
import type { Route } from "./+types/photo";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { galleryVariantKey, parseVariantName } from "~/server/storage/keys";
import { storage } from "~/server/storage/storage.server";
import { findPhotoOfGallery } from "~/server/uploads/gallery-photos.server";

/**
 * A web size of a gallery's photo for the owner's grid (`r1-w480.jpg`…), streamed from the storage module:
 * only a photo of this gallery, only a file name of the convention. Private to the signed-in browser.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const variant = parseVariantName(params.file);
  const photo =
    variant && isUuid(params.id) && isUuid(params.photoId)
      ? await findPhotoOfGallery(params.id, params.photoId)
      : null;
  if (!variant || !photo || !photo.widths.includes(variant.width)) return notFound();
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
  if (!object) return notFound();
  return new Response(Readable.toWeb(object.body) as ReadableStream, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      ...cacheHeaders(object.etag),
    },
  });
}

// The name carries the revision: the same address never shows other bytes; private (admin only).
const cacheHeaders = (etag: string) => ({
  ETag: etag,
  "Cache-Control": "private, max-age=86400",
});

const notFound = () =>
  new Response("Photo introuvable", { status: 404, headers: { "Content-Type": "text/plain" } });
