import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListArticles } from "../support/blog-and-newsletter";
import { blogFixtures } from "../support/blog-fixtures";
import { fetchPage, textOf } from "../support/html";

const fixtures = blogFixtures();
const { token } = fixtures;

beforeAll(async () => {
  await fixtures.createCategory();
  await createListArticles(fixtures);
  await fixtures.createArticles([
    { slug: `brouillon-${token}`, title: `Brouillon ${token}`, published: false },
  ]);
});

afterAll(() => fixtures.cleanup());

describe("/blog", () => {
  it("is server-rendered with the texts of SPEC §2, a public cache policy and the RSS link", async () => {
    const { status, headers, html } = await fetchPage(`/blog?q=${token}`);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
    );
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
    const { document } = await fetchPage(`/blog?q=${token}`);
    const cards = [...document.querySelectorAll("main article")];
    expect(cards).toHaveLength(9);
    const [newest] = cards;
    expect(textOf(newest?.querySelector("h2, h3"))).toBe(`Liste ${token} numéro 9`);
    expect(textOf(newest?.querySelector("time"))).toBe("14 mars 2025");
    const more = [...(newest?.querySelectorAll("a") ?? [])].find((link) =>
      textOf(link).includes("Lire la suite"),
    );
    expect(more?.getAttribute("href")).toBe(`/blog/liste-${token}-9`);
    const categorised = cards.find((card) => textOf(card).includes(`Liste ${token} numéro 1`));
    expect(textOf(categorised)).toContain(fixtures.categoryName);
    expect(textOf(categorised?.querySelector("time"))).toBe("6 mars 2025");
  });

  it("searches without JavaScript: the search box is a real GET form", async () => {
    const { document } = await fetchPage("/blog");
    const form = document.querySelector('form[role="search"]');
    expect(form?.getAttribute("method")).toBe("get");
    expect(form?.getAttribute("action")).toBe("/blog");
    const field = form?.querySelector('input[type="search"]');
    expect(field?.getAttribute("name")).toBe("q");
    expect(textOf(form?.querySelector(`label[for="${field?.getAttribute("id")}"]`))).toBe(
      "Rechercher un article",
    );

    // What pressing Enter in the field asks for.
    const results = await fetchPage(
      `/blog?${new URLSearchParams({ q: `ete au studio ${token}` })}`,
    );
    expect([...results.document.querySelectorAll("main article h2")].map(textOf)).toEqual([
      `Été au studio ${token}`,
    ]);
  });

  it("ranks a search: the title holding the word before newer excerpts and bodies, a partial match last", async () => {
    const day = (month: number) => new Date(Date.UTC(2024, month, 1));
    await fixtures.createArticles([
      { title: "Été : nos idées de séances en plein air", publishedAt: day(5), inCategory: true },
      {
        title: "Souvenirs de vacances",
        excerpt: "Les mariées de l'été.",
        publishedAt: day(8),
        inCategory: true,
      },
      {
        title: "Coulisses du studio",
        content: "<p>Cet <em>été</em>, le studio reste ouvert.</p>",
        publishedAt: day(9),
        inCategory: true,
      },
      // « fêtes » holds 'ete': found by the partial match of SPEC §5, after every word match.
      { title: "Noël : les fêtes au studio", publishedAt: day(11), inCategory: true },
    ]);
    // The file's category keeps other files' articles out of the list.
    const { status, document } = await fetchPage(
      `/blog?${new URLSearchParams({ q: "été", categorie: fixtures.categorySlug })}`,
    );
    expect(status).toBe(200);
    expect([...document.querySelectorAll("main article h2")].map(textOf)).toEqual([
      "Été : nos idées de séances en plein air",
      "Souvenirs de vacances",
      "Coulisses du studio",
      "Noël : les fêtes au studio",
    ]);
  });
});
