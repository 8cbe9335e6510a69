import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from "playwright-core";
import { afterEach, beforeAll, expect, inject } from "vitest";
import { CHROMIUM_ARGS, chromiumPath, headlessShellPath } from "../../../scripts/lib/chromium";
import type { SessionCookie } from "../../support/accounts";

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

type PageOptions = BrowserContextOptions & {
  /** Console errors this test expects (e.g. the 404 page's log line); any other one fails the test. */
  allowConsole?: RegExp[];
  /** A session to hold before the first request (`useAdmin().session()`): signed in by cookie. */
  session?: SessionCookie;
  /** Other origins the page may reach (a payment provider's hosted page): their requests are expected. */
  allowOrigins?: string[];
  /**
   * The page's timers on Playwright's clock (`clock.install`, before the first request): time flows as
   * usual until the test moves it on (`page.clock.fastForward`), for a delay of the page's own that the
   * test would otherwise sit through, such as the editor's autosave (decision 0175).
   */
  clock?: boolean;
  /**
   * `"commit"`: `openPage` returns as soon as the document's first bytes came, the page still loading
   * (for a test that holds the rest back); by default it returns once the page is loaded and answers.
   */
  waitUntil?: "commit";
};

type Problems = { consoleErrors: string[]; foreignRequests: string[] };

type Engine = "headless-shell" | "chromium";
const launched = new Map<Engine, Promise<Browser>>();

/**
 * The worker's browser, launched by its first test file and used by the next ones (the e2e project does not
 * isolate files: vitest.config.ts): each test still gets new contexts, with nothing shared but the process.
 * The headless shell by default; the full Chromium for what depends on how it draws text (decision 0120).
 * Playwright ends them when the worker exits; one that crashed is launched again.
 */
export async function workerBrowser(engine: Engine = "headless-shell"): Promise<Browser> {
  const current = await launched.get(engine)?.catch(() => undefined);
  if (current?.isConnected()) return current;
  const executablePath = engine === "chromium" ? chromiumPath() : headlessShellPath();
  const launching = chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  launched.set(engine, launching);
  return launching;
}

/**
 * Sets up a browser for the test file and returns `openPage`. After each test it checks that the page
 * printed no unexpected console error (CSP violations and hydration errors are console errors) and made
 * no request outside the site under test.
 */
export function useBrowser(options: { baseUrl?: () => string; engine?: Engine } = {}) {
  let browser: Browser | undefined;
  const opened: Array<{ page: Page; problems: Problems; allow: RegExp[] }> = [];

  beforeAll(async () => {
    browser = await workerBrowser(options.engine);
  });

  afterEach(async () => {
    const pages = opened.splice(0);
    // Closed before any check fails: the worker's browser serves its next files.
    for (const { page } of pages) await page.context().close();
    for (const { problems, allow } of pages) {
      const unexpected = problems.consoleErrors.filter(
        (text) => !allow.some((pattern) => pattern.test(text)),
      );
      expect(unexpected, "erreurs dans la console du navigateur").toEqual([]);
      expect(problems.foreignRequests, "requêtes vers un autre hôte").toEqual([]);
    }
  });

  // The suite's shared server, or a server of the test file's own (known once its `beforeAll` ran).
  const baseUrl = inject("baseUrl");
  const target = options.baseUrl ?? (() => baseUrl);

  /** A new browser context (no cookies) and page, navigated to `path`. */
  async function openPage(path: string, options: PageOptions = {}): Promise<Page> {
    if (!browser) throw new Error("browser not started");
    const {
      allowConsole = [],
      session,
      allowOrigins = [],
      clock,
      waitUntil,
      ...contextOptions
    } = options;
    const origin = new URL(target()).origin;
    const context = await browser.newContext({
      baseURL: target(),
      locale: "fr-FR",
      ...contextOptions,
    });
    if (session) {
      await context.addCookies([
        { ...session, url: origin, httpOnly: true, sameSite: "Lax", secure: false },
      ]);
    }
    if (clock) await context.clock.install();
    const page = await context.newPage();
    const problems: Problems = { consoleErrors: [], foreignRequests: [] };
    page.on("console", (message) => {
      if (message.type() === "error") problems.consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => problems.consoleErrors.push(`pageerror: ${error.message}`));
    page.on("request", (request) => {
      const url = request.url();
      if (/^(data|blob|about):/.test(url)) return;
      const from = new URL(url).origin;
      if (from !== origin && !allowOrigins.includes(from)) problems.foreignRequests.push(url);
    });
    opened.push({ page, problems, allow: allowConsole });
    const firstBytes = page.goto.bind(page);
    if (contextOptions.javaScriptEnabled !== false) waitForHydrationOnNavigation(page);
    if (waitUntil === "commit") await firstBytes(path, { waitUntil: "commit" });
    else await page.goto(path);
    return page;
  }

  return { openPage, baseUrl };
}

/**
 * Waits until the page answers clicks and keys: React has taken over a hydrated page (`<html data-hydrated>`,
 * set by the root layout; the scripts start after the first paint, so `load` can come before), or the plain
 * script of a light page has run (`<html data-enhanced>`, decision 0090).
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.documentElement;
      return root.hasAttribute("data-hydrated") || root.hasAttribute("data-enhanced");
    },
    null,
    { timeout: 15_000 },
  );
}

/** A mark on the window: gone after a document navigation, kept by a client-side one (`marked`). */
export const mark = (page: Page) =>
  page.evaluate(() => ((window as unknown as { mark: boolean }).mark = true));
export const marked = (page: Page) =>
  page.evaluate(() => (window as unknown as { mark?: boolean }).mark === true);

/** Makes the page's `goto` and `reload` resolve only once the new document answers (see `hydrated`). */
export function waitForHydrationOnNavigation(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated(page);
    return response;
  };
}

