import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { blogFixtures, patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage, baseUrl } = useBrowser();
const fixtures = blogFixtures();
const { token } = fixtures;
const slug = `article-principal-${token}`;
const notFoundConsole = [/status of 404/];

beforeAll(async () => {
  await fixtures.createCategory("Tout pour bien préparer votre séance.");
  await fixtures.createEmptyCategory();
  await fixtures.createArticles([
    { slug: `lie-1-${token}`, title: `Lié un ${token}`, inCategory: true },
    { slug: `lie-2-${token}`, title: `Lié deux ${token}`, inCategory: true },
    { slug: `lie-3-${token}`, title: `Lié trois ${token}`, inCategory: true },
    { slug: `lie-4-${token}`, title: `Lié quatre ${token}`, inCategory: true },
    { slug: `brouillon-${token}`, title: `Brouillon ${token}`, inCategory: true, published: false },
    {
      slug,
      title: `Préparer sa séance ${token}`,
      excerpt: "Nos conseils pour une séance réussie.",
      seoDescription: "Description pour les moteurs de recherche.",
      author: "Marie Photographe",
      inCategory: true,
      coverImageUrl: "/images/demo-blog/ete.jpg",
      publishedAt: new Date(Date.UTC(2025, 2, 5, 10)),
      content:
        '<h2>Le bon moment</h2><p>Un paragraphe <strong>utile</strong>.</p><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 1"><a href="https://ailleurs.example/">ailleurs</a>',
    },
  ]);
});

afterAll(() => fixtures.cleanup());

