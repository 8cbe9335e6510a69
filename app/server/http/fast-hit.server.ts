import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import {
  giveBackGzipAnswer,
  plainBody,
  runEffects,
  takeGzipAnswer,
  type CachedPage,
} from "./page-cache.server";
import { logRequest } from "./request-log.server";
import {
  newNonce,
  policyWithNonce,
  SECURITY_HEADERS,
  STRICT_TRANSPORT_SECURITY,
} from "./security.server";

/**
 * Cached pages served before Express (decision 0093): a request the page cache would answer from a stored
 * page, while the content version is known without a round trip, is answered here with exactly what the
 * Express stack would send (same headers in the same order, a fresh nonce, the same request log line), at
 * a fraction of the cost. Everything else, and anything this code is not sure about, returns false and
 * goes through Express unchanged.
 *
 * Why skipping the middlewares is exact for such a request: a page is stored only after the whole stack
 * accepted a GET of the very same address (`cleanAddress`, `methodGuard`, the static files, the routes
 * before the cache), and each of them decides on the method and the address alone for a GET without
 * cookie or credentials; origin checks and bodies concern other methods. The compression middleware leaves
 * an answer alone when it is gzip, or when the client accepts no encoding (no `Accept-Encoding`): the only
 * two cases served here. `Cache-Control` of a stored page is already final (cache-policy.server.ts).
 */

export type FastHitOptions = {
  /** The page cache: its stored page for an address when the version is known without a round trip. */
  cache: { knownHit(key: string): CachedPage | undefined };
  /** Express's compiled `trust proxy` (`app.get("trust proxy fn")`): whether to believe a proxy's header. */
  trustProxy: (address: string | undefined, hop: number) => boolean;
  /** The policy's other `form-action` origins, as the Express stack's (security.server.ts). */
  formActions?: () => readonly string[];
};

/** "gzip" among the encodings, with no weights anywhere (weights are left to Express's negotiation). */
function acceptsPlainGzip(header: string): boolean | undefined {
  if (header.includes(";")) return undefined;
  for (const token of header.split(",")) if (token.trim().toLowerCase() === "gzip") return true;
  return undefined;
}

/** Whether the request came over HTTPS, as Express's `req.secure` says (see express/lib/request.js). */
function isSecure(req: IncomingMessage, trustProxy: FastHitOptions["trustProxy"]): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const header = req.headers["x-forwarded-proto"];
  // Without the header Express says "http" whatever the proxy setting: no need to ask it (it parses the
  // address on each call).
  if (typeof header !== "string" || !trustProxy(req.socket.remoteAddress, 0)) return false;
  const comma = header.indexOf(",");
  return (comma === -1 ? header : header.slice(0, comma)).trim() === "https";
}

const NO_QUERIES = 'db;dur=0.0;desc="0 queries"';

/** A request listener that answers a cached hit and returns true, or returns false and does nothing. */
export function fastHits(options: FastHitOptions) {
  const policy = policyWithNonce({ formActions: options.formActions });
  const fixedHeaders = SECURITY_HEADERS.flat();

  return function serveFastHit(req: IncomingMessage, res: ServerResponse): boolean {
    const started = performance.now();
    if (req.method !== "GET") return false;
    const { headers } = req;
    if (headers.cookie !== undefined || headers.authorization !== undefined) return false;
    const url = req.url ?? "";
    // An address in origin form only; the admin area is never stored anyway.
    if (url.charCodeAt(0) !== 0x2f || url.startsWith("/admin")) return false;
    const acceptEncoding = headers["accept-encoding"];
    let gzip = false;
    if (acceptEncoding !== undefined) {
      if (!acceptsPlainGzip(acceptEncoding)) return false;
      gzip = true;
    }
    const entry = options.cache.knownHit(url);
    if (!entry) return false;

    const nonce = newNonce();
    const nonceBytes = Buffer.from(nonce, "latin1");
    const body = gzip ? takeGzipAnswer(entry, nonceBytes) : plainBody(entry, nonceBytes);
    const queryStart = url.indexOf("?");
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    runEffects(entry, headers["user-agent"] ?? null, path);

    const answer: string[] = ["Content-Security-Policy", policy(nonce)];
    for (const item of fixedHeaders) answer.push(item);
    if (isSecure(req, options.trustProxy)) answer.push(...STRICT_TRANSPORT_SECURITY);
    for (const [name, value] of entry.headers) answer.push(name, value);
    answer.push("X-Page-Cache", "hit", "Vary", "Accept-Encoding");
    if (gzip) answer.push("Content-Encoding", "gzip");
    answer.push("Content-Length", String(body.length), "Server-Timing", NO_QUERIES);
    res.writeHead(200, answer);
    // Once written (`finish`: the socket has handed the bytes to the system), the buffer is free again.
    res.end(body, (error?: Error | null) => {
      if (gzip && !error) giveBackGzipAnswer(entry, body);
    });
    logRequest("GET", path, 200, performance.now() - started, body.length);
    return true;
  };
}
