import { pipeline } from "node:stream/promises";
import type express from "express";
import { refuse } from "./refusal.server";
import { log } from "../logger.server";
import { checkKey, contentTypeOf, hasSiteFileType, isPublicKey } from "../storage/keys";
import {
  StorageUnavailableError,
  type ByteRange,
  type ObjectInfo,
  type Storage,
} from "../storage/types";

/**
 * The public files under /uploads/{key} (blog images, media library), from the local disk or S3 alike:
 * only the keys of PUBLIC_PREFIXES (a client gallery's files under `galleries/` are never served here,
 * whatever the store), GET and HEAD, ETag/If-None-Match and Last-Modified/If-Modified-Since → 304, one
 * byte range → 206 (416 when it cannot be satisfied). Names are never reused (random + timestamp), so a
 * year's immutable caching is safe; `setHeaders` adds what every public file carries (CORP).
 */
export function serveUploads(
  store: () => Storage,
  options: { setHeaders?: (res: express.Response) => void } = {},
): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const key = keyOf(req.path);
    if (!key) return next();
    // A visitor who leaves stops the store's request too: nobody is left to send it to.
    const left = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) left.abort();
    });
    serve(store(), key, req, res, { ...options, signal: left.signal }).then(
      (served) => {
        if (!served) next();
      },
      (error: unknown) => {
        if (left.signal.aborted) return; // the visitor left: nothing to answer, nothing went wrong
        if (error instanceof StorageUnavailableError) {
          log.error("storage_unavailable", {
            key,
            timedOut: error.timedOut,
            reason: error.message,
          });
          if (!res.headersSent) {
            return refuse(req, res, error.status, StorageUnavailableError.visitorMessage);
          }
        }
        if (!res.headersSent) return next(error);
        // The body broke off midway (the store's stream failed): nothing to add.
        if (!res.destroyed) {
          log.warn("upload_stream_failed", { key, error });
          res.destroy();
        }
      },
    );
  };
}

/** The storage key of a path under /uploads, or null when it names nothing public. */
function keyOf(requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  const key = decoded.replace(/^\//, "");
  // Only photos of the types the site makes (decision 0128): nothing else put in the store is served.
  if (!isPublicKey(key) || !hasSiteFileType(key)) return null;
  try {
    return checkKey(key);
  } catch {
    return null;
  }
}

async function serve(
  store: Storage,
  key: string,
  req: express.Request,
  res: express.Response,
  { setHeaders, signal }: { setHeaders?: (res: express.Response) => void; signal: AbortSignal },
): Promise<boolean> {
  const conditional = req.headers["if-none-match"] ?? req.headers["if-modified-since"];
  const rangeHeader = req.method === "GET" ? req.headers.range : undefined;

  // The common case (a first visit) costs one request to the store; a conditional or ranged one, two.
  if (req.method === "GET" && !conditional && !rangeHeader) {
    const object = await store.get(key, { signal });
    if (!object) return false;
    writeHeaders(res, object, setHeaders);
    res.setHeader("Content-Length", object.size);
    res.status(200);
    await pipeline(object.body, res);
    return true;
  }

  const info = await store.head(key, { signal });
  if (!info) return false;
  writeHeaders(res, info, setHeaders);
  if (notModified(req, info)) {
    res.status(304).end();
    return true;
  }

  const range = rangeHeader && ifRangeHolds(req, info) ? parseRange(rangeHeader, info.size) : null;
  if (range === "unsatisfiable") {
    res.setHeader("Content-Range", `bytes */${info.size}`);
    res.status(416).end();
    return true;
  }
  if (req.method === "HEAD") {
    res.setHeader("Content-Length", info.size);
    res.status(200).end();
    return true;
  }

  let object;
  try {
    object = await store.get(key, range ? { range, signal } : { signal });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // The object changed size between the two questions.
    res.setHeader("Content-Range", `bytes */${info.size}`);
    res.status(416).end();
    return true;
  }
  if (!object) return false;
  writeHeaders(res, object, setHeaders);
  if (object.range) {
    const { start, end } = object.range;
    res.setHeader("Content-Range", `bytes ${start}-${end}/${object.size}`);
    res.setHeader("Content-Length", end - start + 1);
    res.status(206);
  } else {
    res.setHeader("Content-Length", object.size);
    res.status(200);
  }
  await pipeline(object.body, res);
  return true;
}

function writeHeaders(
  res: express.Response,
  info: ObjectInfo,
  setHeaders?: (res: express.Response) => void,
) {
  // The type its key implies, whatever the store was told when the file was written (decision 0128).
  res.setHeader("Content-Type", contentTypeOf(info.key));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("ETag", info.etag);
  res.setHeader("Last-Modified", info.lastModified.toUTCString());
  res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  res.setHeader("Accept-Ranges", "bytes");
  setHeaders?.(res);
}

/** Weak comparison of entity tags (RFC 9110 §13.1.2): `W/"x"` and `"x"` are the same. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

function notModified(req: express.Request, info: ObjectInfo): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(",")
      .some((tag) => tag.trim() === "*" || opaque(tag) === opaque(info.etag));
  }
  const ifModifiedSince = req.headers["if-modified-since"];
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(info.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** If-Range: the range holds only for the same version (its strong ETag, or its date). */
function ifRangeHolds(req: express.Request, info: ObjectInfo): boolean {
  const ifRange = req.get("if-range");
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith("W/")) return ifRange.trim() === info.etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(info.lastModified.getTime() / 1000) * 1000 === date;
}

/**
 * One range of `bytes=` (the whole file for several ranges or a syntax we ignore, as RFC 9110 allows);
 * "unsatisfiable" when it starts past the end.
 */
export function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (size === 0) return "unsatisfiable";
  if (match[1] === "") {
    // The last N bytes.
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
