import { describe, expect, it } from "vitest";
import { axeViolations, mark, marked, useBrowser } from "./support/browser";

// What the server sends for the home page (tags, structured data, the studio cards' links):
// tests/http/home.test.ts.

const { openPage } = useBrowser();

describe("home page", () => {
  it("has no accessibility violation, and 'Découvrir nos studios' scrolls to the studio cards within the page, by mouse and keyboard", async () => {
    const page = await openPage("/");
    expect(await axeViolations(page)).toEqual([]);
    await mark(page);
    const link = page.getByRole("link", { name: "Découvrir nos studios" });
    const studiosTop = () =>
      page.locator("#studios").evaluate((element) => element.getBoundingClientRect().top);

    await link.click();
    await page.waitForURL(/#studios$/);
    await expect.poll(studiosTop).toBeLessThan(200);

    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await expect.poll(studiosTop).toBeGreaterThan(200);
    await link.focus();
    await page.keyboard.press("Enter");
    await expect.poll(studiosTop).toBeLessThan(200);
    expect(await marked(page)).toBe(true);
  });
});
