import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The newsletter's unsubscribe address, which RFC 8058 asks to accept from anywhere: a mail provider sends
 * the one-click POST (`List-Unsubscribe=One-Click`) from its servers, or from its webmail's page, with no
 * Origin or its own. Nothing there rests on a cookie: the signed token in the address is the whole
 * authority, and whoever holds it can already post without any Origin, so the check protects nothing here.
 * Exactly this path: its `.data` twin (the page's own button, with JavaScript) stays checked.
 */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/newsletter/desabonnement";

/**
 * Refuses state-changing requests sent from another site (CSRF): browsers send `Origin` on every POST and
 * `Sec-Fetch-Site` on every request; a foreign value of either is refused with 403. Requests without
 * them (curl, server-to-server) carry no ambient cookie risk and pass.
 */
export function originCheck(siteUrl: string): RequestHandler {
  const siteOrigin = new URL(siteUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (req.path === ONE_CLICK_UNSUBSCRIBE_PATH) {
      // React Router refuses a foreign Origin on an action too: it must not see it on this one.
      delete req.headers.origin;
      delete req.headers["sec-fetch-site"];
      return next();
    }
    const fetchSite = req.get("sec-fetch-site");
    if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
      return void res.status(403).type("text/plain").send("Requête refusée : origine étrangère.");
    }
    const origin = req.get("origin");
    if (origin && origin !== "null") {
      const ownOrigin = `${req.protocol}://${req.get("host")}`;
      if (origin !== ownOrigin && origin !== siteOrigin) {
        return void res.status(403).type("text/plain").send("Requête refusée : origine étrangère.");
      }
    } else if (origin === "null") {
      return void res.status(403).type("text/plain").send("Requête refusée : origine étrangère.");
    }
    next();
  };
}
