import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";

export type SecurityOptions = {
  /** Vite's dev server needs its WebSocket and eval-based source maps. */
  development?: boolean;
  /**
   * Other origins our forms may lead to, as they are now: a payment provider's hosted page once the owner
   * has turned card payments on (decision 0166). Asked at each answer; the policy is built again only
   * when the list it answers is another array.
   */
  formActions?: () => readonly string[];
};

/** Hosts the page may frame after the visitor clicks a video placeholder (privacy-enhanced YouTube). */
export const FRAME_SOURCES = ["https://www.youtube-nocookie.com"];

export function contentSecurityPolicy(nonce: string, options: SecurityOptions = {}): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // Scripts only from our origin or inline ones carrying this response's nonce.
    "script-src": ["'self'", `'nonce-${nonce}'`, ...(options.development ? ["'unsafe-eval'"] : [])],
    "script-src-attr": ["'none'"],
    // sonner (the toasts) injects its stylesheet at run time and positions toasts with style attributes.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(options.development ? ["ws:"] : [])],
    "media-src": ["'self'"],
    // 'self': the admin's preview of a newsletter e-mail (a document of ours, with its own sandboxing CSP).
    "frame-src": ["'self'", ...FRAME_SOURCES],
    "frame-ancestors": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", ...(options.formActions?.() ?? [])],
    "manifest-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** The headers every response carries besides its policy, in the order they are sent. */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  [
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  ],
  ["X-Frame-Options", "DENY"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
];

/** Sent over HTTPS only (`req.secure`). */
export const STRICT_TRANSPORT_SECURITY = [
  "Strict-Transport-Security",
  "max-age=63072000; includeSubDomains",
] as const;

/**
 * The policy of a response with `nonce`: built once (and again when `formActions` answers another list),
 * the nonce put in per response.
 */
export function policyWithNonce(options: SecurityOptions = {}): (nonce: string) => string {
  let origins: readonly string[] | undefined;
  let beforeNonce = "";
  let afterNonce = "";
  return (nonce) => {
    const current = options.formActions?.();
    if (origins === undefined || current !== origins) {
      origins = current ?? [];
      const fixed = origins;
      [beforeNonce = "", afterNonce = ""] = contentSecurityPolicy("\0", {
        ...options,
        formActions: () => fixed,
      }).split("\0");
    }
    return `${beforeNonce}${nonce}${afterNonce}`;
  };
}

const NONCE_BYTES = 18;
// Random bytes drawn 256 nonces at a time: one call into the system's generator instead of one per
// answer (it showed in the profile of cached pages served at tens of thousands per second).
const NONCES_PER_DRAW = 256;
let randomPool = Buffer.alloc(0);
let poolOffset = 0;

/** A fresh CSP nonce: 18 random bytes in base64 (24 characters). */
export function newNonce(): string {
  if (poolOffset + NONCE_BYTES > randomPool.length) {
    randomPool = randomBytes(NONCE_BYTES * NONCES_PER_DRAW);
    poolOffset = 0;
  }
  const nonce = randomPool.toString("base64", poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

/**
 * Sets the response's policy again, once the site's content for this request is known: the policy was
 * set when the request arrived, from the content known then, and a change committed since (cards turned
 * on) must show on the page rendered from the newer content (decision 0166).
 */
export function refreshPolicy(res: { locals: Record<string, unknown> }): void {
  (res.locals.refreshPolicy as (() => void) | undefined)?.();
}

/**
 * Sets the security headers on every response and a fresh CSP nonce in `res.locals.cspNonce`, which the
 * request handler passes to React Router for its inline scripts.
 */
export function securityHeaders(options: SecurityOptions = {}): RequestHandler {
  const policy = policyWithNonce(options);
  return (req, res, next) => {
    const nonce = newNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", policy(nonce));
    res.locals.refreshPolicy = () => res.setHeader("Content-Security-Policy", policy(nonce));
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    if (req.secure) res.setHeader(...STRICT_TRANSPORT_SECURITY);
    next();
  };
}
