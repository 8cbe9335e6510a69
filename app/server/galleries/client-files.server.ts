import { Readable } from "node:stream";
import { refuse } from "~/lib/file-refusal";
import { log } from "../logger.server";
import { storage } from "../storage/storage.server";
import { StorageUnavailableError } from "../storage/types";

/**
 * Web sizes and originals: names are immutable (the revision is in them) but the answer is private, no
 * shared cache may keep a client's photo.
 */
export const FILE_CACHE_CONTROL = "private, max-age=86400";

/** An object of the store as an answer (304 when the browser has it), or 404 when it is missing. */
export async function streamObject(
  request: Request,
  key: string,
  headers: Record<string, string>,
): Promise<Response> {
  let object;
  try {
    // Given up when the visitor leaves (React Router aborts the request's signal).
    object = await storage().get(key, { signal: request.signal });
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    log.error("storage_unavailable", { key, timedOut: error.timedOut, reason: error.message });
    throw refuse(error.status, StorageUnavailableError.visitorMessage);
  }
  if (!object) throw refuse(404);
  const etag = `"${object.etag.replace(/"/g, "")}"`;
  if (request.headers.get("If-None-Match") === etag || request.method === "HEAD") {
    object.body.destroy();
    if (request.method !== "HEAD") {
      return new Response(null, { status: 304, headers: { ...headers, ETag: etag } });
    }
  }
  const body =
    request.method === "HEAD"
      ? null
      : (Readable.toWeb(object.body) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      ETag: etag,
      "Last-Modified": object.lastModified.toUTCString(),
      "X-Content-Type-Options": "nosniff",
      ...headers,
    },
  });
}

/** The uploaded name with the delivered format's extension (IMG_0012.HEIC → IMG_0012.jpg). */
export function downloadName(originalName: string, extension: string): string {
  const base = originalName.replace(/\.[^./\\]*$/, "") || "photo";
  return `${base}.${extension}`;
}

/**
 * `attachment` with an ASCII fallback (`fallback`, else the name without its accents and quotes) and the
 * exact name (RFC 6266, its `filename*` percent-encoded as RFC 5987 asks: `'()*` too).
 */
export function contentDisposition(name: string, fallback?: string): string {
  const ascii =
    fallback ??
    (name
      .normalize("NFD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\]/g, "_") ||
      "photo");
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
