import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent from another site (CSRF): browsers send `Origin` on every POST and
 * `Sec-Fetch-Site` on every request; a foreign value of either is refused with 403. Requests without
 * them (curl, server-to-server) carry no ambient cookie risk and pass.
 */
export function originCheck(siteUrl: string): RequestHandler {
  const siteOrigin = new URL(siteUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
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
