import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import {
  BLOG_PAGE_SIZE,
  countCap,
  listPublishedArticles,
  publishedArticlesPage,
  publishedArticlesQuery,
  RANKED_MATCHES,
} from "./articles.server";
import { db } from "../db/client.server";
import { blogArticles } from "../db/schema";

// The ranking of /blog?q= (decision 0109). Each test writes its own articles and removes
// them: a search sees every published article.
useAppDatabase();

type Fixture = {
  slug: string;
  title?: string;
  excerpt?: string;
  content?: string;
  published?: boolean;
  /** Days after 2024-01-01: the larger, the newer. */
  day: number;
};

async function addArticles(fixtures: Fixture[]) {
  await db()
    .insert(blogArticles)
    .values(
      fixtures.map((fixture) => ({
        slug: fixture.slug,
        title: fixture.title ?? `Article ${fixture.slug}`,
        excerpt: fixture.excerpt ?? "Un extrait sans histoire.",
        content: fixture.content ?? "<p>Un contenu sans histoire.</p>",
        author: "Studio",
        published: fixture.published ?? true,
        publishedAt: new Date(Date.UTC(2024, 0, 1) + fixture.day * 86_400_000),
      })),
    );
}

const slugsOf = (articles: Array<{ slug: string }>) => articles.map((article) => article.slug);
const search = async (term: string) => slugsOf(await listPublishedArticles({ search: term }));

afterEach(async () => {
  await db().delete(blogArticles);
});

describe("a search ranks by relevance", () => {
  it("puts 'été' in a title before newer articles holding it in an excerpt, a body or a longer word", async () => {
    await addArticles([
      { slug: "titre", title: "Été : nos idées de séances en plein air", day: 1 },
      { slug: "titre-recent", title: "Un été à Brive", day: 2 },
      { slug: "extrait", title: "Souvenirs", excerpt: "Les mariées de l'été.", day: 3 },
      {
        slug: "corps",
        title: "Coulisses",
        content: "<p>Cet <strong>été</strong>, le studio reste ouvert.</p>",
        day: 4,
      },
      // Only « fêtes » holds 'ete': the partial match of the SPEC still finds it, after every word match.
      { slug: "noel", title: "Noël : les fêtes au studio", day: 5 },
      { slug: "ailleurs", title: "Rien à voir", day: 6 },
    ]);
    const ranked = ["titre-recent", "titre", "extrait", "corps", "noel"];
    expect(await search("été")).toEqual(ranked);
    // Accents and case do not matter.
    expect(await search("ete")).toEqual(ranked);
    expect(await search("ÉTÉ")).toEqual(ranked);
  });

  it("weighs the title over the excerpt over the body, then the newest first", async () => {
    await addArticles([
      { slug: "titre-ancien", title: "Portrait en studio", day: 1 },
      { slug: "corps", content: "<p>Un portrait se prépare.</p>", day: 2 },
      { slug: "extrait", excerpt: "Réussir son portrait.", day: 3 },
      { slug: "titre-recent", title: "Portrait de famille", day: 4 },
      { slug: "corps-recent", content: "<h2>Le portrait</h2>", day: 5 },
    ]);
    expect(await search("portrait")).toEqual([
      "titre-recent",
      "titre-ancien",
      "extrait",
      "corps-recent",
      "corps",
    ]);
  });

  it("finds the other forms of a word (French stemming)", async () => {
    await addArticles([
      { slug: "mariage", title: "Un mariage à Brive", day: 1 },
      { slug: "marie", excerpt: "Les mariés ont dansé.", day: 2 },
      { slug: "autre", title: "Une séance en famille", day: 3 },
    ]);
    expect(await search("mariages")).toEqual(["mariage"]);
    expect(await search("familles")).toEqual(["autre"]);
    // Every word must be there, in any field and in any form.
    expect(await search("séances familles")).toEqual(["autre"]);
    expect(await search("mariage famille")).toEqual([]);
  });

  it("finds a word being typed ('photogr') and ranks whole words above the words they begin", async () => {
    await addArticles([
      { slug: "titre", title: "Votre photographe", day: 1 },
      { slug: "extrait", excerpt: "Un photographe en extérieur.", day: 2 },
      { slug: "autre", title: "Rien à voir", day: 3 },
    ]);
    expect(await search("photogr")).toEqual(["titre", "extrait"]);
    await addArticles([
      { slug: "eternel", title: "Un amour éternel", day: 4 },
      { slug: "ete", excerpt: "Un été au studio.", day: 0 },
    ]);
    // 'ete' begins 'éternel' (a partial match in a title), but 'été' is the word itself.
    expect(await search("ete")).toEqual(["ete", "eternel"]);
  });

  it("keeps %, _ and backslash literal: no word search, no correction", async () => {
    await addArticles([
      { slug: "cent-pour-cent", title: "Des photos 100% naturelles", day: 1 },
      { slug: "cent", title: "100 photos", content: "<p>100 photos, 100 sourires</p>", day: 2 },
      { slug: "souligne", title: "Le mot_clé du jour", day: 3 },
    ]);
    expect(await search("100%")).toEqual(["cent-pour-cent"]);
    expect(await search("%")).toEqual(["cent-pour-cent"]);
    expect(await search("_")).toEqual(["souligne"]);
    expect(await search("100_")).toEqual([]);
    expect(await search("100")).toEqual(["cent", "cent-pour-cent"]);
  });
});

