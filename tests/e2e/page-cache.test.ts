import { describe, expect, it } from "vitest";
import { patiently } from "../support/blog-fixtures";
import { useBrowser } from "./support/browser";

// The page cache of the production server (decisions 0006, 0093): what it serves, to whom and when it
// renders again is in tests/http/page-cache.test.ts. Here, that a browser given a stored page (with the
// nonce of its own answer) runs its scripts.

const { openPage } = useBrowser();

/** Opens `path` in the browser and reloads it until the answer comes from the cache. */
async function openCached(path: string, options?: Parameters<typeof openPage>[1]) {
  // The first visit renders and stores it (no cookie); the reloads below are served the stored copy.
  const page = await openPage(path, options);
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
  it("gives the browser pages whose scripts run: the light pages' inline script, the contact form sent in place", async () => {
    // No public page that hydrates is stored any more (decision 0137: the contact pages were the last; the
    // newsletter's link pages and the 404 are `no-store`, a client's gallery needs its cookie): a stored
    // page's scripts are the light script. The refusal below answers 400, which the console notes.
    const page = await openCached("/contact-studio-brive", { allowConsole: [/status of 400/] });
    await expect
      .poll(() => page.evaluate(() => "enhanced" in document.documentElement.dataset), patiently)
      .toBe(true);
    // The form, sent in place from the stored copy, is refused at its fields without a new page.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.locator("form[method=post] button[type=submit]").click();
    await expect
      .poll(() => page.locator("form[method=post] [aria-invalid=true]").count(), patiently)
      .toBeGreaterThan(0);
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);

    const light = await openCached("/tarifs");
    await expect
      .poll(() => light.evaluate(() => "enhanced" in document.documentElement.dataset), patiently)
      .toBe(true);
  });
});
