import { describe, expect, it } from "vitest";
import { fetchPage, metaContent, textOf } from "../support/html";
import { serverBaseUrl } from "../support/server-under-test";

// What the server answers for an unknown address and on every page; the 404 page in a browser (its console
// line, axe, the way home) and the CSP enforced by the browser are in tests/e2e/errors.test.ts.

const baseUrl = serverBaseUrl();

describe("not-found page", () => {
  it("answers 404 with its texts and a link home, for any unknown path", async () => {
    for (const path of ["/nope", "/prestations/inconnue", "/a/b/c"]) {
      const { status, html, document } = await fetchPage(path);
      expect(status, path).toBe(404);
      expect(textOf(document.querySelector("h1")), path).toBe("404");
      // French, not the specification's template English (decision 0133).
      expect(textOf(document.querySelector("main h1 + p")), path).toBe("Page introuvable");
      expect(html).not.toContain("Oops");
      expect(metaContent(document, "robots")).toBe("noindex");
      const home = [...document.querySelectorAll("main a")].filter(
        (link) => textOf(link) === "Retour à l'accueil",
      );
      expect(
        home.map((link) => link.getAttribute("href")),
        path,
      ).toEqual(["/"]);
    }
  });
});

describe("security headers", () => {
  it("every page carries an enforced CSP with a fresh nonce, and the usual hardening headers", async () => {
    const first = await fetch(`${baseUrl}/`);
    const second = await fetch(`${baseUrl}/`);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(first.headers.get("content-security-policy-report-only")).toBeNull();
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await first.text();
    await second.arrayBuffer();
    // Every script React Router inlines carries the nonce of this response.
    const scripts = html.match(/<script(?![^>]*type="application\/ld\+json")[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    expect(first.headers.get("x-powered-by")).toBeNull();
    // Served over plain HTTP here: no HSTS (it is only sent over HTTPS).
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("compresses pages and caches hashed assets for a year", async () => {
    // A hydrated page: the light ones (decisions 0090, 0137) link no JavaScript file.
    const page = await fetch(`${baseUrl}/newsletter/confirmation`, {
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const html = await page.text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await fetch(`${baseUrl}${asset}`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const absent = await fetch(`${baseUrl}/assets/absent-1234.js`);
    await absent.arrayBuffer();
    expect(absent.status).toBe(404);
  });

  it("answers the health check, saying how many database round trips it took", async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("server-timing")).toMatch(/^db;dur=[\d.]+;desc="1 queries"$/);
    // The home page reads nothing from the database; the page cache knows the content version from
    // PostgreSQL's notifications (decision 0093), or reads it (one query) just after a change.
    const home = await fetch(`${baseUrl}/`);
    await home.arrayBuffer();
    expect(home.headers.get("server-timing")).toMatch(/desc="[01] queries"/);
  });
});
