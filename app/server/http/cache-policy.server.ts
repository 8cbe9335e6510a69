import type { RequestHandler } from "express";
import { decodedPath } from "./request-input.server";

const ADMIN_PATH = /^\/admin(\/|\.data|$)/;
/**
 * A client's gallery (decision 0103): every answer is kept from crawlers and from other sites'
 * referrers (the id in the address is half of the secret); its pages are personal, its files `private`
 * (set by their route). `same-origin` rather than `no-referrer`: with `no-referrer` a browser posts a plain
 * form (the code form without JavaScript) with `Origin: null`, which the CSRF check refuses; `same-origin`
 * sends nothing to another site all the same.
 */
const CLIENT_GALLERY_PATH = /^\/galerie-client(\/|\.data|$)/;
/**
 * A gift voucher's buyer's order (decision 0168): its page, its data, its PDFs and its refusals are one
 * person's, the token in the address the key: never indexed, said in the headers (a crawler reading no
 * HTML, a PDF) as the page's meta says it. React Router takes the address in any case: so does this.
 */
const ORDER_PATH = /^\/commande(\/|\.data|$)/i;
/** A public page showing an administrator's unsaved changes (content/preview.server.ts). */
const PREVIEW_QUERY = /[?&]apercu=/;
/**
 * A private session type's booking pages (decision 0115): the link `?lien=` is its secret, so no answer
 * of its steps is kept by a shared cache or the site's page cache.
 */
const PRIVATE_BOOKING_LINK = /^\/reserver(?:\/|\.data|\?|$)[^#]*[?&]lien=/;

/**
 * `Cache-Control: no-store` on every answer that concerns one person, whatever the route sets
 * (decision 0031: nothing personal is ever cached): every answer of the admin area (pages, their `.data` requests, the login, exports), previews of
 * unsaved changes (`?apercu=`), a private session type's booking pages (`/reserver…?lien=`), any
 * answer that sets a cookie (a session, a flash message), and errors that did not choose a policy (404s,
 * refusals). Public pages keep the policy their route gives them. `X-Robots-Tag` on every answer of a
 * client's gallery and of a buyer's order page.
 */
export function cachePolicy(): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
      if (!res.headersSent) {
        const clientGallery = CLIENT_GALLERY_PATH.test(req.path);
        if (clientGallery) {
          res.setHeader("X-Robots-Tag", "noindex, nofollow, noarchive");
          res.setHeader("Referrer-Policy", "same-origin");
        }
        if (ORDER_PATH.test(decodedPath(req.path))) {
          res.setHeader("X-Robots-Tag", "noindex, nofollow");
        }
        const privateFile =
          clientGallery && /^private\b/.test(String(res.getHeader("cache-control") ?? ""));
        const personal =
          ADMIN_PATH.test(req.path) ||
          (clientGallery && !privateFile) ||
          PREVIEW_QUERY.test(req.originalUrl) ||
          PRIVATE_BOOKING_LINK.test(req.originalUrl) ||
          res.hasHeader("set-cookie");
        const status = typeof args[0] === "number" ? args[0] : res.statusCode;
        if (personal || (status >= 400 && !res.hasHeader("cache-control"))) {
          res.setHeader("Cache-Control", "no-store");
        }
      }
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}

/** The private areas' addresses as written by the site, and as React Router also takes them. */
const PRIVATE_AREA = /^\/(?:admin|galerie-client)(?=\/|\.data|$)/;
const PRIVATE_AREA_ANY_SPELLING = new RegExp(PRIVATE_AREA.source, "i");

/**
 * React Router matches an address whatever its case or percent-encoding; the policies above, the page cache
 * and the body limits read it as written. A private area's address written otherwise (`/GALERIE-CLIENT/…`,
 * `/%61dmin`) is sent to its own spelling (308: method and body kept) before any of them sees it, so no
 * spelling escapes `no-store`, `noindex` or the page cache's refusal.
 */
export function canonicalPrivateAreas(): RequestHandler {
  return (req, res, next) => {
    // Most requests: a public address without an escape, or a private one as the site writes it.
    const written = req.path;
    if (PRIVATE_AREA.test(written)) return next();
    if (!written.includes("%") && !PRIVATE_AREA_ANY_SPELLING.test(written)) return next();
    let path: string;
    try {
      path = decodeURIComponent(written);
    } catch {
      return next(); // Refused with a French 400 by cleanAddress.
    }
    const area = PRIVATE_AREA_ANY_SPELLING.exec(path)?.[0];
    if (!area) return next();
    const queryAt = req.originalUrl.indexOf("?");
    const query = queryAt === -1 ? "" : req.originalUrl.slice(queryAt);
    res.redirect(308, area.toLowerCase() + encodeURI(path.slice(area.length)) + query);
  };
}
