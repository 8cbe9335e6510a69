import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();
const notFoundLog = /404 Error: User attempted to access non-existent route/;
// The browser also reports the 404 status of the document itself.
const notFoundAllowed = [notFoundLog, /status of 404 \(Not Found\)/];

describe("not-found page", () => {
  it("answers 404 with its texts and a link home, for any unknown path", async () => {
    for (const path of ["/nope", "/prestations/inconnue", "/a/b/c"]) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html).toMatch(/>404</);
      expect(html).toContain("Oops! Page not found");
      expect(html).toContain('name="robots" content="noindex"');
    }
  });

  it("logs the path to the console and leads back home", async () => {
    const page = await openPage("/page-inexistante", { allowConsole: notFoundAllowed });
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    await page.reload();
    await expect
      .poll(() =>
        logged.some((text) => notFoundLog.test(text) && text.includes("/page-inexistante")),
      )
      .toBe(true);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("404");
    await page.getByRole("link", { name: "Retour à l'accueil" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("has no accessibility violation", async () => {
    const page = await openPage("/nope", { allowConsole: notFoundAllowed });
    expect(await axeViolations(page)).toEqual([]);
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

  it("the browser refuses a script injected without the nonce", async () => {
    const page = await openPage("/", { allowConsole: [/Content Security Policy/] });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/.test(message.text())) violations.push(message.text());
    });
    const executed = await page.evaluate(async () => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return "__injected" in window;
    });
    expect(executed).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
  });

  it("compresses pages and caches hashed assets for a year", async () => {
    // A hydrated page: the light ones (decision 0090) link no JavaScript file.
    const page = await fetch(`${baseUrl}/blog`, { headers: { "Accept-Encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const html = await page.text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await fetch(`${baseUrl}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${baseUrl}/assets/absent-1234.js`)).status).toBe(404);
  });

  it("answers the health check, saying how many database round trips it took", async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("server-timing")).toMatch(/^db;dur=[\d.]+;desc="1 queries"$/);
    // The home page reads nothing from the database; the page cache knows the content version from
    // PostgreSQL's notifications (decision 0093), or reads it (one query) just after a change.
    const home = await fetch(`${baseUrl}/`);
    expect(home.headers.get("server-timing")).toMatch(/desc="[01] queries"/);
  });
});
