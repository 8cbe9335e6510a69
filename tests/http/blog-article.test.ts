import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { blogFixtures, patiently } from "../support/blog-fixtures";
import { fetchPage, textOf } from "../support/html";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

const baseUrl = serverBaseUrl();
const fixtures = blogFixtures();
const { token } = fixtures;
const slug = `article-principal-${token}`;

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

/** The links of `document` whose text (visible or for screen readers) matches `name`. */
const linksNamed = (document: Document, name: string | RegExp) =>
  [...document.querySelectorAll("a")].filter((link) =>
    typeof name === "string" ? textOf(link) === name : name.test(textOf(link)),
  );

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

  it("renders cover, category link, title, French date, author, share links and related articles", async () => {
    const { document } = await fetchPage(`/blog/${slug}`);
    expect(textOf(document.querySelector("h1"))).toBe(`Préparer sa séance ${token}`);
    expect(textOf(document.querySelector("main time"))).toBe("5 mars 2025");
    expect(textOf(document.querySelector("main"))).toContain("Par Marie Photographe");
    const category = linksNamed(document, fixtures.categoryName);
    expect(category.map((link) => link.getAttribute("href"))).toEqual([
      `/blog/categorie/${fixtures.categorySlug}`,
    ]);
    expect(document.querySelectorAll('main img[src="/images/demo-blog/ete.jpg"]')).toHaveLength(1);

    const url = encodeURIComponent(`${baseUrl}/blog/${slug}`);
    const [facebook] = linksNamed(document, /Partager sur Facebook/);
    expect(facebook?.getAttribute("href")).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${url}`,
    );
    expect(facebook?.getAttribute("target")).toBe("_blank");
    const [linkedIn] = linksNamed(document, /Partager sur LinkedIn/);
    expect(linkedIn?.getAttribute("href")).toBe(
      `https://www.linkedin.com/sharing/share-offsite/?url=${url}`,
    );
    // « Copier le lien » is the light script's (decision 0137): hidden until it runs, with the address.
    const copy = [...document.querySelectorAll("button")].find(
      (button) => textOf(button) === "Copier le lien",
    );
    const item = copy?.closest("li");
    expect(item?.hasAttribute("hidden")).toBe(true);
    expect(item?.getAttribute("data-copy-link")).toBe(`${baseUrl}/blog/${slug}`);

    const related = [...document.querySelectorAll("section[aria-labelledby]")].find(
      (section) =>
        textOf(document.getElementById(section.getAttribute("aria-labelledby") ?? "")) ===
        "Articles similaires",
    );
    expect([...(related?.querySelectorAll("article h3") ?? [])].map(textOf)).toEqual([
      `Lié quatre ${token}`,
      `Lié trois ${token}`,
      `Lié deux ${token}`,
    ]);
  });

  it("counts a person's visit but not a crawler's", async () => {
    const views = async (article: string) =>
      (
        await serverDatabase()
          .select({ views: blogArticles.viewCount })
          .from(blogArticles)
          .where(eq(blogArticles.slug, article))
      )[0]?.views ?? 0;
    const visit = (article: string, userAgent: string) =>
      fetchPage(`/blog/${article}`, { headers: { "user-agent": userAgent } });
    const person = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36";
    const crawler = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    const [visited, witness] = [`lie-1-${token}`, `lie-2-${token}`];
    const before = { visited: await views(visited), witness: await views(witness) };
    await visit(visited, person);
    await expect.poll(() => views(visited), patiently).toBe(before.visited + 1);

    // The server writes the views it counted in batches, one after the other: once a person's view of
    // another article, counted after the crawler's visit, is stored, a view of the crawler would be too.
    await visit(visited, crawler);
    await visit(witness, person);
    await expect.poll(() => views(witness), patiently).toBe(before.witness + 1);
    expect(await views(visited)).toBe(before.visited + 1);

    // The article shown again with the answer to its newsletter form is no new visit (decision 0137).
    const signUp = await fetchPage(`/blog/${visited}`, {
      method: "POST",
      body: new URLSearchParams({ email: "pas-une-adresse", source: "article" }),
      headers: { "user-agent": person, Origin: baseUrl },
    });
    expect(signUp.html).toContain("<h1");
    await visit(witness, person);
    await expect.poll(() => views(witness), patiently).toBe(before.witness + 2);
    expect(await views(visited)).toBe(before.visited + 1);
  });

  it("answers 404 'Article non trouvé' for an unknown slug and for a draft, with a way back", async () => {
    for (const path of [`/blog/inconnu-${token}`, `/blog/brouillon-${token}`]) {
      const { status, headers, document } = await fetchPage(path);
      expect(status, path).toBe(404);
      expect(headers.get("cache-control"), path).toBe("no-store");
      expect(textOf(document.querySelector("h1")), path).toBe("Article non trouvé");
      expect(
        linksNamed(document, "Retour au blog").map((link) => link.getAttribute("href")),
        path,
      ).toContain("/blog");
    }
  });
});

describe("category page", () => {
  it("shows breadcrumb, name, description and the category's published articles, newest first", async () => {
    const { status, headers, html, document } = await fetchPage(
      `/blog/categorie/${fixtures.categorySlug}`,
    );
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toContain("stale-while-revalidate");
    expect(html).toContain(
      `<link rel="canonical" href="${baseUrl}/blog/categorie/${fixtures.categorySlug}"/>`,
    );
    expect(html).toContain('"@type":"BreadcrumbList"');

    const breadcrumb = document.querySelector(`nav[aria-label="Fil d'Ariane"]`);
    expect([...(breadcrumb?.querySelectorAll("li:not([aria-hidden])") ?? [])].map(textOf)).toEqual([
      "Accueil",
      "Blog",
      fixtures.categoryName,
    ]);
    expect(textOf(document.querySelector("h1"))).toBe(fixtures.categoryName);
    expect(textOf(document.querySelector("main"))).toContain(
      "Tout pour bien préparer votre séance.",
    );
    expect([...document.querySelectorAll("main article h2")].map(textOf)).toEqual([
      `Préparer sa séance ${token}`,
      `Lié quatre ${token}`,
      `Lié trois ${token}`,
      `Lié deux ${token}`,
      `Lié un ${token}`,
    ]);
  });

  it("says so when a category has no article yet, with a link to every article", async () => {
    const { status, document } = await fetchPage(`/blog/categorie/vide-${token}`);
    expect(status).toBe(200);
    expect(textOf(document.querySelector("main"))).toContain(
      "Aucun article dans cette catégorie pour le moment",
    );
    expect(
      linksNamed(document, "Voir tous les articles").map((link) => link.getAttribute("href")),
    ).toEqual(["/blog"]);
  });

  it("answers 404 'Catégorie non trouvée' for an unknown category", async () => {
    const { status, headers, document } = await fetchPage(`/blog/categorie/inconnue-${token}`);
    expect(status).toBe(404);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(textOf(document.querySelector("h1"))).toBe("Catégorie non trouvée");
  });
});
