import type { RequestHandler } from "express";
import { log } from "../logger.server";

/** The request's line in the log: static assets and health checks at debug level, errors at error. */
export function logRequest(
  method: string,
  path: string,
  status: number,
  durationMs: number,
  bytes: number | undefined,
) {
  const level =
    status >= 500 ? "error" : path.startsWith("/assets/") || path === "/healthz" ? "debug" : "info";
  log.request(level, {
    method,
    path,
    status,
    durationMs: Math.round(durationMs * 10) / 10,
    bytes: bytes || undefined,
  });
}

/** One JSON line per request once the response is sent (the fast path of cached pages logs alike). */
export function requestLog(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logRequest(
        req.method,
        req.path,
        res.statusCode,
        durationMs,
        Number(res.getHeader("content-length") ?? 0),
      );
    });
    next();
  };
}
