import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildDirectory } from "../../scripts/lib/build";
import { fetchPage } from "../support/html";
import { serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();

/** What Chromium says it accepts. */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

/**
 * The hashed stylesheets and scripts a page loads: its stylesheets, and the modules its inert script holder
 * preloads (decision 0007), which are every script a browser fetches for the page.
 */
async function pageAssets(pagePath: string): Promise<string[]> {
  const { document } = await fetchPage(pagePath);
  return [
    ...document.querySelectorAll('link[rel="stylesheet"][href^="/assets/"]'),
    ...document.querySelectorAll('noscript#rr-scripts link[rel="modulepreload"][href^="/assets/"]'),
  ].map((link) => link.getAttribute("href") ?? "");
}

// Decision 0094: the build compresses scripts and stylesheets at brotli's highest quality; the server sends
// those files to browsers that accept brotli and the plain ones, compressed per request, to other clients.
describe("hashed assets", () => {
  it("reach a browser as the build compressed them with brotli, every script and stylesheet of a page", async () => {
    const assets = await pageAssets("/newsletter/confirmation");
    expect(assets.some((asset) => asset.endsWith(".css"))).toBe(true);
    expect(assets.filter((asset) => asset.endsWith(".js")).length).toBeGreaterThan(5);
    for (const asset of assets) {
      const response = await fetch(`${baseUrl}${asset}`, {
        headers: { "Accept-Encoding": BROWSER_ENCODINGS },
      });
      await response.arrayBuffer();
      expect(response.status, asset).toBe(200);
      expect(response.headers.get("content-encoding"), asset).toBe("br");
      // The build's file itself, not the middleware's quick brotli (which has no length: it streams).
      const compressed = path.join(buildDirectory, "client", `${asset}.br`);
      expect(Number(response.headers.get("content-length")), asset).toBe(statSync(compressed).size);
    }
  });

  it("go gzip-compressed to a client without brotli, with the same content", async () => {
    const asset = (await pageAssets("/newsletter/confirmation")).find((name) =>
      /\/framework-[\w-]+\.js$/.test(name),
    );
    expect(asset).toBeTruthy();
    const brotli = await fetch(`${baseUrl}${asset}`, { headers: { "Accept-Encoding": "br" } });
    const gzip = await fetch(`${baseUrl}${asset}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    for (const response of [brotli, gzip]) {
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    }
    expect(await brotli.text()).toBe(await gzip.text());
  });
});
