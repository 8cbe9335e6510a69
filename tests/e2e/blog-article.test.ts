import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogFixtures, patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();
const fixtures = blogFixtures();
const { token } = fixtures;
const slug = `article-principal-${token}`;

beforeAll(async () => {
  await fixtures.createCategory();
  await fixtures.createArticles([
    { slug: `lie-${token}`, title: `Lié ${token}`, inCategory: true },
    {
      slug,
      title: `Préparer sa séance ${token}`,
      author: "Marie Photographe",
      inCategory: true,
      coverImageUrl: "/images/demo-blog/ete.jpg",
      // Scripts the server must leave out of the page: none may run in the reader's browser.
      content:
        '<h2>Le bon moment</h2><p>Un paragraphe <strong>utile</strong>.</p><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 1"><a href="https://ailleurs.example/">ailleurs</a>',
    },
  ]);
});

afterAll(() => fixtures.cleanup());

// What the server renders (meta tags, texts, links, related articles, 404 pages, view counts) is checked
// over HTTP in tests/http/blog-article.test.ts; here, what a reader sees and does.

describe("article page", () => {
  it("puts the share buttons in a side column on large screens and in a row on small ones", async () => {
    const large = await openPage(`/blog/${slug}`, { viewport: { width: 1440, height: 900 } });
    const largeBox = await large.getByRole("list", { name: "Partager cet article" }).boundingBox();
    expect(largeBox && largeBox.height > largeBox.width).toBe(true);
    const small = await openPage(`/blog/${slug}`, { viewport: { width: 390, height: 844 } });
    const smallBox = await small.getByRole("list", { name: "Partager cet article" }).boundingBox();
    expect(smallBox && smallBox.width > smallBox.height).toBe(true);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });

  it("runs none of the article's scripts, has no accessibility violation and copies its address", async () => {
    const page = await openPage(`/blog/${slug}`, {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    expect(await page.evaluate(() => "pwned" in window)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Copier le lien" }).click();
    await expect.poll(() => page.getByText("Lien copié !").isVisible(), patiently).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${baseUrl}/blog/${slug}`,
    );
  });
});

describe("category page", () => {
  it("has no accessibility violation", async () => {
    const page = await openPage(`/blog/categorie/${fixtures.categorySlug}`);
    expect(await page.locator("main article").count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
  });
});
