import { describe, expect, it } from "vitest";
import { hydrated, useBrowser } from "./support/browser";

// Decision 0007: the JavaScript starts loading once the page has painted, so that the first paint waits
// for the HTML and the stylesheet only; React then takes over the same page. That the server's HTML holds
// the scripts back is checked over HTTP in tests/http/scripts-after-paint.test.ts.

const { openPage } = useBrowser();
// Hydrated pages only: the light pages (decisions 0090, 0137: /, /tarifs, /blog…) load no framework
// script, which tests/e2e/light-pages.test.ts checks.
const pages = ["/contact", "/contact-studio-brive"];

describe("scripts after the first paint", () => {
  it("requests the JavaScript only after the first contentful paint, then hydrates", async () => {
    for (const path of pages) {
      // openPage waits for React to take over the page.
      const page = await openPage(path);
      const timing = await page.evaluate(() => {
        const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
        const started = performance.getEntriesByName("scripts-start")[0]?.startTime ?? null;
        const scripts = performance
          .getEntriesByType("resource")
          .filter((entry) => /\/assets\/.*\.js$/.test(entry.name))
          .map((entry) => entry.startTime);
        return { paint, started, firstScript: Math.min(...scripts), scripts: scripts.length };
      });
      expect(timing.paint, path).not.toBeNull();
      expect(timing.started, path).toBeGreaterThanOrEqual(timing.paint ?? Infinity);
      expect(timing.scripts, path).toBeGreaterThan(0);
      expect(timing.firstScript, path).toBeGreaterThanOrEqual(timing.started ?? Infinity);
    }
  });

  it("waits for the page's hero photo (its largest paint) before requesting the JavaScript (decision 0137)", async () => {
    const context = (await openPage("/contact")).context();
    // The studio's hero photo, the contact page's largest paint, held back until the checks below.
    let release = () => {};
    const photoHeld = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/studio-brive-[^/]+\.(?:avif|jpe?g|webp)$/, async (route) => {
      await photoHeld;
      await route.continue();
    });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (/\/assets\/.*\.js$/.test(request.url())) scripts.push(request.url());
    });
    await page.goto("/contact-studio-brive", { waitUntil: "domcontentloaded" });
    await page.waitForFunction(
      () => performance.getEntriesByName("first-contentful-paint").length > 0,
    );
    // Two frames and a task after the first paint: when the scripts started at the first paint, they had.
    await page.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
        ),
    );
    expect(await page.evaluate(() => performance.getEntriesByName("scripts-start").length)).toBe(0);
    expect(scripts).toEqual([]);

    release();
    await hydrated(page);
    const timing = await page.evaluate(() => {
      const photo = performance
        .getEntriesByType("resource")
        .find((entry) => /\/assets\/studio-brive-/.test(entry.name)) as PerformanceResourceTiming;
      return {
        photoEnd: photo.responseEnd,
        started: performance.getEntriesByName("scripts-start")[0]?.startTime ?? null,
      };
    });
    expect(timing.started).toBeGreaterThanOrEqual(timing.photoEnd);
    expect(scripts.length).toBeGreaterThan(0);
    await page.close();
  });
});
