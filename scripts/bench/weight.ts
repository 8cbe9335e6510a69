// Section 3: what a phone downloads before any interaction, per page, from Chromium's own network events.
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import type { Context } from "./context.ts";
import { CHROMIUM_ARGS, chromiumPath } from "../lib/chromium.ts";
import { pageBudgets, measuredPages } from "./page-list.ts";
import { startPageServer } from "./pages.ts";
import { metric, type Cell, type SectionResult } from "./report.ts";

type Kind = "html" | "js" | "css" | "font" | "image" | "other";

export type PageWeight = {
  bytes: Record<Kind, number>;
  requests: number;
  /** Response headers of all requests (not in the per-type figures). */
  headerBytes: number;
  thirdParty: string[];
  hero: { url: string; bytes: number } | null;
  /** Every script with its compressed size, biggest first. */
  scripts: Array<{ url: string; bytes: number }>;
  /** Inline scripts of the HTML (also counted in its bytes): count, raw size, what they add gzipped. */
  inlineScripts: { count: number; bytes: number; gzipBytes: number };
  /** JavaScript before interaction: the scripts downloaded plus the inline scripts (gzip estimate). */
  javascriptBytes: number;
};

/** A booking page's script (decision 0189): all of it, and what it loads beyond every page. */
type BookingScript = {
  name: string;
  path: string;
  javascriptBytes: number;
  beyondCommonBytes: number;
  scripts: PageWeight["scripts"];
};

/** Decision 0189: the booking pages' script beyond what every page loads, in KB (1,024 bytes). */
export const bookingScriptBeyondCommonKiB = 5;

const javascriptTypes = new Set(["", "module", "text/javascript", "application/javascript"]);

/** Every inline script of an HTML document that the browser runs: its whole tag and its source. */
function inlineScripts(html: string): Array<{ tag: string; source: string }> {
  const found: Array<{ tag: string; source: string }> = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? "";
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
    const value = (type?.[1] ?? type?.[2] ?? type?.[3] ?? "").trim().toLowerCase();
    if (!javascriptTypes.has(value)) continue;
    const source = match[2] ?? "";
    if (source.trim()) found.push({ tag: match[0], source });
  }
  return found;
}

/**
 * The source of every inline script of an HTML document that the browser runs (no `src`, and a JavaScript
 * type or none: JSON-LD, import maps and the like are data).
 */
export function inlineScriptSources(html: string): string[] {
  return inlineScripts(html).map((script) => script.source);
}

/**
 * Inline scripts' count, raw bytes, and what they add to the compressed HTML: gzip -6 of the document minus
 * gzip -6 of the same document without them (they travel inside it, compressed with the rest).
 */
export function inlineScriptWeight(html: string): PageWeight["inlineScripts"] {
  const scripts = inlineScripts(html);
  if (scripts.length === 0) return { count: 0, bytes: 0, gzipBytes: 0 };
  let without = html;
  for (const { tag } of scripts) without = without.replace(tag, "");
  const gzip = (text: string) => gzipSync(text, { level: 6 }).length;
  return {
    count: scripts.length,
    bytes: scripts.reduce((sum, script) => sum + Buffer.byteLength(script.source), 0),
    gzipBytes: Math.max(0, gzip(html) - gzip(without)),
  };
}

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

export const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/**
 * What a phone downloads of one page before any interaction, in a fresh mobile context of `browser`: every
 * response body by type, the scripts and the inline scripts, the hero image.
 */