type AxeViolation = { id: string; help: string; targets: string[] };

/** The rules axe runs: WCAG 2.2 A/AA and best practices. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Runs axe-core (WCAG 2.2 A/AA and best practices) on the page and returns its violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // A toast or dialog still fading in has a colour contrast of its own for a few frames: axe measures the
  // page at rest, after the finite animations and transitions under way (bounded: 2 s).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  // evaluate() goes through the DevTools protocol, so the page's own CSP stays enforced. Once per document:
  // a second check of the same page finds it there.
  const loaded = await page.evaluate(
    () => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function",
  );
  if (!loaded) await page.evaluate(axeSource);
  // Every rule still runs on every element. What changes is what comes back (decision 0175): the
  // violations only, each reduced in the page to what the tests compare. axe's whole result named every
  // element each rule passed, with a selector made for each: 0.9 to 3 MB of JSON through the DevTools
  // protocol on the admin's photo pages, 2 to 5 s a check, where running the rules took 0.5 to 2 s.
  // `resultTypes` keeps one element of each passed, incomplete or inapplicable rule and leaves the
  // violations whole.
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{
          violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown }> }>;
        }>;
      };
    };
    const results = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)),
    }));
  }, AXE_TAGS);
}

export type Shifts = {
  /** Every layout shift of the page so far (buffered entries). */
  total: number;
  /** Those the visitor did not cause: a click's own 500 ms are the layout's to use, as CLS counts. */
  unexpected: number;
  /** The elements outside the site's header that moved without the visitor causing it. */
  unexpectedOutsideHeader: string[];
};

/**
 * The layout shifts of the page so far (buffered), read 100 ms after the call; with `since` (a time of the
 * page's performance timeline), only those from that moment on.
 */
export function layoutShifts(page: Page, { since = 0 }: { since?: number } = {}): Promise<Shifts> {
  return page.evaluate(
    (since) =>
      new Promise<Shifts>((resolve) => {
        const shifts: Shifts = { total: 0, unexpected: 0, unexpectedOutsideHeader: [] };
        const header = document.querySelector("header");
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (entry.startTime < since) continue;
            const shift = entry as unknown as {
              value: number;
              hadRecentInput: boolean;
              sources: Array<{ node: Node | null }>;
            };
            shifts.total += shift.value;
            if (shift.hadRecentInput) continue;
            shifts.unexpected += shift.value;
            for (const { node } of shift.sources) {
              if (node && header?.contains(node)) continue;
              shifts.unexpectedOutsideHeader.push(
                node instanceof Element ? node.outerHTML.slice(0, 120) : String(node?.nodeName),
              );
            }
          }
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(shifts), 100);
      }),
    since,
  );
}

/** An element's text colour, the background it is drawn on (both sRGB "r,g,b") and their WCAG contrast. */
export type TextContrast = { text: string; background: string; ratio: number };

/**
 * The WCAG contrast of `locator`'s text over its background (its own, else the nearest ancestor's that is
 * not transparent). Computed colours are oklch with Tailwind 4: a 1×1 canvas turns them into sRGB. axe
 * cannot be relied on here: it reports text of the very colour of its background as « incomplete », not as
 * a violation.
 */
export function textContrast(locator: Locator): Promise<TextContrast> {
  return locator.evaluate((element) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    if (!context) throw new Error("no 2D canvas");
    const srgb = (colour: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      const [red = 0, green = 0, blue = 0, alpha = 0] = context.getImageData(0, 0, 1, 1).data;
      return { channels: [red, green, blue], alpha };
    };
    let backdrop: Element | null = element;
    let background = srgb("white").channels;
    while (backdrop) {
      const colour = srgb(getComputedStyle(backdrop).backgroundColor);
      if (colour.alpha === 255) {
        background = colour.channels;
        break;
      }
      backdrop = backdrop.parentElement;
    }
    const text = srgb(getComputedStyle(element).color).channels;
    const luminance = (channels: number[]) => {
      const [red = 0, green = 0, blue = 0] = channels.map((channel) => {
        const value = channel / 255;
        return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
    };
    const [lighter, darker] = [luminance(text), luminance(background)].sort((a, b) => b - a);
    return {
      text: text.join(","),
      background: background.join(","),
      ratio: ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05),
    };
  });
}
