import { describe, expect, it } from "vitest";
import { fetchPage } from "../support/html";

// Decision 0007: the JavaScript starts loading once the page has painted, so that the first paint waits
// for the HTML and the stylesheet only. Here, what the server's HTML holds back; the order a browser
// follows is in tests/e2e/scripts-after-paint.test.ts.

// Hydrated pages only: the light pages (decisions 0090, 0137: /, /tarifs, /blog, /contact…) load no framework
// script, which tests/e2e/light-pages.test.ts checks.
// The public ones since the contact pages became light (decision 0137): the e-mailed links' answers.
const pages = ["/newsletter/confirmation", "/newsletter/desabonnement"];

describe("scripts after the first paint", () => {
  it("sends no module script or module preload outside the inert holder", async () => {
    for (const path of pages) {
      const { html } = await fetchPage(path);
      const holder = /<noscript id="rr-scripts">([\s\S]*?)<\/noscript>/.exec(html);
      expect(holder, path).not.toBeNull();
      expect(holder?.[1], path).toContain('type="module"');
      const outside = html.replace(holder?.[0] ?? "", "");
      expect(outside, path).not.toMatch(/rel="modulepreload"|type="module"/);
    }
  });

  it("writes the response's nonce only outside the inert holder: the starter gives it to the scripts it adds", async () => {
    for (const path of pages) {
      const { html, headers } = await fetchPage(path);
      const nonce = /'nonce-([^']+)'/.exec(headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce, path).toBeTruthy();
      const holder = /<noscript id="rr-scripts">([\s\S]*?)<\/noscript>/.exec(html)?.[1] ?? "";
      expect(holder, path).toContain("<script");
      // Decision 0137: a stored page is compressed in parts split at each nonce (decision 0006); the
      // holder's two dozen preloads split it into as many parts, 3 KB more on the wire than one stream.
      expect(holder, path).not.toContain(nonce);
      expect(html.split(nonce ?? "").length - 1, path).toBeLessThanOrEqual(8);
    }
  });
});
