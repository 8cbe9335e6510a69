import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { studios } from "../support/studios";

// What the contact pages send (texts, tags, the fields of each form) is in tests/http/contact-pages.test.ts;
// here, what a visitor's browser makes of them.

const { openPage } = useBrowser();

describe("studio contact pages", () => {
  for (const studio of studios) {
    describe(studio.contactPath, () => {
      it("has no accessibility violation at 390 px, nothing wider than the screen, the spam trap off it", async () => {
        const page = await openPage(studio.contactPath, { viewport: { width: 390, height: 844 } });
        expect(await axeViolations(page)).toEqual([]);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        // People never see the spam trap (bots fill in every field): it lies left of the page.
        const trap = await page.locator("input[name=site_web]").boundingBox();
        expect((trap?.x ?? 0) + (trap?.width ?? 0)).toBeLessThanOrEqual(0);
      });
    });
  }

  it("keeps the cards in place while the form is still arriving (a first paint before the whole HTML)", async () => {
    // A busy computer may draw the page before the form is parsed; when the form then fills its column, the
    // cards beside it must not move (they did: the list stretched its rows to the form's height, CLS > 0).
    const page = await openPage("/contact-studio-brive", {
      viewport: { width: 1280, height: 720 },
    });
    const cardTops = () =>
      page
        .locator("main li:has(h2)")
        .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().top));
    const withForm = await cardTops();
    expect(withForm).toHaveLength(3);
    await page.locator("form[method=post]").evaluate((form) => {
      (form.parentElement as HTMLElement).style.display = "none";
    });
    expect(await cardTops()).toEqual(withForm);
  });
});

describe("/contact", () => {
  it("has no accessibility violation at 390 px, and lets the visitor choose the studio, showing that studio's own form", async () => {
    const page = await openPage("/contact?studio=brive", { viewport: { width: 390, height: 844 } });
    expect(await axeViolations(page)).toEqual([]);
    const choice = page.getByRole("navigation", { name: "À quel studio écrivez-vous ?" });
    const form = page.locator("form[method=post]");
    const shootingTypes = () =>
      form
        .locator("select[name=shootingType] option")
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(await choice.locator("[aria-current=true]").textContent()).toBe("Studio de Brive");
    expect(await form.locator("input[name=telephone]").count()).toBe(1);

    await choice.getByRole("link", { name: "Studio de Limoges" }).click();
    await page.waitForURL(/\/contact\?studio=limoges$/);
    await expect.poll(() => form.locator("input[name=telephone]").count()).toBe(0);
    expect(await shootingTypes()).toContain("mini-seance");
    expect(await choice.locator("[aria-current=true]").textContent()).toBe("Studio de Limoges");
    expect(await form.getAttribute("action")).toBe("/contact?studio=limoges");
  });
});