describe("when a search finds nothing", () => {
  it("lists the articles holding the word the visitor probably meant ('mariagge' → 'mariage')", async () => {
    await addArticles([
      { slug: "mariage", title: "Un mariage à Brive", day: 1 },
      { slug: "autre", title: "Une séance en famille", day: 2 },
    ]);
    expect(await search("mariagge")).toEqual(["mariage"]);
  });

  it("ranks by similarity to what was typed, then the newest first", async () => {
    await addArticles([
      { slug: "photographe-ancien", title: "Notre photographe à Brive", day: 1 },
      { slug: "photographie", excerpt: "La photographie de nuit.", day: 3 },
      { slug: "photographe-recent", title: "Un photographe en studio", day: 2 },
      { slug: "autre", title: "Une séance photo en famille", day: 4 },
    ]);
    // 'photographe' is closer to 'photgraphe' than 'photographie' is.
    expect(await search("photgraphe")).toEqual([
      "photographe-recent",
      "photographe-ancien",
      "photographie",
    ]);
  });

  it("says nothing was found when no known word is close, and never shows a draft's words", async () => {
    await addArticles([
      { slug: "brouillon", title: "Anniversaire surprise", published: false, day: 1 },
      { slug: "publie", title: "Une séance en famille", day: 2 },
    ]);
    expect(await search("zzzz-introuvable")).toEqual([]);
    expect(await search("aniversaire")).toEqual([]);
    // Corrects typos, not the search: every typed word must still be there.
    expect(await search("séance mariage")).toEqual([]);

    // The known words follow the articles: publishing, editing, deleting; a view changes nothing.
    await db()
      .update(blogArticles)
      .set({ published: true })
      .where(eq(blogArticles.slug, "brouillon"));
    expect(await search("aniversaire")).toEqual(["brouillon"]);
    await db()
      .update(blogArticles)
      .set({ viewCount: sql`${blogArticles.viewCount} + 1` })
      .where(eq(blogArticles.slug, "brouillon"));
    expect(await search("aniversaire")).toEqual(["brouillon"]);
    await db()
      .update(blogArticles)
      .set({ title: "Baptême surprise" })
      .where(eq(blogArticles.slug, "brouillon"));
    expect(await search("aniversaire")).toEqual([]);
    expect(await search("baptme")).toEqual(["brouillon"]);
    await db().delete(blogArticles).where(eq(blogArticles.slug, "brouillon"));
    expect(await search("baptme")).toEqual([]);
    const words = await db().execute<{ word: string; articles: number }>(
      sql`select word, articles from blog_search_words order by word`,
    );
    expect(words.rows).toEqual(
      ["extrait", "famille", "histoire", "sans", "seance", "une"].map((word) => ({
        word,
        articles: 1,
      })),
    );
  });
});

