import type {
  Request as ExpressRequest,
  Response as ExpressResponse,
  RequestHandler,
} from "express";
import {
  createReadableStreamFromReadable,
  writeReadableStreamToWritable,
} from "@react-router/node";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { requestBodyOf } from "./request-input.server";

/**
 * Hands an Express request to React Router and writes its answer back, like @react-router/express, except
 * that the body is the one `requestInput` read, limited and normalised (or the counted stream of a path
 * that streams), never the raw socket.
 */

type Options = {
  build: () => Promise<ServerBuild>;
  mode: "development" | "production";
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
};

function fetchHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The address the visitor asked for, as React Router sees it (host and port behind a trusted proxy). */
function requestUrl(req: ExpressRequest): string {
  const forwardedPort = req.app.enabled("trust proxy")
    ? req.get("x-forwarded-host")?.split(":")[1]
    : undefined;
  const port = forwardedPort ?? req.get("host")?.split(":")[1];
  const host = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const portSuffix = port && /^\d+$/.test(port) ? `:${port}` : "";
  return new URL(`${req.protocol}://${host}${portSuffix}${req.originalUrl}`).href;
}

function fetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = fetchHeaders(req);
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = requestBodyOf(req);
    if (body?.kind === "buffer") {
      init.body = new Uint8Array(body.bytes);
      headers.set("content-length", String(body.bytes.length));
      if (body.contentType) headers.set("content-type", body.contentType);
    } else {
      init.body = createReadableStreamFromReadable(body?.stream ?? req);
      init.duplex = "half";
    }
  }
  return new Request(requestUrl(req), init);
}

export function reactRouterHandler({ build, mode, getLoadContext }: Options): RequestHandler {
  let handle: ReturnType<typeof createRequestHandler> | undefined;
  return async (req, res, next) => {
    try {
      handle ??= createRequestHandler(build, mode);
      const response = await handle(fetchRequest(req, res), getLoadContext(req, res));
      // A refusal already answered (a body found too large while streaming): nothing more to send.
      if (res.headersSent || res.destroyed || res.writableEnded) {
        await response.body?.cancel();
        return;
      }
      res.statusMessage = response.statusText;
      res.status(response.status);
      // A route's header replaces the site's default of that name (securityHeaders): the newsletter
      // preview sets its own Content-Security-Policy and X-Frame-Options. Cookies add up.
      for (const [name, value] of response.headers) {
        if (name === "set-cookie") res.append(name, value);
        else res.setHeader(name, value);
      }
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      if (res.destroyed || res.writableEnded) return;
      next(error);
    }
  };
}
