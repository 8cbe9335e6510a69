import type { Route } from "./+types/zip";
import { requireGalleryFileAccess } from "~/server/galleries/access.server";
import { refuse } from "~/lib/file-refusal";
import { fileRoute } from "~/server/http/file-refusal.server";
import { sellsPhotos } from "~/lib/gallery-sales";
import { contentDisposition } from "~/server/galleries/client-files.server";
import {
  downloadablePhotoIds,
  NOT_UNLOCKED_MESSAGE,
  saleTerms,
} from "~/server/galleries/photo-sales.server";
import {
  galleryZipEntries,
  layout,
  logZipFailure,
  parseRange,
  zipBytes,
  zipEtag,
  zipFolderName,
} from "~/server/galleries/zip.server";
import { storage } from "~/server/storage/storage.server";

/**
 * Every photo of a client gallery in one ZIP (`?favoris=1`: the favourites only), streamed as the client
 * reads it (decision 0104): its length is known before the first byte, and one byte range is served so
 * that an interrupted download resumes. Only for a browser holding the gallery's code (or the owner), and
 * only when the owner allows downloads: otherwise the same 404 as an unknown gallery (each refusal a French
 * page, decision 0202).
 */
export const loader = fileRoute(async ({ request, params }: Route.LoaderArgs) => {
  const gallery = await requireGalleryFileAccess(request, params.id, { allowAdmin: true });
  if (!gallery.downloadsAllowed) throw refuse(404);
  const favouritesOnly = new URL(request.url).searchParams.get("favoris") === "1";
  // Decision 0184: exactly the originals she may download (included, bought, offered).
  const entries = await galleryZipEntries(gallery, {
    favouritesOnly,
    onlyPhotos: await downloadablePhotoIds(gallery),
  });
  if (entries.length === 0) {
    if (sellsPhotos(saleTerms(gallery))) throw refuse(403, NOT_UNLOCKED_MESSAGE);
    throw refuse(404, "Aucune photo à télécharger.");
  }

  const zip = layout(entries);
  const etag = zipEtag(entries);
  const folder = zipFolderName(gallery);
  const headers = new Headers({
    "Content-Type": "application/zip",
    "Content-Disposition": contentDisposition(
      `${folder}${favouritesOnly ? " - favoris" : ""}.zip`,
      "galerie.zip",
    ),
    // X-Robots-Tag and Referrer-Policy: set for every /galerie-client answer (cachePolicy).
    "Cache-Control": "private, no-store",
    "Accept-Ranges": "bytes",
    ETag: etag,
  });

  // A resumed download asks for the rest only if the archive is still the one it began (If-Range).
  const ifRange = request.headers.get("If-Range");
  const range =
    ifRange === null || ifRange === etag
      ? parseRange(request.headers.get("Range"), zip.total)
      : null;
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${zip.total}`);
    return new Response(null, { status: 416, headers });
  }
  const span = range ?? { start: 0, end: zip.total - 1 };
  headers.set("Content-Length", String(span.end - span.start + 1));
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${zip.total}`);
  const status = range ? 206 : 200;
  if (request.method === "HEAD") return new Response(null, { status, headers });

  const bytes = zipBytes(zip, storage(), span);
  // Pulled by the response writer as the socket drains: nothing is read ahead of the client.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await bytes.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          // The response is destroyed (not ended): the browser reports a failed download, never a
          // truncated or corrupt archive saved as complete.
          logZipFailure(gallery.id, error);
          controller.error(error);
        }
      },
      async cancel() {
        await bytes.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status, headers });
});