export async function measurePageWeight(
  browser: Browser,
  baseUrl: string,
  path: string,
): Promise<PageWeight> {
  const origin = new URL(baseUrl).origin;
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
    headerBytes: 0,
    thirdParty: [],
    hero: null,
    scripts: [],
    inlineScripts: { count: 0, bytes: 0, gzipBytes: 0 },
    javascriptBytes: 0,
  };
  const byUrl = new Map<string, number>();
  cdp.on("Network.requestWillBeSent", (event) => {
    requests.set(event.requestId, { url: event.request.url, kind: kindOf(event.type) });
    const url = new URL(event.request.url);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== origin) {
      weight.thirdParty.push(event.request.url);
    }
  });
  // Bytes received when the response head arrived: the headers (HTTP/1.1 on loopback).
  const headerBytes = new Map<string, number>();
  cdp.on("Network.responseReceived", (event) => {
    headerBytes.set(event.requestId, event.response.encodedDataLength);
  });
  cdp.on("Network.loadingFinished", (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    const headers = headerBytes.get(event.requestId) ?? 0;
    const body = Math.max(0, event.encodedDataLength - headers);
    weight.requests += 1;
    weight.bytes[request.kind] += body;
    weight.headerBytes += event.encodedDataLength - body;
    byUrl.set(request.url, (byUrl.get(request.url) ?? 0) + body);
    if (request.kind === "js") {
      weight.scripts.push({ url: request.url.replace(origin, ""), bytes: body });
    }
  });
  const response = await tab.goto(`${baseUrl}${path}`, {
    waitUntil: "load",
    timeout: 60_000,
  });
  weight.inlineScripts = inlineScriptWeight(response ? await response.text() : "");
  await tab.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);
  // The hero: the page's high-priority image, else the image that is its largest contentful paint.
  const lcpUrl = await tab.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const priority = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
        if (priority?.currentSrc) return resolve(priority.currentSrc);
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as Array<PerformanceEntry & { url?: string }>;
          resolve(entries.at(-1)?.url ?? "");
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(""), 3_000);
      }),
  );
  if (lcpUrl) weight.hero = { url: lcpUrl, bytes: byUrl.get(lcpUrl) ?? 0 };
  await browserContext.close();
  weight.scripts.sort((a, b) => b.bytes - a.bytes);
  weight.javascriptBytes = weight.bytes.js + weight.inlineScripts.gzipBytes;
  return weight;
}

/**
 * The script a page loads beyond what every page loads (`common`: the home page, whose only script is the
 * light pages' own): the compressed bytes of its downloaded scripts that `common` does not load, plus what
 * its inline scripts add gzipped beyond `common`'s (decision 0189: the booking pages' budget).
 */
export function scriptBytesBeyond(common: PageWeight, page: PageWeight): number {
  const shared = new Set(common.scripts.map((script) => script.url));
  const own = page.scripts.filter((script) => !shared.has(script.url));
  return (
    own.reduce((sum, script) => sum + script.bytes, 0) +
    Math.max(0, page.inlineScripts.gzipBytes - common.inlineScripts.gzipBytes)
  );
}

/** The first `href` of `html` that contains `part`, with its entities and fragment taken off. */
export function firstLink(html: string, part: string): string | null {
  for (const match of html.matchAll(/href="([^"]+)"/g)) {
    const href = (match[1] ?? "").replace(/&amp;/g, "&").replace(/#.*$/, "");
    if (href.includes(part)) return href;
  }
  return null;
}

/**
 * The booking journey after the studio's page (measured with the other pages): the session type's page,
 * its first day with free times, and the details form of that day's first time (where the deposit is
 * shown), each found in the page before as a visitor's click would.
 */
async function bookingJourney(
  baseUrl: string,
  bookingPath: string,
): Promise<Array<{ name: string; path: string }>> {
  const html = async (path: string) => (await fetch(`${baseUrl}${path}`)).text();
  const journey = [
    { name: "réserver", path: "/reserver" },
    { name: "réserver Brive, séance", path: bookingPath },
  ];
  const dayPath = firstLink(await html(bookingPath), "jour=");
  if (!dayPath) return journey;
  journey.push({ name: "réserver Brive, séance, un jour", path: dayPath });
  const detailsPath = firstLink(await html(dayPath), "/coordonnees?creneau=");
  if (detailsPath) journey.push({ name: "réserver Brive, coordonnées", path: detailsPath });
  return journey;
}

