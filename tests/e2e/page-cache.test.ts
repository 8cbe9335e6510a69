import { describe, expect, it } from "vitest";
import { patiently } from "../support/blog-fixtures";
import { useBrowser } from "./support/browser";

// The page cache of the production server (decisions 0006, 0093): what it serves, to whom and when it
// renders again is in tests/http/page-cache.test.ts. Here, that a browser given a stored page (with the
// nonce of its own answer) runs its scripts.

const { openPage } = useBrowser();

/** Opens `path` in the browser and reloads it until the answer comes from the cache. */
async function openCached(path: string) {
  // The first visit renders and stores it (no cookie); the reloads below are served the stored copy.
  const page = await openPage(path);
  // The page must come from the cache. Another file raising the content version at that moment makes
  // the stored copy stale (rightly rendered again): reload until the browser gets a stored copy.
  let reloaded = await page.reload();
  for (let attempt = 1; attempt < 30 && reloaded?.headers()["x-page-cache"] !== "hit"; attempt++) {
    reloaded = await page.reload();
  }
  expect(reloaded?.headers()["x-page-cache"]).toBe("hit");
  return page;
}

describe("page cache", () => {
  it("gives the browser pages whose scripts run: a hydrated page that navigates without reloading, a light page's inline script", async () => {
    // A hydrated page (decisions 0090, 0137: /tarifs, light, has no framework script; its own script is
    // below).
    const page = await openCached("/contact-studio-brive");
    // The inline module script (nonce checked by the browser) ran, and React took over the page.
    await expect
      .poll(() => page.evaluate(() => "__reactRouterRouteModules" in window), patiently)
      .toBe(true);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("contentinfo").getByRole("link", { name: "Contact", exact: true }).click();
    await page.waitForURL(/\/contact$/);
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);

    const light = await openCached("/tarifs");
    await expect
      .poll(() => light.evaluate(() => "enhanced" in document.documentElement.dataset), patiently)
      .toBe(true);
  });
});