describe("article page", () => {
  it("sends body, canonical, Open Graph, Twitter and JSON-LD in the raw HTML", async () => {
    const response = await fetch(`${baseUrl}/blog/${slug}`, {
      headers: { "user-agent": "Googlebot/2.1" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("s-maxage=60");
    const html = await response.text();
    const url = `${baseUrl}/blog/${slug}`;
    expect(html).toContain(`<title>Préparer sa séance ${token}</title>`);
    expect(html).toContain("<h2>Le bon moment</h2><p>Un paragraphe <strong>utile</strong>.</p>");
    expect(html).not.toContain("window.pwned");
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
    expect(html).toContain(
      '<meta name="description" content="Description pour les moteurs de recherche."/>',
    );
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toContain(`<meta property="og:url" content="${url}"/>`);
    expect(html).toContain(
      `<meta property="og:image" content="${baseUrl}/images/demo-blog/ete.jpg"/>`,
    );
    expect(html).toContain(
      '<meta property="article:published_time" content="2025-03-05T10:00:00.000Z"/>',
    );
    expect(html).toContain('<meta property="article:author" content="Marie Photographe"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain(
      `<meta name="twitter:image" content="${baseUrl}/images/demo-blog/ete.jpg"/>`,
    );
    expect(html).toContain('type="application/rss+xml"');

    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
      (match) => JSON.parse(match[1] ?? "{}") as Record<string, unknown>,
    );
    const posting = blocks.find((block) => block["@type"] === "BlogPosting");
    expect(posting).toMatchObject({
      headline: `Préparer sa séance ${token}`,
      image: [`${baseUrl}/images/demo-blog/ete.jpg`],
      datePublished: "2025-03-05T10:00:00.000Z",
      author: { "@type": "Person", name: "Marie Photographe" },
    });
    const breadcrumb = blocks.find((block) => block["@type"] === "BreadcrumbList") as
      { itemListElement: Array<{ name: string; item: string }> } | undefined;
    expect(breadcrumb?.itemListElement.map((item) => item.name)).toEqual([
      "Accueil",
      "Blog",
      fixtures.categoryName,
      `Préparer sa séance ${token}`,
    ]);
  });

  it("shows cover, category link, title, French date, author, share buttons and related articles", async () => {
    const page = await openPage(`/blog/${slug}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      `Préparer sa séance ${token}`,
    );
    expect(await page.locator("main time").first().textContent()).toBe("5 mars 2025");
    expect(await page.getByText("Par Marie Photographe").isVisible()).toBe(true);
    expect(
      await page
        .getByRole("link", { name: fixtures.categoryName, exact: true })
        .getAttribute("href"),
    ).toBe(`/blog/categorie/${fixtures.categorySlug}`);
    expect(await page.locator('main img[src="/images/demo-blog/ete.jpg"]').count()).toBe(1);

    const url = encodeURIComponent(`${baseUrl}/blog/${slug}`);
    const facebook = page.getByRole("link", { name: /Partager sur Facebook/ });
    expect(await facebook.getAttribute("href")).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${url}`,
    );
    expect(await facebook.getAttribute("target")).toBe("_blank");
    const linkedIn = page.getByRole("link", { name: /Partager sur LinkedIn/ });
    expect(await linkedIn.getAttribute("href")).toBe(
      `https://www.linkedin.com/sharing/share-offsite/?url=${url}`,
    );

    const related = page.getByRole("region", { name: "Articles similaires" });
    expect(await related.locator("article h3").allTextContents()).toEqual([
      `Lié quatre ${token}`,
      `Lié trois ${token}`,
      `Lié deux ${token}`,
    ]);
    expect(await page.evaluate(() => "pwned" in window)).toBe(false);
  });

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

  it("copies the article's address and says 'Lien copié !'", async () => {
    const page = await openPage(`/blog/${slug}`, {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await page.getByRole("button", { name: "Copier le lien" }).click();
    await expect.poll(() => page.getByText("Lien copié !").isVisible(), patiently).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${baseUrl}/blog/${slug}`,
    );
  });

  it("counts a person's visit but not a crawler's", async () => {
    const views = async () =>
      (
        await serverDatabase()
          .select({ views: blogArticles.viewCount })
          .from(blogArticles)
          .where(eq(blogArticles.slug, `lie-1-${token}`))
      )[0]?.views;
    const before = (await views()) ?? 0;
    await fetch(`${baseUrl}/blog/lie-1-${token}`, {
      headers: {
        "user-agent":
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36",
      },
    });
    await expect.poll(views, patiently).toBe(before + 1);
    await fetch(`${baseUrl}/blog/lie-1-${token}`, {
      headers: {
        "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      },
    });
    // Views are written within a second: wait longer than that before checking none was added.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await views()).toBe(before + 1);
  });

  it("answers 404 'Article non trouvé' for an unknown slug and for a draft, with a way back", async () => {
    for (const path of [`/blog/inconnu-${token}`, `/blog/brouillon-${token}`]) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    const page = await openPage(`/blog/brouillon-${token}`, { allowConsole: notFoundConsole });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Article non trouvé");
    await page.getByRole("link", { name: "Retour au blog" }).click();
    await page.waitForURL(/\/blog$/);
  });

  it("has no accessibility violation", async () => {
    const page = await openPage(`/blog/${slug}`);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("category page", () => {
  it("shows breadcrumb, name, description and the category's published articles, newest first", async () => {
    const response = await fetch(`${baseUrl}/blog/categorie/${fixtures.categorySlug}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("stale-while-revalidate");
    const html = await response.text();
    expect(html).toContain(
      `<link rel="canonical" href="${baseUrl}/blog/categorie/${fixtures.categorySlug}"/>`,
    );
    expect(html).toContain('"@type":"BreadcrumbList"');

    const page = await openPage(`/blog/categorie/${fixtures.categorySlug}`);
    const breadcrumb = page.getByRole("navigation", { name: "Fil d'Ariane" });
    expect(
      (await breadcrumb.locator("li:not([aria-hidden])").allTextContents()).map((text) =>
        text.trim(),
      ),
    ).toEqual(["Accueil", "Blog", fixtures.categoryName]);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(fixtures.categoryName);
    expect(await page.getByText("Tout pour bien préparer votre séance.").isVisible()).toBe(true);
    expect(await page.locator("main article h2").allTextContents()).toEqual([
      `Préparer sa séance ${token}`,
      `Lié quatre ${token}`,
      `Lié trois ${token}`,
      `Lié deux ${token}`,
      `Lié un ${token}`,
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("says so when a category has no article yet, with a link to every article", async () => {
    const page = await openPage(`/blog/categorie/vide-${token}`);
    expect(
      await page.getByText("Aucun article dans cette catégorie pour le moment").isVisible(),
    ).toBe(true);
    await page.getByRole("link", { name: "Voir tous les articles" }).click();
    await page.waitForURL(/\/blog$/);
  });

  it("answers 404 'Catégorie non trouvée' for an unknown category", async () => {
    const response = await fetch(`${baseUrl}/blog/categorie/inconnue-${token}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const page = await openPage(`/blog/categorie/inconnue-${token}`, {
      allowConsole: notFoundConsole,
    });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Catégorie non trouvée",
    );
  });
});