export async function weightSection(context: Context): Promise<Partial<SectionResult>> {
  const { server, bookingPath, close } = await startPageServer("weight");
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const rows: Cell[][] = [];
  const notes: string[] = [];
  const data: Record<string, PageWeight> = {};
  let booking: BookingScript[] = [];
  let bookingRows: Cell[][] = [];
  try {
    for (const page of measuredPages) {
      context.log(`weight ${page.path}`);
      const weight = await measurePageWeight(browser, server.baseUrl, page.path);
      data[page.path] = weight;

      const jsBudget = pageBudgets.jsKiB[page.kind];
      if (weight.javascriptBytes > jsBudget * 1024) {
        const biggest = weight.scripts
          .slice(0, 6)
          .map((script) => `\`${script.url}\` ${kib(script.bytes)} KB`)
          .join(", ");
        const inline = `${weight.inlineScripts.count}, ${kib(weight.inlineScripts.gzipBytes)} KB gzipped`;
        notes.push(
          `\`${page.path}\` loads ${weight.scripts.length} scripts; the biggest: ${biggest}; inline scripts: ${inline}.`,
        );
      }
      rows.push([
        `${page.name} (\`${page.path}\`, ${page.kind})`,
        metric(kib(weight.bytes.html), "KB"),
        metric(kib(weight.javascriptBytes), "KB", { max: jsBudget }),
        metric(kib(weight.inlineScripts.gzipBytes), "KB"),
        metric(kib(weight.bytes.css), "KB", { max: 25 }),
        metric(kib(weight.bytes.font), "KB"),
        metric(kib(weight.bytes.image), "KB"),
        weight.hero ? metric(kib(weight.hero.bytes), "KB", { max: 150 }) : "no image hero",
        weight.requests,
        metric(kib(weight.headerBytes), "KB"),
        metric(weight.thirdParty.length, "", { equals: 0 }),
      ]);
    }
    // The booking pages (decision 0189): the script each loads beyond what every page loads.
    const common = data["/"];
    const studioPage = data["/reserver/brive"];
    if (common && studioPage) {
      const journey = await bookingJourney(server.baseUrl, bookingPath);
      const measured: Array<{ name: string; path: string; weight: PageWeight }> = [];
      for (const page of journey.slice(0, 1)) {
        context.log(`weight ${page.path}`);
        measured.push({
          ...page,
          weight: await measurePageWeight(browser, server.baseUrl, page.path),
        });
      }
      measured.push({ name: "réserver Brive", path: "/reserver/brive", weight: studioPage });
      for (const page of journey.slice(1)) {
        context.log(`weight ${page.path}`);
        measured.push({
          ...page,
          weight: await measurePageWeight(browser, server.baseUrl, page.path),
        });
      }
      if (!measured.some((page) => page.path.includes("/coordonnees?"))) {
        notes.push(
          `The booking journey stopped before the details form: no free time was found from \`${bookingPath}\`.`,
        );
      }
      booking = measured.map(({ name, path, weight }) => ({
        name,
        path,
        javascriptBytes: weight.javascriptBytes,
        beyondCommonBytes: scriptBytesBeyond(common, weight),
        scripts: weight.scripts,
      }));
      bookingRows = booking.map((page) => [
        `${page.name} (\`${page.path.replace(/creneau=[^&]+/, "creneau=…")}\`)`,
        metric(kib(page.javascriptBytes), "KB"),
        metric(kib(page.beyondCommonBytes), "KB", { max: bookingScriptBeyondCommonKiB }),
        page.scripts
          .filter((script) => !common.scripts.some((each) => each.url === script.url))
          .map((script) => `\`${script.url}\``)
          .join(", ") || "none",
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
          "Compressed bytes of response bodies until load + network idle (headers counted apart); 390×844 viewport, device pixel ratio 2",
        columns: [
          "page",
          "HTML",
          "JavaScript",
          "of which inline",
          "CSS",
          "fonts",
          "images",
          "hero image",
          "requests",
          "response headers",
          "third-party requests",
        ],
        rows,
      },
      {
        caption: `The booking pages, from the studio's page to the details form: JavaScript loaded, and the script beyond what every page loads (the home page's), ≤ ${bookingScriptBeyondCommonKiB} KB (decision 0189)`,
        columns: ["page", "JavaScript", "beyond every page's", "scripts not on `/`"],
        rows: bookingRows,
      },
    ],
    notes: [
      "Measured in Chromium (playwright-core) with the cache disabled: per request, CDP `Network.loadingFinished.encodedDataLength` (bytes on the wire) minus the response head (`Network.responseReceived` `encodedDataLength`), grouped by resource type; nothing is scrolled or clicked. JavaScript = the scripts downloaded + the inline scripts of the HTML that the browser runs (no `src`, a JavaScript type or none; JSON-LD excluded), the latter as what they add to the gzip -6 of the HTML (gzip of the document minus gzip of the document without them; they are also in the HTML's bytes).",
      ...notes,
      `The hero is the page's \`fetchpriority=high\` image, else its Largest Contentful Paint image; 1 KB = 1,024 bytes. JavaScript budget (decision 0132): ≤ ${pageBudgets.jsKiB.light} KB on the light pages (no framework JavaScript), ≤ ${pageBudgets.jsKiB.hydrated} KB on the hydrated ones (the contact pages; the blog is light since decision 0137).`,
      `The booking pages (decision 0189): the session type's page, its first day with free times and that time's details form are found by following the pages' own links, as a visitor would. « Beyond every page's » = the compressed bytes of the scripts the page downloads that \`/\` does not, plus what its inline scripts add gzipped beyond those of \`/\` (the light pages' script, which every page loads); budget ≤ ${bookingScriptBeyondCommonKiB} KB, so that the deposit's step stays light.`,
    ],
    data: { ...data, booking },
  };
}
