import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildDirectory } from "../../scripts/lib/build";
import { useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

// Decision 0094: the build compresses scripts and stylesheets at brotli's highest quality; the server sends
// those files to browsers that accept brotli and the plain ones, compressed per request, to other clients.
describe("hashed assets", () => {
  it("reach the browser as the build compressed them with brotli, every script and stylesheet of a page", async () => {
    const page = await openPage("/blog");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const assets: Array<{ url: string; headers: Record<string, string> }> = [];
    page.on("response", (response) => {
      if (/\/assets\/[^?]+\.(js|css)$/.test(response.url())) {
        assets.push({ url: response.url(), headers: response.headers() });
      }
    });
    await page.reload();
    expect(assets.some((asset) => asset.url.endsWith(".css"))).toBe(true);
    expect(assets.filter((asset) => asset.url.endsWith(".js")).length).toBeGreaterThan(5);
    for (const { url, headers } of assets) {
      expect(headers["content-encoding"], url).toBe("br");
      // The build's file itself, not the middleware's quick brotli (which has no length: it streams).
      const compressed = path.join(buildDirectory, "client", new URL(url).pathname + ".br");
      expect(Number(headers["content-length"]), url).toBe(statSync(compressed).size);
    }
  });

  it("go gzip-compressed to a client without brotli, with the same content", async () => {
    const html = await (await fetch(`${baseUrl}/blog`)).text();
    const asset = html.match(/\/assets\/framework-[\w-]+\.js/)?.[0];
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
