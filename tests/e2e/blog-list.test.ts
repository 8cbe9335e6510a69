import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListArticles } from "../support/blog-and-newsletter";
import { blogFixtures, patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage } = useBrowser();
const fixtures = blogFixtures();
const { token } = fixtures;

beforeAll(async () => {
  await fixtures.createCategory();
  await createListArticles(fixtures);
});

afterAll(() => fixtures.cleanup());

// What the server renders (texts, cache policy, cards, the search form) is checked over HTTP in
// tests/http/blog-list.test.ts; here, the list a visitor browses, filters and searches. The blog is a light
// page (decision 0137): each of these is a new page, as the browser loads it.

describe("/blog", () => {
  it("pages by nine: 'Suivant' only when more follow, 'Page N sur M', 'Précédent'", async () => {
    const page = await openPage(`/blog?q=${token}`);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    // Eleven articles match: two pages (the page count added to SPEC's 'Page N' says how many there are).
    expect(await pager.getByText("Page 1 sur 2", { exact: true }).isVisible()).toBe(true);
    expect(await pager.getByRole("link", { name: "Précédent" }).count()).toBe(0);
    await pager.getByRole("link", { name: "Suivant" }).click();
    await page.waitForURL(/page=2/);
    await expect
      .poll(() => pager.getByText("Page 2 sur 2", { exact: true }).isVisible(), patiently)
      .toBe(true);
    await expect.poll(() => page.locator("main article").count(), patiently).toBe(2);
    expect(await pager.getByRole("link", { name: "Suivant" }).count()).toBe(0);
    await pager.getByRole("link", { name: "Précédent" }).click();
    await page.waitForURL((url) => !url.searchParams.has("page"));
    await expect.poll(() => page.locator("main article").count(), patiently).toBe(9);
  });

  it("filters by category with the badges ('Tous' first) and resets to page 1", async () => {
    const page = await openPage(`/blog?q=${token}&page=2`);
    const badges = page.getByRole("navigation", { name: "Catégories" }).getByRole("link");
    expect(await badges.first().textContent()).toBe("Tous");
    await badges.filter({ hasText: fixtures.categoryName }).click();
    await page.waitForURL((url) => url.searchParams.get("categorie") === fixtures.categorySlug);
    expect(new URL(page.url()).searchParams.has("page")).toBe(false);
    await expect.poll(() => page.locator("main article").count(), patiently).toBe(3);
    expect(
      await badges.filter({ hasText: fixtures.categoryName }).getAttribute("aria-current"),
    ).toBe("page");

    await badges.filter({ hasText: "Tous" }).click();
    await page.waitForURL((url) => !url.searchParams.has("categorie"));
    await expect.poll(() => page.locator("main article").count(), patiently).toBe(9);
  });

  it("searches with Enter (accents ignored), keeps it in the URL and the field, resets the page", async () => {
    const page = await openPage(`/blog?page=2`);
    const search = page.getByRole("searchbox", { name: "Rechercher un article" });
    await search.fill(`ete au studio ${token}`);
    await search.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === `ete au studio ${token}`);
    expect(new URL(page.url()).searchParams.has("page")).toBe(false);
    await expect.poll(() => page.locator("main article").count(), patiently).toBe(1);
    expect(await page.locator("main article h2").textContent()).toBe(`Été au studio ${token}`);
    expect(await search.inputValue()).toBe(`ete au studio ${token}`);

    await search.fill(`introuvable ${token}`);
    await search.press("Enter");
    await expect
      .poll(() => page.getByText("Aucun article trouvé").isVisible(), patiently)
      .toBe(true);

    // Back to the previous results; the box follows the URL.
    await page.goto(`/blog?q=${token}`);
    expect(await search.inputValue()).toBe(token);
  });

  it("has no accessibility violation, and works at 390 px wide with one column", async () => {
    const page = await openPage(`/blog?q=${token}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page
      .locator("main article")
      .evaluateAll((cards) => cards.slice(0, 2).map((card) => card.getBoundingClientRect().x));
    expect(widths).toHaveLength(2);
    expect(widths[0]).toBe(widths[1]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
