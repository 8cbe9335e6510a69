import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

// The links the header and footer send (current page, footer pages, social profiles) are checked in
// tests/http/layout.test.ts; here, how the header behaves in a browser.

const { openPage } = useBrowser();

const studioPages = ["/studio-ussel", "/studio-brive", "/studio-limoges"];

describe("header", () => {
  it("is transparent with white links at the top, then blurred with a shadow and dark links past 50 px", async () => {
    const page = await openPage("/");
    const header = page.locator("header").first();
    const link = header.getByRole("link", { name: "Tarifs" });
    const style = () =>
      header.evaluate((element) => {
        const css = getComputedStyle(element);
        return { background: css.backgroundColor, shadow: css.boxShadow, blur: css.backdropFilter };
      });
    await expect.poll(() => header.getAttribute("data-scrolled")).toBe("false");
    expect((await style()).background).toBe("rgba(0, 0, 0, 0)");
    expect(await link.evaluate((element) => getComputedStyle(element).color)).toBe(
      "rgb(255, 255, 255)",
    );

    // Below the threshold: read once the page has handled the scroll (its listener was added first).
    const scrolledAt40 = await page.evaluate(
      () =>
        new Promise<string | undefined>((resolve) => {
          window.addEventListener(
            "scroll",
            () => resolve(document.querySelector<HTMLElement>("header")?.dataset.scrolled),
            { once: true },
          );
          window.scrollTo(0, 40);
        }),
    );
    expect(scrolledAt40).toBe("false");

    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(() => header.getAttribute("data-scrolled")).toBe("true");
    await expect.poll(async () => (await style()).shadow).not.toBe("none");
    expect((await style()).blur).toContain("blur");
    await expect
      .poll(() => link.evaluate((element) => getComputedStyle(element).color))
      .not.toBe("rgb(255, 255, 255)");
  });

  it("opens the Studios menu with the keyboard, reaching each studio, and on hover", async () => {
    const page = await openPage("/", { viewport: { width: 1280, height: 800 } });
    const nav = page.getByRole("navigation", { name: "Navigation principale" });
    const trigger = nav.getByRole("button", { name: "Studios" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("true");
    const focused: string[] = [];
    for (let step = 0; step < 3; step++) {
      await page.keyboard.press("Tab");
      focused.push(await page.evaluate(() => document.activeElement?.getAttribute("href") ?? ""));
    }
    expect(focused).toEqual(studioPages);
    await page.keyboard.press("Escape");
    await expect.poll(() => trigger.getAttribute("aria-expanded")).toBe("false");
    for (const path of studioPages)
      expect(await nav.locator(`a[href="${path}"]`).isVisible()).toBe(false);

    await trigger.hover();
    for (const path of studioPages) {
      await expect.poll(() => nav.locator(`a[href="${path}"]`).isVisible()).toBe(true);
    }
  });

  it("on a phone, a toggle opens every link with studios indented, and choosing one closes it", async () => {
    const page = await openPage("/", { viewport: { width: 390, height: 844 } });
    expect(await page.getByRole("navigation", { name: "Navigation principale" }).isVisible()).toBe(
      false,
    );
    const toggle = page.getByRole("button", { name: "Ouvrir le menu" });
    await toggle.click();
    const menu = page.locator("#menu-mobile");
    await expect.poll(() => menu.isVisible()).toBe(true);
    const hrefs = await menu
      .locator("a")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs).toEqual([
      "/",
      "/prestations",
      ...studioPages,
      "/tarifs",
      "/galerie",
      "/blog",
      "/contact",
      "/contact",
    ]);
    const indent = (path: string) =>
      menu.locator(`a[href="${path}"]`).evaluate((link) => link.getBoundingClientRect().left);
    expect(await indent("/studio-ussel")).toBeGreaterThan(await indent("/tarifs"));

    await menu.getByRole("link", { name: "Tarifs" }).click();
    await page.waitForURL(/\/tarifs$/);
    // The menu stays in the markup, hidden, for light pages' script (decision 0090).
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(
      await page.getByRole("button", { name: "Ouvrir le menu" }).getAttribute("aria-expanded"),
    ).toBe("false");
  });

  it("on a phone, the open menu keeps the page behind still and closes with Escape, focus back on the toggle", async () => {
    const page = await openPage("/blog", { viewport: { width: 390, height: 844 } });
    const toggle = page.locator('button[aria-controls="menu-mobile"]');
    const pageScrolls = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).overflowY !== "hidden");
    expect(await pageScrolls()).toBe(true);
    await toggle.click();
    const menu = page.locator("#menu-mobile");
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await pageScrolls()).toBe(false);
    // A wheel over the page below the menu moves nothing.
    await page.mouse.move(200, 830);
    await page.mouse.wheel(0, 800);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await menu.getByRole("link", { name: "Tarifs" }).focus();
    await page.keyboard.press("Escape");
    // The menu stays in the markup, hidden, for light pages' script (decision 0090).
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await pageScrolls()).toBe(true);
  });

  it("on a 375 px phone, « Réserver » sits beside the menu toggle, inside the screen, the brand beside them", async () => {
    const page = await openPage("/", { viewport: { width: 375, height: 740 } });
    const header = page.locator("header").first();
    const reserve = header
      .getByRole("link", { name: "Réserver", exact: true })
      .filter({ visible: true });
    const toggle = page.getByRole("button", { name: "Ouvrir le menu" });
    const box = async (locator: typeof toggle) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error("not drawn");
      return found;
    };
    const reserveBox = await box(reserve);
    const toggleBox = await box(toggle);
    const logoBox = await box(header.getByRole("link", { name: /accueil/ }));
    expect(reserveBox.height).toBeGreaterThanOrEqual(44);
    expect(reserveBox.x + reserveBox.width).toBeLessThanOrEqual(toggleBox.x);
    expect(toggleBox.x + toggleBox.width).toBeLessThanOrEqual(375);
    expect(logoBox.x + logoBox.width).toBeLessThanOrEqual(reserveBox.x);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    expect(await reserve.getAttribute("href")).toBe("/contact");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("on a phone without JavaScript, the menu opens and closes from its own button and its links work", async () => {
    for (const path of ["/", "/tarifs"]) {
      const page = await openPage(path, {
        viewport: { width: 375, height: 740 },
        javaScriptEnabled: false,
      });
      const summary = page.locator("header summary");
      const menu = page.locator("#menu-mobile");
      expect(await menu.isVisible(), path).toBe(false);
      // The scripted button keeps its place, out of reach; the summary stands there instead.
      expect(await page.locator('button[aria-controls="menu-mobile"]').isVisible()).toBe(false);
      await summary.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => menu.isVisible()).toBe(true);
      await summary.click();
      await expect.poll(() => menu.isVisible()).toBe(false);
      await summary.click();
      await menu.getByRole("link", { name: "Galerie" }).click();
      await page.waitForURL(/\/galerie$/);
    }
  });

  it("scrolls to the top on every navigation", async () => {
    const page = await openPage("/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.locator("footer").getByRole("link", { name: "Mentions légales" }).click();
    await page.waitForURL(/\/mentions-legales$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
