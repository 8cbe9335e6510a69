import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  BLOG_PAGE_SIZE,
  countCap,
  escapeLikePattern,
  findPublishedArticle,
  listFeedArticles,
  listPublishedArticles,
  listPublishedArticlesOfCategory,
  listRelatedArticles,
  publishedArticlesPage,
  listSitemapArticles,
  searchCondition,
} from "./articles.server";
import { findCategoryBySlug, listCategories, listSitemapCategories } from "./categories.server";
import { db } from "../db/client.server";
import { blogArticles, blogCategories } from "../db/schema";

useAppDatabase();

const categoryIds: Record<string, string> = {};
let day = 0;

type Fixture = {
  slug: string;
  title?: string;
  excerpt?: string;
  category?: string;
  published?: boolean;
};

/** Articles are inserted one day apart: the later in the list, the newer. */
async function addArticles(fixtures: Fixture[]) {
  await db()
    .insert(blogArticles)
    .values(
      fixtures.map((fixture) => {
        day += 1;
        return {
          slug: fixture.slug,
          title: fixture.title ?? `Article ${fixture.slug}`,
          excerpt: fixture.excerpt ?? "Un extrait sans histoire.",
          content: "<p>Contenu</p>",
          author: "Studio",
          categoryId: fixture.category ? categoryIds[fixture.category] : null,
          published: fixture.published ?? true,
          publishedAt: new Date(Date.UTC(2024, 0, 1) + day * 86_400_000),
        };
      }),
    );
}

const slugsOf = (articles: Array<{ slug: string }>) => articles.map((article) => article.slug);

beforeAll(async () => {
  const categories = await db()
    .insert(blogCategories)
    .values([
      { slug: "conseils", name: "Conseils", description: "Pour bien préparer" },
      { slug: "coulisses", name: "Coulisses" },
      { slug: "vide", name: "Autres" },
    ])
    .returning();
  for (const category of categories) categoryIds[category.slug] = category.id;

  await addArticles([
    { slug: "ete-a-brive", title: "Été à Brive", category: "conseils" },
    { slug: "noel", title: "Séance de Noël", category: "coulisses" },
    { slug: "cent-pour-cent", title: "Des photos 100% naturelles", category: "conseils" },
    { slug: "souligne", title: "Le mot_clé du jour", category: "coulisses" },
    { slug: "antislash", title: "Chemin C:\\photos", category: "coulisses" },
    {
      slug: "extrait",
      title: "Sans accent",
      excerpt: "Les mariées de l'été",
      category: "conseils",
    },
    { slug: "brouillon-conseils", title: "Brouillon été", category: "conseils", published: false },
    { slug: "conseil-recent", title: "Conseil récent", category: "conseils" },
  ]);
});

