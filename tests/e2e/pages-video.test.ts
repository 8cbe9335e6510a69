import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { hydrated, workerBrowser } from "./support/browser";

// The HTML without a player is checked over HTTP (tests/http/pages-video.test.ts).
// This file drives its own browser: useBrowser() fails a test on any request to another host, and here one
// request to the video host is exactly what the click must cause (answered locally by page.route).
const baseUrl = inject("baseUrl");
const origin = new URL(baseUrl).origin;
const VIDEO_HOST = "https://www.youtube-nocookie.com";
const YOUTUBE = /(^|\.)(youtube(-nocookie)?\.com|ytimg\.com|googlevideo\.com)$/;

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});

describe("/gendarmerie video", () => {
  it("loads nothing from the video host until the click, then plays from youtube-nocookie.com", async () => {
    const context = await browser.newContext({ baseURL: baseUrl, locale: "fr-FR" });
    const foreign: string[] = [];
    const consoleErrors: string[] = [];
    // Nothing leaves the machine: the player is a local stand-in, any other host is refused.
    await context.route(
      (url) => url.origin !== origin,
      (route) =>
        new URL(route.request().url()).origin === VIDEO_HOST
          ? route.fulfill({
              status: 200,
              contentType: "text/html",
              body: "<!doctype html><title>Lecteur</title>",
            })
          : route.abort(),
    );
    const page = await context.newPage();
    page.on("request", (request) => {
      if (!/^(data|blob|about):/.test(request.url()) && new URL(request.url()).origin !== origin) {
        foreign.push(request.url());
      }
    });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    try {
      await page.goto("/gendarmerie");
      // A light page (decision 0090): its plain script has set its click handler once this resolves.
      await hydrated(page);
      const placeholder = page.getByRole("link", { name: /^Lire la vidéo/ });
      await placeholder.scrollIntoViewIfNeeded();
      await page.waitForLoadState("networkidle");
      expect(foreign.filter((url) => YOUTUBE.test(new URL(url).hostname))).toEqual([]);
      expect(foreign).toEqual([]);
      expect(await page.locator("iframe").count()).toBe(0);

      await placeholder.click();
      const iframe = page.locator("main iframe");
      await expect.poll(() => iframe.count()).toBe(1);
      const src = await iframe.getAttribute("src");
      expect(src).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+\?autoplay=1/);
      expect(await iframe.getAttribute("title")).toBeTruthy();
      await expect.poll(() => foreign.length).toBeGreaterThan(0);
      expect(foreign.every((url) => new URL(url).origin === VIDEO_HOST)).toBe(true);
      expect(page.url()).toBe(`${baseUrl}/gendarmerie`);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
