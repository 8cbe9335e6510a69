import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogFixtures, patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();
const fixtures = blogFixtures();
const { token } = fixtures;

beforeAll(async () => {
  await fixtures.createCategory();
  // Ten articles share the token: a full page of nine, then one.
  await fixtures.createArticles(
    Array.from({ length: 10 }, (_, index) => ({
      slug: `liste-${token}-${index}`,
      title: `Liste ${token} numéro ${index}`,
      publishedAt: new Date(Date.UTC(2025, 2, 5 + index, 10)),
      inCategory: index < 3,
    })),
  );
  await fixtures.createArticles([
    {
      slug: `ete-${token}`,
      title: `Été au studio ${token}`,
      excerpt: "Nos idées de séances en plein air.",
      publishedAt: new Date(Date.UTC(2020, 0, 1)),
    },
    { slug: `brouillon-${token}`, title: `Brouillon ${token}`, published: false },
  ]);
});

afterAll(() => fixtures.cleanup());

describe("/blog", () => {
  it("is server-rendered with the texts of SPEC §2, a public cache policy and the RSS link", async () => {
    const response = await fetch(`${baseUrl}/blog?q=${token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
    );
    const html = await response.text();
    expect(html).toContain(
      "<title>Blog - Studio Photo Exemple | Conseils et Actualités Photo</title>",
    );
    expect(html).toMatch(/<h1[^>]*>Le Blog de <span[^>]*>Studio Photo Exemple<\/span><\/h1>/);
    expect(html).toContain("Conseils, coulisses et inspiration photographique");
    expect(html).toContain('placeholder="Rechercher un article..."');
    const feedLink = html.match(/<link[^>]*application\/rss\+xml[^>]*>/)?.[0] ?? "";
    expect(feedLink).toContain('rel="alternate"');
    expect(feedLink).toContain('href="/blog/rss.xml"');
    expect(html).toContain(`Liste ${token} numéro 9`);
    expect(html).not.toContain(`Brouillon ${token}`);
  });

  it("shows cards with category, title, excerpt, French date and 'Lire la suite'", async () => {
    const page = await openPage(`/blog?q=${token}`);
    const cards = page.locator("main article");
    await expect.poll(() => cards.count(), patiently).toBe(9);
    const newest = cards.first();
    expect(await newest.getByRole("heading").textContent()).toBe(`Liste ${token} numéro 9`);
    expect(await newest.locator("time").textContent()).toBe("14 mars 2025");
    expect(await newest.getByRole("link", { name: /Lire la suite/ }).getAttribute("href")).toBe(
      `/blog/liste-${token}-9`,
    );
    const categorised = cards.filter({ hasText: `Liste ${token} numéro 1` });
    expect(await categorised.textContent()).toContain(fixtures.categoryName);
    expect(await categorised.locator("time").textContent()).toBe("6 mars 2025");
  });

  it("pages by nine: 'Suivant' only when more follow, 'Page N sur M', 'Précédent'", async () => {
    const page = await openPage(`/blog?q=${token}`);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    // Eleven articles match: two pages (issue 10 adds the page count to SPEC's 'Page N').
    expect(await pager.getByText("Page 1 sur 2", { exact: true }).isVisible()).toBe(true);
    expect(await pager.getByRole("link", { name: "Précédent" }).count()).toBe(0);
    // Slow the next page's data down to see the loading state.
    await page.route(
      (url) => url.pathname.endsWith(".data"),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      },
    );
    await pager.getByRole("link", { name: "Suivant" }).click();
    await expect.poll(() => page.getByText("Chargement...").isVisible(), patiently).toBe(true);
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

  it("searches as the visitor types (accents ignored), keeps it in the URL, resets the page", async () => {
    const page = await openPage(`/blog?page=2`);
    const search = page.getByRole("searchbox", { name: "Rechercher un article" });
    await search.pressSequentially(`ete au studio ${token}`, { delay: 20 });
    await page.waitForURL((url) => url.searchParams.get("q") === `ete au studio ${token}`);
    expect(new URL(page.url()).searchParams.has("page")).toBe(false);
    await expect.poll(() => page.locator("main article").count(), patiently).toBe(1);
    expect(await page.locator("main article h2").textContent()).toBe(`Été au studio ${token}`);
    // Typing kept the focus in the field.
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);

    await search.fill(`introuvable ${token}`);
    await expect
      .poll(() => page.getByText("Aucun article trouvé").isVisible(), patiently)
      .toBe(true);

    // Back to the previous results; the box follows the URL.
    await page.goto(`/blog?q=${token}`);
    expect(await search.inputValue()).toBe(token);
  });

  it("searches without JavaScript: the search box is a real GET form", async () => {
    const page = await openPage("/blog", { javaScriptEnabled: false });
    const search = page.getByRole("searchbox", { name: "Rechercher un article" });
    await search.fill(`ete au studio ${token}`);
    await search.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === `ete au studio ${token}`);
    expect(await page.locator("main article").count()).toBe(1);
  });

  it("has no accessibility violation", async () => {
    const page = await openPage(`/blog?q=${token}`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("works at 390 px wide with one column", async () => {
    const page = await openPage(`/blog?q=${token}`, { viewport: { width: 390, height: 844 } });
    const widths = await page
      .locator("main article")
      .evaluateAll((cards) => cards.slice(0, 2).map((card) => card.getBoundingClientRect().x));
    expect(widths[0]).toBe(widths[1]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
