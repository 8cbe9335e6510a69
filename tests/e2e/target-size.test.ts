import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./support/browser";

const { openPage } = useBrowser();

/** The pages a visitor on a phone goes through first. */
const pages = [
  "/",
  "/prestations",
  "/tarifs",
  "/galerie",
  "/studio-brive",
  "/contact-studio-brive",
  "/contact",
  "/blog",
  "/mentions-legales",
  "/studio-ussel",
  "/contact-studio-ussel",
];

type Target = { text: string; width: number; height: number; main: boolean };

/** A visitor on a phone taps a studio's number to call it: 44 px high, even inside a sentence. */
const PHONE_LINK = 'a[href^="tel:"]';

/**
 * Every visible link and button, with its size. Links inside running text are left out (WCAG 2.2 2.5.8 exempts
 * them: their height is the line's). The main targets (header, primary buttons, 'Lire la suite') are marked.
 */
function targets(page: Page): Promise<Target[]> {
  return page.evaluate((phoneLink) => {
    const inRunningText = (element: Element) => {
      if (getComputedStyle(element).display !== "inline") return false;
      const parent = element.parentElement;
      if (!parent) return false;
      return [...parent.childNodes].some(
        (node) => node !== element && (node.textContent ?? "").trim().length > 0,
      );
    };
    return [...document.querySelectorAll("a[href], button, summary, input[type=submit]")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        const hidden = box.width === 0 || box.height === 0 || style.visibility === "hidden";
        // Visually hidden until focused (the skip link): measured by the layout test when it shows.
        const screenReaderOnly =
          style.clipPath === "inset(50%)" || style.clip === "rect(0px, 0px, 0px, 0px)";
        return (
          !hidden && !screenReaderOnly && (element.matches(phoneLink) || !inRunningText(element))
        );
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name = (element.textContent ?? "").trim() || element.getAttribute("aria-label") || "";
        // The look of components/ui/button.tsx (its base classes).
        const looksLikeButton = ["rounded-full", "justify-center", "whitespace-nowrap"].every(
          (name) => element.classList.contains(name),
        );
        const main =
          element.matches(phoneLink) ||
          element.closest("header") !== null ||
          name.startsWith("Lire la suite") ||
          (looksLikeButton && element.closest("main") !== null);
        return {
          text: `${element.tagName.toLowerCase()} « ${name.slice(0, 40)} »`,
          width: Math.round(box.width * 10) / 10,
          height: Math.round(box.height * 10) / 10,
          main,
        };
      });
  }, PHONE_LINK);
}

describe("touch targets on a phone", () => {
  it("are at least 24 × 24 px, and 44 px high for the main ones", async () => {
    const tooSmall: string[] = [];
    for (const path of pages) {
      const page = await openPage(path, { viewport: { width: 390, height: 844 }, hasTouch: true });
      for (const target of await targets(page)) {
        const minimum = target.main ? 44 : 24;
        if (target.height < minimum || target.width < 24)
          tooSmall.push(`${path} ${target.text} ${target.width}×${target.height} < ${minimum}`);
      }
      // The open mobile menu's links too.
      if (path === "/") {
        await page.locator('button[aria-controls="menu-mobile"]').click();
        await page.locator("#menu-mobile").waitFor();
        for (const target of await targets(page)) {
          if (target.height < 44 && target.main)
            tooSmall.push(`menu ${target.text} ${target.width}×${target.height} < 44`);
        }
      }
      await page.context().close();
    }
    expect(tooSmall).toEqual([]);
  });
});
