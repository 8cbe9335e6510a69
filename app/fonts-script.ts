import { inlineScript } from "~/lib/inline-script";

/**
 * The brand fonts from the second page of a visit on (decisions 0091 and 0095). An inline script in `<head>`,
 * with the response's nonce, run before the first paint of every page:
 * - a page reached from a page of the site (same-origin `document.referrer`; the Referrer-Policy
 *   `strict-origin-when-cross-origin` of `security.server.ts` sends it) gets `<html data-polices>`, and only
 *   that attribute puts Inter and Playfair Display in `--font-sans` / `--font-serif` (`app.css`). The first
 *   page has fetched them into the HTTP cache, so `font-display: optional` uses them at once;
 * - the first page of a visit (no referrer, or another site's) is drawn in the metric-matched fallbacks
 *   (same layout) and asks for no font file before its `load` event; a second after it, once the browser is
 *   idle, it fetches both files into the HTTP cache for the next page (`document.fonts.load` downloads a face that
 *   nothing on the page uses yet).
 * Nothing is stored on the visitor's device (no cookie, no web storage): the referrer alone decides.
 *
 * Serialised like `light-script.ts`: the function must not refer to anything outside its body.
 */
function fontsScript(faces: string[]): void {
  const doc = document;
  try {
    if (doc.referrer && new URL(doc.referrer).origin === location.origin) {
      doc.documentElement.setAttribute("data-polices", "");
      return;
    }
  } catch {
    // A referrer that is not a URL: a first page.
  }
  window.addEventListener("load", () => {
    const fetchFonts = () => {
      if (!doc.fonts) return;
      for (const face of faces) void doc.fonts.load(face).catch(() => undefined);
    };
    // A second after the load event, then when the browser is idle: the page's own paints come first. At
    // once after the load, the fonts' 50 KB could start before the first paint on a slow phone, and share
    // a slow connection with the page's largest image (decision 0137).
    setTimeout(() => {
      if ("requestIdleCallback" in window)
        window.requestIdleCallback(fetchFonts, { timeout: 2000 });
      else fetchFonts();
    }, 1000);
  });
}

/** The web fonts' faces the first page fetches and a client-side navigation checks (CSS font shorthand). */
export const WEB_FONT_FACES = ["400 1em Inter", "700 1em 'Playfair Display'"];

/** The script's text. */
export function fontsScriptSource(): string {
  return inlineScript(fontsScript, WEB_FONT_FACES);
}
