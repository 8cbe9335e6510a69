import type { RequestHandler } from "express";
import { log } from "../logger.server";

/** One JSON line per request once the response is sent; static assets at debug level. */
export function requestLog(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const quiet = req.path.startsWith("/assets/") || req.path === "/healthz";
      const fields = {
        method: req.method,
        path: req.path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
        bytes: Number(res.getHeader("content-length") ?? 0) || undefined,
      };
      if (res.statusCode >= 500) log.error("request", fields);
      else if (quiet) log.debug("request", fields);
      else log.info("request", fields);
    });
    next();
  };
}
