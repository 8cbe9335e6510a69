import type { Request as ExpressRequest, RequestHandler } from "express";
import { refuse } from "./refusal.server";
import { RESUBSCRIBE_INTENT } from "~/lib/newsletter-links";
import { requestBodyOf } from "./request-input.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The newsletter's unsubscribe address, which RFC 8058 asks to accept from anywhere: a mail provider sends
 * the one-click POST (`List-Unsubscribe=One-Click`) from its servers, or from its webmail's page, with no
 * Origin or its own. Nothing there rests on a cookie: the signed token in the address is the whole
 * authority, and whoever holds it can already post without any Origin, so the check protects nothing there.
 * Only leaving is exempt: « Me réinscrire » on the same address needs the site's own page
 * (`crossSiteLeavesOnly`). Exactly this path: its `.data` twin (the page's own button, with JavaScript) stays
 * checked.
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
    const crossSite = isCrossSite(req, siteOrigin);
    if (req.path === ONE_CLICK_UNSUBSCRIBE_PATH) {
      res.locals.crossSite = crossSite;
      // React Router refuses a foreign Origin on an action too: it must not see it on this one.
      delete req.headers.origin;
      delete req.headers["sec-fetch-site"];
      return next();
    }
    if (crossSite) {
      return void res.status(403).type("text/plain").send("Requête refusée : origine étrangère.");
    }
    next();
  };
}

/**
 * Whether a browser sent the request from another site: a foreign `Sec-Fetch-Site` or `Origin` (or the
 * opaque "null"). Requests without them (curl, server-to-server) carry no ambient cookie risk.
 */
function isCrossSite(req: ExpressRequest, siteOrigin: string): boolean {
  const fetchSite = req.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = req.get("origin");
  if (origin === "null") return true;
  if (!origin) return false;
  return origin !== `${req.protocol}://${req.get("host")}` && origin !== siteOrigin;
}

export const RESUBSCRIBE_FROM_ANOTHER_SITE =
  "Une réinscription se fait depuis notre propre page : ouvrez le lien de désabonnement de l'email, puis appuyez sur « Me réinscrire ».";

/**
 * After the body is read (requestInput): on the unsubscribe address, a post from another site may only
 * leave. One that asks to come back (`intent=reinscrire`, from a forged page or a forwarded link) is
 * refused with a French 403 and changes nothing.
 */
export function crossSiteLeavesOnly(): RequestHandler {
  return async (req, res, next) => {
    if (req.path !== ONE_CLICK_UNSUBSCRIBE_PATH || res.locals.crossSite !== true) return next();
    const body = requestBodyOf(req);
    if (body?.kind !== "buffer") return next();
    let intent: FormDataEntryValue | null = null;
    try {
      const form = await new Response(new Uint8Array(body.bytes), {
        headers: { "Content-Type": body.contentType ?? "" },
      }).formData();
      intent = form.get("intent");
    } catch {
      return next(); // unreadable: the action answers it as it answers any bad form
    }
    if (intent === RESUBSCRIBE_INTENT) return refuse(req, res, 403, RESUBSCRIBE_FROM_ANOTHER_SITE);
    next();
  };
}
