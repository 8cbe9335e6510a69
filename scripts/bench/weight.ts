// Section 3: what a phone downloads before any interaction, per page, from Chromium's own network events.
import { chromium } from "playwright-core";
import type { Context } from "./context.ts";
import { chromePath, chromeFlags } from "./lighthouse.ts";
import { measuredPages, startPageServer } from "./pages.ts";
import { metric, type Cell, type SectionResult } from "./report.ts";

type Kind = "html" | "js" | "css" | "font" | "image" | "other";

type PageWeight = {
  bytes: Record<Kind, number>;
  requests: number;
  thirdParty: string[];
  hero: { url: string; bytes: number } | null;
};

const kindOf = (type: string | undefined): Kind => {
  switch (type) {
    case "Document":
      return "html";
    case "Script":
      return "js";
    case "Stylesheet":
      return "css";
    case "Font":
      return "font";
    case "Image":
      return "image";
    default:
      return "other";
  }
};

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export async function weightSection(context: Context): Promise<Partial<SectionResult>> {
  const { server, close } = await startPageServer("weight");
  const browser = await chromium.launch({ executablePath: chromePath(), args: chromeFlags });
  const origin = new URL(server.baseUrl).origin;
  const rows: Cell[][] = [];
  const data: Record<string, PageWeight> = {};
  try {
    for (const page of measuredPages) {
      context.log(`weight ${page.path}`);
      const browserContext = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        userAgent:
          "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36",
      });
      const tab = await browserContext.newPage();
      const cdp = await browserContext.newCDPSession(tab);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      const requests = new Map<string, { url: string; kind: Kind }>();
      const weight: PageWeight = {
        bytes: { html: 0, js: 0, css: 0, font: 0, image: 0, other: 0 },
        requests: 0,
        thirdParty: [],
        hero: null,
      };
      const byUrl = new Map<string, number>();
      cdp.on("Network.requestWillBeSent", (event) => {
        requests.set(event.requestId, { url: event.request.url, kind: kindOf(event.type) });
        const url = new URL(event.request.url);
        if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== origin) {
          weight.thirdParty.push(event.request.url);
        }
      });
      cdp.on("Network.loadingFinished", (event) => {
        const request = requests.get(event.requestId);
        if (!request) return;
        weight.requests += 1;
        weight.bytes[request.kind] += event.encodedDataLength;
        byUrl.set(request.url, (byUrl.get(request.url) ?? 0) + event.encodedDataLength);
      });
      await tab.goto(`${server.baseUrl}${page.path}`, { waitUntil: "load", timeout: 60_000 });
      await tab.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);
      // The hero is the image that is the page's largest contentful paint, when it is an image.
      const lcpUrl = await tab.evaluate(
        () =>
          new Promise<string>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries() as Array<PerformanceEntry & { url?: string }>;
              resolve(entries.at(-1)?.url ?? "");
            }).observe({ type: "largest-contentful-paint", buffered: true });
            setTimeout(() => resolve(""), 3_000);
          }),
      );
      if (lcpUrl) weight.hero = { url: lcpUrl, bytes: byUrl.get(lcpUrl) ?? 0 };
      await browserContext.close();
      data[page.path] = weight;

      const budgetedJs = page.path === "/" || page.path.startsWith("/blog/");
      rows.push([
        `${page.name} (\`${page.path}\`)`,
        metric(kib(weight.bytes.html), "KB"),
        metric(kib(weight.bytes.js), "KB", budgetedJs ? { max: 130 } : undefined),
        metric(kib(weight.bytes.css), "KB", { max: 25 }),
        metric(kib(weight.bytes.font), "KB"),
        metric(kib(weight.bytes.image), "KB"),
        weight.hero ? metric(kib(weight.hero.bytes), "KB", { max: 150 }) : "no image hero",
        weight.requests,
        metric(weight.thirdParty.length, "", { equals: 0 }),
      ]);
    }
  } finally {
    await browser.close();
    await close();
  }
  return {
    title: "Weight (mobile, before interaction)",
    tables: [
      {
        caption:
          "Bytes transferred (compressed, headers included) until load + network idle; 390×844 viewport, device pixel ratio 2",
        columns: [
          "page",
          "HTML",
          "JavaScript",
          "CSS",
          "fonts",
          "images",
          "hero image",
          "requests",
          "third-party requests",
        ],
        rows,
      },
    ],
    notes: [
      "Measured in Chromium (playwright-core) with the cache disabled: Network.loadingFinished `encodedDataLength` per request, grouped by resource type; nothing is scrolled or clicked.",
      "The hero is the image that is the page's Largest Contentful Paint element; 1 KB = 1,024 bytes. The JavaScript budget applies to `/` and to an article.",
    ],
    data,
  };
}