describe("the /blog list", () => {
  it("lists only published articles, newest publication first", async () => {
    const articles = await listPublishedArticles({});
    expect(slugsOf(articles)).toEqual([
      "conseil-recent",
      "extrait",
      "antislash",
      "souligne",
      "cent-pour-cent",
      "noel",
      "ete-a-brive",
    ]);
    expect(articles[0]?.category).toEqual({ name: "Conseils", slug: "conseils" });
  });

  it("filters on a category by its slug", async () => {
    const articles = await listPublishedArticles({ category: "coulisses" });
    expect(slugsOf(articles)).toEqual(["antislash", "souligne", "noel"]);
    expect(await listPublishedArticles({ category: "inconnue" })).toEqual([]);
  });

  it("searches without caring about accents or case ('ete' finds 'Été', 'noel' finds 'Noël')", async () => {
    // The title before the newer excerpt: a search ranks by relevance (decision 0109).
    expect(slugsOf(await listPublishedArticles({ search: "ete" }))).toEqual([
      "ete-a-brive",
      "extrait",
    ]);
    expect(slugsOf(await listPublishedArticles({ search: "noel" }))).toEqual(["noel"]);
    expect(slugsOf(await listPublishedArticles({ search: "NOËL" }))).toEqual(["noel"]);
    expect(slugsOf(await listPublishedArticles({ search: "  brive  " }))).toEqual(["ete-a-brive"]);
  });

  it("searches the excerpt as well as the title", async () => {
    expect(slugsOf(await listPublishedArticles({ search: "mariees" }))).toEqual(["extrait"]);
  });

  it("matches %, _ and backslash literally", async () => {
    expect(slugsOf(await listPublishedArticles({ search: "%" }))).toEqual(["cent-pour-cent"]);
    expect(slugsOf(await listPublishedArticles({ search: "100%" }))).toEqual(["cent-pour-cent"]);
    expect(slugsOf(await listPublishedArticles({ search: "_" }))).toEqual(["souligne"]);
    expect(slugsOf(await listPublishedArticles({ search: "mot_cle" }))).toEqual(["souligne"]);
    expect(slugsOf(await listPublishedArticles({ search: "\\" }))).toEqual(["antislash"]);
    expect(await listPublishedArticles({ search: "100_" })).toEqual([]);
  });

  it("combines category and search", async () => {
    expect(slugsOf(await listPublishedArticles({ category: "coulisses", search: "ete" }))).toEqual(
      [],
    );
    expect(slugsOf(await listPublishedArticles({ category: "conseils", search: "ete" }))).toEqual([
      "ete-a-brive",
      "extrait",
    ]);
  });

  it("never shows a draft, not even to a search for its title", async () => {
    expect(slugsOf(await listPublishedArticles({ search: "brouillon" }))).toEqual([]);
    expect(await findPublishedArticle("brouillon-conseils")).toBeUndefined();
    expect(
      slugsOf(await listPublishedArticlesOfCategory(categoryIds.conseils ?? "")),
    ).not.toContain("brouillon-conseils");
    expect(slugsOf(await listFeedArticles())).not.toContain("brouillon-conseils");
    expect(slugsOf(await listSitemapArticles())).not.toContain("brouillon-conseils");
  });

  it("pages by nine: a full page, then the rest, then nothing", async () => {
    await addArticles(
      Array.from({ length: BLOG_PAGE_SIZE + 1 }, (_, index) => ({
        slug: `pagination-${index}`,
        title: `Pagination numéro ${index}`,
      })),
    );
    const first = await listPublishedArticles({ search: "pagination", page: 1 });
    const second = await listPublishedArticles({ search: "pagination", page: 2 });
    expect(first).toHaveLength(9);
    expect(first[0]?.slug).toBe("pagination-9");
    expect(slugsOf(second)).toEqual(["pagination-0"]);
    expect(await listPublishedArticles({ search: "pagination", page: 3 })).toEqual([]);
    // 'Page N sur M': the total comes with the page, and with a page past the end.
    for (const page of [1, 2, 3]) {
      const { total, exact } = await publishedArticlesPage({ search: "pagination", page });
      expect({ page, total, exact }).toEqual({ page, total: 10, exact: true });
    }

    // Exactly nine results: one full page and an empty second one.
    await db().execute(sql`delete from blog_articles where slug = 'pagination-0'`);
    expect(await listPublishedArticles({ search: "pagination", page: 1 })).toHaveLength(9);
    expect(await listPublishedArticles({ search: "pagination", page: 2 })).toEqual([]);
    await db().execute(sql`delete from blog_articles where slug like 'pagination-%'`);
  });
});

describe("the pager's count", () => {
  it("stops ten pages beyond the page asked for, and says when it stopped", async () => {
    expect(countCap(1)).toBe(11 * BLOG_PAGE_SIZE);
    const many = countCap(1) + 1;
    await addArticles(
      Array.from({ length: many }, (_, index) => ({
        slug: `compte-${index}`,
        title: `Compte numéro ${index}`,
      })),
    );
    expect(await publishedArticlesPage({ search: "compte numero", page: 1 })).toMatchObject({
      total: countCap(1),
      exact: false,
    });
    expect(await publishedArticlesPage({ search: "compte numero", page: 2 })).toMatchObject({
      total: many,
      exact: true,
    });
    await db().execute(sql`delete from blog_articles where slug like 'compte-%'`);
  });
});

