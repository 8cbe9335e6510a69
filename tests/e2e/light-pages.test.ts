import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, mark, marked, useBrowser } from "./support/browser";

// Decision 0090: the marketing pages are complete server HTML with no framework JavaScript, only a small
// inline script (app/light-script.ts) for the header, its menus, the price tabs and the video (and, like every
// page, the fonts' switch in <head>, decision 0095); the pages with forms, the blog and the error pages stay
// hydrated.

const { openPage, baseUrl } = useBrowser();

const lightPages = [
  "/",
  "/prestations",
  "/prestations/grossesse",
  "/prestations/naissances",
  "/prestations/mariages",
  "/portrait-famille",
  "/boudoir",
  "/professionnels",
  "/gendarmerie",
  "/scolaire",
  "/seances-a-offrir",
  "/studio-ussel",
  "/studio-brive",
  "/studio-limoges",
  "/tarifs",
  "/galerie",
  "/mentions-legales",
  "/donnees-personnelles",
  "/politique-cookies",
];
const hydratedPages = ["/blog", "/contact", "/contact-studio-brive", "/newsletter/confirmation"];

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
  it("are served without React Router's scripts, module preloads or hand-off, with two small nonced scripts", async () => {
    for (const path of lightPages) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).not.toMatch(/rel="modulepreload"|type="module"|rr-scripts/);
      expect(html, path).not.toContain("__reactRouterContext");
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
        ([, attributes]) => !/type="application\/ld\+json"/.test(attributes ?? ""),
      );
      // The page's own script, and the fonts' switch in <head> (decision 0095): together within 5 KB.
      expect(scripts.length, path).toBe(2);
      const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(
        response.headers.get("content-security-policy") ?? "",
      )?.[1];
      for (const [, attributes] of scripts) expect(attributes, path).toContain(`nonce="${nonce}"`);
      const bytes = scripts.reduce((sum, [, , source]) => sum + Buffer.byteLength(source ?? ""), 0);
      expect(bytes, path).toBeLessThan(5 * 1024);
    }
    for (const path of hydratedPages) {
      const html = await (await fetch(`${baseUrl}${path}`)).text();
      expect(html, path).toMatch(/<noscript id="rr-scripts">[\s\S]*type="module"/);
    }
  });

  it("request no JavaScript file in the browser, and answer once their script has run", async () => {
    for (const path of ["/", "/tarifs", "/studio-brive", "/gendarmerie"]) {
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

  it("open the Studios menu on hover and close it when the mouse leaves", async () => {
    const page = await openPage("/galerie", { viewport: { width: 1280, height: 800 } });
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
  });

  it("walk the Studios menu with the keyboard: Space opens, Tab reaches each studio, Escape returns, Tab out closes", async () => {
    const page = await openPage("/", { viewport: { width: 1280, height: 800 } });
    const trigger = page.getByRole("button", { name: "Studios" });
    const list = page.locator("#menu-studios");
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

  it("scroll to #studios in the page", async () => {
    const page = await openPage("/");
    await mark(page);
    await page.getByRole("link", { name: "Découvrir nos studios" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/#studios$/);
    await expect
      .poll(() =>
        page.locator("#studios").evaluate((element) => element.getBoundingClientRect().top),
      )
      .toBeLessThan(200);
    expect(await marked(page)).toBe(true);
  });

  it("switch price tabs with the mouse and the arrows without reloading, the URL in step", async () => {
    const page = await openPage("/tarifs");
    const tab = (name: string) => page.getByRole("tab", { name, exact: true });
    await mark(page);
    expect(await tab("Pro & Mariages").getAttribute("tabindex")).toBe("-1");

    await tab("Pro & Mariages").click();
    await page.waitForURL(/\/tarifs\?onglet=pro$/);
    expect(await tab("Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(await page.locator("#panneau-pro").isVisible()).toBe(true);
    expect(await page.locator("#panneau-particuliers").isVisible()).toBe(false);
    expect(await tab("Particuliers").getAttribute("tabindex")).toBe("-1");

    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/onglet=particuliers$/);
    expect(await page.locator("#panneau-particuliers").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Particuliers");
    await page.keyboard.press("End");
    await page.waitForURL(/onglet=pro$/);
    await page.keyboard.press("Home");
    await page.waitForURL(/onglet=particuliers$/);
    // Tab leaves the tab list for the chosen panel's content.
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(() => document.activeElement?.closest("#panneau-particuliers") !== null),
    ).toBe(true);
    expect(await marked(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("have no accessibility violation", async () => {
    for (const path of ["/", "/studio-brive", "/gendarmerie", "/galerie", "/mentions-legales"]) {
      const page = await openPage(path);
      expect(await axeViolations(page), path).toEqual([]);
      await page.context().close();
    }
  });
});

describe("between light and hydrated pages", () => {
  it("a hydrated page's links to light pages load a new document, at the top, with no framework script", async () => {
    const page = await openPage("/blog", { viewport: { width: 1280, height: 800 } });
    await mark(page);
    await page.evaluate(() => window.scrollTo({ top: 300, behavior: "instant" }));
    const scripts = recordScripts(page);
    await page
      .getByRole("navigation", { name: "Navigation principale" })
      .getByRole("link", { name: "Tarifs" })
      .click();
    await page.waitForURL(/\/tarifs$/);
    await page.waitForFunction(() => document.documentElement.hasAttribute("data-enhanced"));
    expect(await marked(page)).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.waitForLoadState("networkidle");
    expect(scripts).toEqual([]);
  });

  it("a light page's links to hydrated pages load them, and React takes over", async () => {
    const page = await openPage("/tarifs", { viewport: { width: 1280, height: 800 } });
    await page
      .getByRole("navigation", { name: "Navigation principale" })
      .getByRole("link", { name: "Blog" })
      .click();
    await page.waitForURL(/\/blog$/);
    await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});