describe("the pages of a search", () => {
  it("show every match exactly once with the pager's count, ranked among the newest matches", async () => {
    const count = RANKED_MATCHES + 2 * BLOG_PAGE_SIZE + 2;
    // All hold 'lumière' in their body (article 1 is the newest); four also in their title, one of them
    // older than the RANKED_MATCHES newest.
    const titled = [50, 100, 150, RANKED_MATCHES + 10];
    await db().execute(sql`
      insert into blog_articles (slug, title, excerpt, content, author, published, published_at)
      select 'lumiere-' || n,
             case when n = any(${`{${titled.join(",")}}`}::int[]) then 'Lumière d''hiver' else 'Séance' end,
             'Un extrait.', '<p>Une belle lumière.</p>', 'Studio', true,
             timestamp '2024-01-01' - make_interval(days => n)
      from generate_series(1, ${count}::int) as n`);
    await addArticles([{ slug: "sans-rapport", title: "Autre chose", day: 1 }]);

    const pageCount = Math.ceil(count / BLOG_PAGE_SIZE);
    const seen: string[] = [];
    for (let page = 1; page <= pageCount; page++) {
      const result = await publishedArticlesPage({ search: "lumiere", page });
      expect({ page, total: result.total, exact: result.exact }).toEqual(
        countCap(page) > count
          ? { page, total: count, exact: true }
          : { page, total: countCap(page), exact: false },
      );
      seen.push(...slugsOf(result.articles));
    }
    const numbers = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => from + index);
    expect(seen).toEqual(
      [
        ...titled.slice(0, 3),
        ...numbers(1, RANKED_MATCHES).filter((n) => !titled.includes(n)),
        ...numbers(RANKED_MATCHES + 1, count),
      ].map((n) => `lumiere-${n}`),
    );
    // Past the end: no article, and the count that lets the route answer 404.
    const past = await publishedArticlesPage({ search: "lumiere", page: pageCount + 1 });
    expect(past).toMatchObject({ articles: [], total: count, exact: true });
  });

  it("count the typo fallback's matches too", async () => {
    await addArticles(
      Array.from({ length: BLOG_PAGE_SIZE + 1 }, (_, index) => ({
        slug: `mariage-${index}`,
        title: `Mariage numéro ${index}`,
        day: index,
      })),
    );
    const first = await publishedArticlesPage({ search: "mariagge", page: 1 });
    const second = await publishedArticlesPage({ search: "mariagge", page: 2 });
    expect(first).toMatchObject({ total: BLOG_PAGE_SIZE + 1, exact: true });
    expect(first.articles[0]?.slug).toBe(`mariage-${BLOG_PAGE_SIZE}`);
    expect(slugsOf(second.articles)).toEqual(["mariage-0"]);
    expect(second).toMatchObject({ total: BLOG_PAGE_SIZE + 1, exact: true });
    expect(await publishedArticlesPage({ search: "mariagge", page: 3 })).toMatchObject({
      articles: [],
      total: BLOG_PAGE_SIZE + 1,
    });
  });
});

describe("the full-text column", () => {
  it("ignores the body's HTML and can be answered from its own index", async () => {
    await addArticles([
      {
        slug: "html",
        content: '<p class="strong">Texte</p><img src="/images/zanzibar.jpg" alt="">',
        day: 1,
      },
    ]);
    expect(await search("strong")).toEqual([]);
    expect(await search("zanzibar")).toEqual([]);
    expect(await search("texte")).toEqual(["html"]);

    // What can regress is the query no longer matching the index; which plan PostgreSQL prefers at
    // 100,000 articles is measured by `npm run bench -- --only search`.
    await db().execute(sql`
      insert into blog_articles (slug, title, excerpt, content, author, published, published_at)
      select 'volume-' || n, 'Séance numéro ' || n || ' ' || md5(n::text), 'Extrait ' || md5(n::text),
             '<p>Contenu ' || md5((n * 7)::text) || '</p>', 'Studio', true,
             now() - make_interval(mins => n)
      from generate_series(1, 5000) as n`);
    await db().execute(sql`analyze blog_articles`);
    const query = publishedArticlesQuery({ search: "texte" }).toSQL();
    const client = await db().$client.connect();
    try {
      await client.query("begin");
      // With the newest-first index out of the way (rolled back below) and sequential scans priced out,
      // only the two GIN indexes can find the matches.
      await client.query("drop index blog_articles_published_idx");
      await client.query("set local enable_seqscan = off");
      const result = await client.query<{ "QUERY PLAN": string }>(
        `explain ${query.sql}`,
        query.params,
      );
      const plan = result.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("blog_articles_search_vector_idx");
      expect(plan).not.toMatch(/Seq Scan on blog_articles/);
    } finally {
      await client.query("rollback");
      client.release();
    }
  });

  it("takes a body of megabytes of distinct words (a tsvector holds 1 MiB of them)", async () => {
    const words = Array.from({ length: 400_000 }, (_, index) => `mot${index.toString(36)}x`);
    const content = `<p>${words.join(" ")}</p>`;
    expect(content.length).toBeGreaterThan(3 * 1024 * 1024);
    await addArticles([{ slug: "long", content, day: 1 }]);
    expect(await search(words[0] ?? "")).toEqual(["long"]);
  });
});
