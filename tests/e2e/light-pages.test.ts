import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, mark, marked, useBrowser } from "./support/browser";

// Decision 0090: the marketing pages are complete server HTML with no framework JavaScript, only a small
// inline script (app/light-script.ts) for the header, its menus, the price tabs and the video (and, like every
// page, the fonts' switch in <head>, decision 0095); the blog's pages and the contact pages too (decision
// 0137); the newsletter's link pages and the error pages stay hydrated. What the server sends for them (no framework script, two small nonced
// ones): tests/http/light-pages.test.ts.

const { openPage } = useBrowser();

/** The scripts a page asked for, once it has settled. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || /\.m?js(\?|$)/.test(request.url())) {
      scripts.push(new URL(request.url()).pathname);
    }
  });
  return scripts;
}

describe("light pages", () => {
  it("request no JavaScript file in the browser, and answer once their script has run", async () => {
    for (const path of [
      "/",
      "/tarifs",
      "/studio-brive",
      "/gendarmerie",
      "/blog",
      "/contact",
      "/contact-studio-brive",
    ]) {
      const page = await openPage(path);
      const scripts = recordScripts(page);
      await page.reload();
      await page.waitForLoadState("networkidle");
      expect(scripts, path).toEqual([]);
      expect(
        await page.evaluate(() => Object.keys(document.documentElement.dataset)),
        path,
      ).toEqual(["enhanced"]);
      await page.context().close();
    }
  });

  it("read the scroll position only once the document is parsed: no layout forced before the first paint", async () => {
    const page = await openPage("/");
    await page.addInitScript(() => {
      const scrollY = Object.getOwnPropertyDescriptor(window, "scrollY");
      const getter = scrollY?.get;
      if (!getter) return;
      Object.defineProperty(window, "scrollY", {
        configurable: true,
        get() {
          const reads = ((window as unknown as { scrollReads?: string[] }).scrollReads ??= []);
          reads.push(document.readyState);
          return getter.call(window);
        },
      });
    });
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => (window as { scrollReads?: string[] }).scrollReads ?? []))
      .not.toEqual([]);
    // Decision 0132: read while the page was still being parsed, it forced a style and layout pass of the
    // whole page before its first frame.
    expect(
      await page.evaluate(() => (window as { scrollReads?: string[] }).scrollReads ?? []),
    ).not.toContain("loading");
    expect(await page.locator("header").getAttribute("data-scrolled")).toBe("false");
  });

  it("keep the 404 page hydrated, at a studio-like address too (it logs the address)", async () => {
    const page = await openPage("/studio-nulle-part", {
      allowConsole: [/^404 Error/, /status of 404/],
    });
    expect(await page.evaluate(() => "hydrated" in document.documentElement.dataset)).toBe(true);
  });

  it("turn the header solid past 50 px and back", async () => {
    const page = await openPage("/studio-brive");
    const header = page.locator("header").first();
    expect(await header.getAttribute("data-scrolled")).toBe("false");
    expect(await header.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      "rgba(0, 0, 0, 0)",
    );
    expect(await header.evaluate((element) => getComputedStyle(element).backdropFilter)).toBe(
      "none",
    );
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: "instant" }));
    await expect.poll(() => header.getAttribute("data-scrolled")).toBe("true");
    await expect
      .poll(() => header.evaluate((element) => getComputedStyle(element).boxShadow))
      .not.toBe("none");
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await expect.poll(() => header.getAttribute("data-scrolled")).toBe("false");
  });

  it("open and close the mobile menu with the mouse and the keyboard, the page behind kept still", async () => {
    const page = await openPage("/tarifs", { viewport: { width: 390, height: 844 } });
    const toggle = page.locator('button[aria-controls="menu-mobile"]');
    const menu = page.locator("#menu-mobile");
    const overflow = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).overflowY);
    expect(await menu.isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Ouvrir le menu" }).count()).toBe(1);

    await toggle.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByRole("button", { name: "Fermer le menu" }).count()).toBe(1);
    expect(await overflow()).toBe("hidden");
    await toggle.click();
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await overflow()).not.toBe("hidden");

    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(() => document.activeElement?.closest("#menu-mobile") !== null),
    ).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await page.getByRole("button", { name: "Ouvrir le menu" }).count()).toBe(1);
    expect(await overflow()).not.toBe("hidden");

    await page.keyboard.press("Space");
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("open the Studios menu on hover and close it when the mouse leaves; walk it with the keyboard: Space opens, Tab reaches each studio, Escape returns, Tab out closes", async () => {
    const page = await openPage("/", { viewport: { width: 1280, height: 800 } });
    const trigger = page.getByRole("button", { name: "Studios" });
    const list = page.locator("#menu-studios");
    await trigger.hover();
    await expect.poll(() => list.isVisible()).toBe(true);
    expect(await trigger.getAttribute("aria-expanded")).toBe("true");
    await list.getByRole("link").first().hover();
    expect(await list.isVisible()).toBe(true);
    await page.mouse.move(640, 600);
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await trigger.getAttribute("aria-expanded")).toBe("false");

    await trigger.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("true");
    const focused: string[] = [];
    for (let step = 0; step < 3; step++) {
      await page.keyboard.press("Tab");
      focused.push(await page.evaluate(() => document.activeElement?.getAttribute("href") ?? ""));
    }
    expect(focused).toEqual(["/studio-ussel", "/studio-brive", "/studio-limoges"]);
    await page.keyboard.press("Escape");
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await trigger.evaluate((button) => button === document.activeElement)).toBe(true);

    await page.keyboard.press("Enter");
    await expect.poll(() => list.isVisible()).toBe(true);
    for (let step = 0; step < 4; step++) await page.keyboard.press("Tab");
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("/tarifs");
  });
});

describe("between light and hydrated pages", () => {
  it("a hydrated page's links to light pages load a new document, at the top, with no framework script; back on the hydrated page, React takes over", async () => {
    // The newsletter's link page answers 400 without its token: the browser's console says so.
    const page = await openPage("/newsletter/confirmation", {
      viewport: { width: 1280, height: 800 },
      allowConsole: [/status of 400/],
    });
    const navigation = page.getByRole("navigation", { name: "Navigation principale" });
    await mark(page);
    await page.evaluate(() => window.scrollTo({ top: 300, behavior: "instant" }));
    const scripts = recordScripts(page);
    await navigation.getByRole("link", { name: "Tarifs" }).click();
    await page.waitForURL(/\/tarifs$/);
    await page.waitForFunction(() => document.documentElement.hasAttribute("data-enhanced"));
    expect(await marked(page)).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.waitForLoadState("networkidle");
    expect(scripts).toEqual([]);

    // No light page links to a hydrated public page any more (decision 0137: the contact pages were the
    // last); the way back is the history.
    await page.goBack();
    await page.waitForURL(/\/newsletter\/confirmation$/);
    await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
  });
});
