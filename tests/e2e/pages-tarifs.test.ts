import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, mark, marked, useBrowser } from "./support/browser";

// The tabs as the server renders them (and as links without JavaScript), with their prices:
// tests/http/pages-tarifs.test.ts. Here, the light page's script (decision 0090) switching them.

const { openPage } = useBrowser();

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const panel = (page: Page, id: "particuliers" | "pro") => page.locator(`#panneau-${id}`);
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

describe("/tarifs", () => {
  it("switches tabs with the mouse and the keyboard without reloading, the URL in step, the tab kept after a reload", async () => {
    const page = await openPage("/tarifs");
    await mark(page);
    // Once the script has run, only the selected tab stays in the Tab order.
    expect(await tab(page, "Pro & Mariages").getAttribute("tabindex")).toBe("-1");

    await tab(page, "Pro & Mariages").click();
    await page.waitForURL(/\/tarifs\?onglet=pro$/);
    expect(await tab(page, "Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(await panel(page, "pro").isVisible()).toBe(true);
    expect(await panel(page, "particuliers").isVisible()).toBe(false);
    expect(await tab(page, "Particuliers").getAttribute("tabindex")).toBe("-1");

    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/onglet=particuliers$/);
    expect(await panel(page, "particuliers").isVisible()).toBe(true);
    expect(await focusedText(page)).toBe("Particuliers");
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(/onglet=pro$/);
    expect(await tab(page, "Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(await focusedText(page)).toBe("Pro & Mariages");
    expect(await panel(page, "particuliers").isVisible()).toBe(false);
    expect(await marked(page)).toBe(true);

    await page.reload();
    expect(await tab(page, "Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(await panel(page, "pro").isVisible()).toBe(true);

    await mark(page);
    await tab(page, "Pro & Mariages").focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/onglet=particuliers$/);
    await expect.poll(() => panel(page, "particuliers").isVisible()).toBe(true);
    await page.keyboard.press("End");
    await page.waitForURL(/onglet=pro$/);
    await page.keyboard.press("Home");
    await page.waitForURL(/onglet=particuliers$/);
    expect(await focusedText(page)).toBe("Particuliers");
    // Tab leaves the tab list for the chosen panel's content.
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate(() => document.activeElement?.closest("#panneau-particuliers") !== null),
    ).toBe(true);
    expect(await marked(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });
});
