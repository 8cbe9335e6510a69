import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";

export type SecurityOptions = {
  /** Vite's dev server needs its WebSocket and eval-based source maps. */
  development?: boolean;
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
    "form-action": ["'self'"],
    "manifest-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * Sets the security headers on every response and a fresh CSP nonce in `res.locals.cspNonce`, which the
 * request handler passes to React Router for its inline scripts.
 */
export function securityHeaders(options: SecurityOptions = {}): RequestHandler {
  // The policy is the same for every response but its nonce: built once, the nonce put in per response.
  const [beforeNonce, afterNonce] = contentSecurityPolicy("\0", options).split("\0");
  return (req, res, next) => {
    const nonce = randomBytes(18).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", `${beforeNonce}${nonce}${afterNonce}`);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader(
      "Permissions-Policy",
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    );
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (req.secure) {
      res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    }
    next();
  };
}
