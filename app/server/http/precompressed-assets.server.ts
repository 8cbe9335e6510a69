import { readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

const YEAR = "1y";

/**
 * Whether an `Accept-Encoding` header accepts brotli: `br` named with a weight above 0, or, when `br` is
 * not named at all, `*` with a weight above 0 (a named coding's own weight wins over `*`, RFC 9110 §12.5.3).
 */
export function acceptsBrotli(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let brotli: boolean | undefined;
  let any: boolean | undefined;
  for (const part of acceptEncoding.split(",")) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(";");
    const quality = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    if (coding === "br") brotli = accepted;
    else if (coding === "*") any = accepted;
  }
  return brotli ?? any ?? false;
}

/**
 * The build's hashed assets (`/assets`), immutable for a year. A browser that accepts brotli gets the
 * file the build compressed at brotli's highest quality (`x.js.br`, vite.config.ts), 10–15 % smaller than
 * what the compression middleware makes per request; other clients get the plain file, which that
 * middleware compresses as before. The list of compressed files is read once: no disk lookup per request.
 * Decision 0094.
 */
export function hashedAssets(directory: string): RequestHandler {
  const precompressed = new Set(
    readdirSync(directory)
      .filter((name) => name.endsWith(".br"))
      .map((name) => name.slice(0, -".br".length)),
  );
  const serveFile = express.static(directory, { immutable: true, maxAge: YEAR, index: false });
  const serveBrotli = express.static(directory, {
    immutable: true,
    maxAge: YEAR,
    index: false,
    setHeaders(res) {
      res.setHeader("Content-Encoding", "br");
    },
  });
  return (req, res, next) => {
    const name = req.path.slice(1);
    if (precompressed.has(name)) {
      // Caches in front must keep the brotli and the plain answers apart.
      res.setHeader("Vary", "Accept-Encoding");
      if (acceptsBrotli(req.headers["accept-encoding"])) {
        res.type(path.extname(name));
        req.url = `/${name}.br`;
        return serveBrotli(req, res, next);
      }
    }
    return serveFile(req, res, next);
  };
}