describe("the article page", () => {
  it("finds a published article by slug with its category", async () => {
    const article = await findPublishedArticle("ete-a-brive");
    expect(article).toMatchObject({
      title: "Été à Brive",
      category: { slug: "conseils", name: "Conseils" },
    });
    expect(await findPublishedArticle("inconnu")).toBeUndefined();
  });

  it("relates up to three other published articles of the same category, newest first", async () => {
    const article = await findPublishedArticle("ete-a-brive");
    if (!article) throw new Error("missing fixture");
    expect(slugsOf(await listRelatedArticles(article))).toEqual([
      "conseil-recent",
      "extrait",
      "cent-pour-cent",
    ]);
    const noel = await findPublishedArticle("noel");
    if (!noel) throw new Error("missing fixture");
    expect(slugsOf(await listRelatedArticles(noel))).toEqual(["antislash", "souligne"]);
    expect(await listRelatedArticles({ id: noel.id, categoryId: null })).toEqual([]);
  });
});

describe("categories", () => {
  it("lists categories by name and finds one by slug", async () => {
    expect((await listCategories()).map((category) => category.name)).toEqual([
      "Autres",
      "Conseils",
      "Coulisses",
    ]);
    expect(await findCategoryBySlug("conseils")).toMatchObject({
      name: "Conseils",
      description: "Pour bien préparer",
    });
    expect(await findCategoryBySlug("inconnue")).toBeUndefined();
  });

  it("lists a category's published articles newest first, and nothing for an empty one", async () => {
    expect(slugsOf(await listPublishedArticlesOfCategory(categoryIds.conseils ?? ""))).toEqual([
      "conseil-recent",
      "extrait",
      "cent-pour-cent",
      "ete-a-brive",
    ]);
    expect(await listPublishedArticlesOfCategory(categoryIds.vide ?? "")).toEqual([]);
  });

  it("gives every category a last-modified date for the sitemap", async () => {
    const entries = await listSitemapCategories();
    expect(entries.map((entry) => entry.slug)).toEqual(["vide", "conseils", "coulisses"]);
    for (const entry of entries) expect(entry.lastModified).toBeInstanceOf(Date);
  });
});

describe("feed", () => {
  it("gives the latest published articles, at most twenty", async () => {
    const feed = await listFeedArticles();
    expect(feed[0]?.slug).toBe("conseil-recent");
    expect(feed.length).toBeLessThanOrEqual(20);
  });
});

describe("search at scale", () => {
  it("escapes LIKE wildcards", () => {
    expect(escapeLikePattern("100%_\\x")).toBe("100\\%\\_\\\\x");
  });

  // What can regress is the query no longer matching the index (expression or operator class): with
  // sequential scans priced out, the plan must still find the trigram index. Which plan the planner prefers
  // at 100,000 articles is measured by `npm run bench -- --only search`.
  it("can be answered from the trigram index", async () => {
    await db().execute(sql`
      insert into blog_articles (slug, title, excerpt, content, author, published, published_at)
      select 'volume-' || n, 'Séance photo numéro ' || n || ' ' || md5(n::text),
             'Extrait ' || md5((n * 7)::text), '<p>x</p>', 'Studio', true,
             now() - make_interval(mins => n)
      from generate_series(1, 20000) as n
    `);
    await db().execute(sql`analyze blog_articles`);
    // The search condition alone: with sequential scans priced out, only the trigram index can answer it.
    const query = db()
      .select({ id: blogArticles.id })
      .from(blogArticles)
      .where(searchCondition("brive"))
      .toSQL();
    const client = await db().$client.connect();
    try {
      await client.query("begin");
      await client.query("set local enable_seqscan = off");
      const result = await client.query<{ "QUERY PLAN": string }>(
        `explain ${query.sql}`,
        query.params,
      );
      const plan = result.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("blog_articles_search_idx");
      expect(plan).not.toMatch(/Seq Scan on blog_articles/);
    } finally {
      await client.query("rollback");
      client.release();
    }
    expect(slugsOf(await listPublishedArticles({ search: "brive" }))).toEqual(["ete-a-brive"]);
  });
});
