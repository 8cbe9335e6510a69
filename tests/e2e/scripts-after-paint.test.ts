import { describe, expect, it } from "vitest";
import { hydrated, useBrowser } from "./support/browser";

// Decision 0007: the JavaScript starts loading once the page has painted, so that the first paint waits
// for the HTML and the stylesheet only; React then takes over the same page. That the server's HTML holds
// the scripts back is checked over HTTP in tests/http/scripts-after-paint.test.ts.

const { openPage } = useBrowser();
// Hydrated pages only: the light pages (decisions 0090, 0137: /, /tarifs, /blog, /contact…) load no framework
// script, which tests/e2e/light-pages.test.ts checks.
// The public ones since the contact pages became light (decision 0137): the e-mailed links' answers.
const pages = ["/newsletter/confirmation", "/newsletter/desabonnement"];

describe("scripts after the first paint", () => {
  it("requests the JavaScript only after the first contentful paint, then hydrates", async () => {
    for (const path of pages) {
      // openPage waits for React to take over the page. Without their token these pages answer 400,
      // which the console notes.
      const page = await openPage(path, { allowConsole: [/status of 400/] });
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
    // No hydrated public page has a hero photo any more (decision 0137: the contact pages were the last):
    // the newsletter's link page is given the studio page's, as `PageHero` renders it, before its scripts.
    const studio = await openPage("/studio-brive");
    const hero = await studio.locator('img[fetchpriority="high"]').evaluate((img) => img.outerHTML);
    const context = studio.context();
    await context.route("**/newsletter/confirmation", async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers["content-encoding"];
      delete headers["content-length"];
      const body = (await response.text()).replace(/<main[^>]*>/, (main) => `${main}${hero}`);
      await route.fulfill({ status: response.status(), headers, body });
    });
    // The studio's hero photo, that page's largest paint, held back until the checks below.
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
    await page.goto("/newsletter/confirmation", { waitUntil: "domcontentloaded" });
    expect(await page.locator('main img[fetchpriority="high"]').count()).toBe(1);
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
