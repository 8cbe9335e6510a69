import { and, desc, eq, isNotNull, ne, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { withoutControlCharacters } from "~/lib/forms";
import { db } from "../db/client.server";
import { blogArticles, blogCategories, blogSearchWords } from "../db/schema";

/** SPEC §9: nine cards per page; 'Suivant' shows only when a full page came back. */
export const BLOG_PAGE_SIZE = 9;
export const RELATED_ARTICLE_COUNT = 3;
export const FEED_ARTICLE_COUNT = 20;

const cardColumns = {
  id: blogArticles.id,
  title: blogArticles.title,
  slug: blogArticles.slug,
  excerpt: blogArticles.excerpt,
  coverImageUrl: blogArticles.coverImageUrl,
  coverFocalX: blogArticles.coverFocalX,
  coverFocalY: blogArticles.coverFocalY,
  publishedAt: blogArticles.publishedAt,
  categoryName: blogCategories.name,
  categorySlug: blogCategories.slug,
};

type CardRow = {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  coverImageUrl: string | null;
  coverFocalX: number;
  coverFocalY: number;
  publishedAt: Date | null;
  categoryName: string | null;
  categorySlug: string | null;
};

/** What a card in a grid of articles shows. */
export type ArticleCard = Omit<CardRow, "categoryName" | "categorySlug"> & {
  category: { name: string; slug: string } | null;
};

function toCard({ categoryName, categorySlug, ...row }: CardRow): ArticleCard {
  return {
    ...row,
    category: categoryName && categorySlug ? { name: categoryName, slug: categorySlug } : null,
  };
}

// Newest publication first; the id breaks ties so that pages never overlap.
const newestFirst = [sql`${blogArticles.publishedAt} desc nulls last`, desc(blogArticles.id)];

/** A LIKE pattern that matches `term` literally: backslash, % and _ lose their special meaning (SPEC §5). */
export function escapeLikePattern(term: string): string {
  return term.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Case- and accent-insensitive partial match on title or excerpt ('ete' finds 'Été'), on the stored
 * `search_text` column: PostgreSQL answers from its trigram index, and a term too short for trigrams scans
 * ready-made text instead of unaccenting every row.
 */
export function searchCondition(term: string): SQL {
  const pattern = sql`'%' || f_unaccent(lower(${escapeLikePattern(term)})) || '%'`;
  return sql`${blogArticles.searchText} like ${pattern} escape '\\'`;
}

/**
 * How many of the newest matches a search orders by relevance: twenty pages. Ranking every match of a
 * common word among 100,000 articles would read each of them (decision 0109); past these pages the other
 * matches follow, newest first, so that every match still appears exactly once.
 */
export const RANKED_MATCHES = 20 * BLOG_PAGE_SIZE;

/** A last word this long or longer ranks the words it begins like whole words of lesser weight. */
const MIN_PREFIX_LENGTH = 3;
/** Typed words shorter than this are not corrected: one or two letters resemble too many words. */
const MIN_CORRECTED_LENGTH = 3;
/** Known words at least this similar (pg_trgm trigram similarity, 0 to 1) to a typed word may be meant. */
const MIN_SIMILARITY = 0.4;
const CORRECTIONS_PER_WORD = 3;

/**
 * The words of a search term for full-text search; none when the term holds a character the SPEC matches
 * literally (%, _, backslash): full-text search ignores such characters, and would find '100%' for '100_'.
 */
export function searchWords(term: string): string[] {
  if (/[%_\\]/.test(term)) return [];
  return term.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A French full-text query (configuration `french_unaccent` of migration 0014) that needs every word. */
function textSearchQuery(words: string[], { prefix }: { prefix: boolean }): SQL {
  // Letters and digits only: quoted, nothing in a word can be read as tsquery syntax.
  const operands = words.map((word, index) =>
    prefix && index === words.length - 1 && [...word].length >= MIN_PREFIX_LENGTH
      ? `'${word}':*`
      : `'${word}'`,
  );
  return sql`to_tsquery('french_unaccent', ${operands.join(" & ")})`;
}

export type ArticleListQuery = {
  /** Slug of the category to keep; absent: every category. */
  category?: string | null;
  search?: string | null;
  /** 1-based. */
  page?: number;
};

const pageNumber = (page = 1) => Math.max(1, Math.floor(page));

/** The term as typed, trimmed; undefined when there is nothing to search. */
function searchTerm(search: string | null | undefined): string | undefined {
  // The HTTP layer refuses addresses holding control characters; this query never depends on it
  // (PostgreSQL refuses NUL in text: a search must not be able to fail).
  return (search ? withoutControlCharacters(search).trim() : "") || undefined;
}

function publishedConditions(category: string | null | undefined, search?: SQL) {
  const categorySlug = category ? withoutControlCharacters(category) : undefined;
  const conditions = [eq(blogArticles.published, true)];
  if (categorySlug) conditions.push(eq(blogCategories.slug, categorySlug));
  if (search) conditions.push(search);
  return and(...conditions);
}

/** The columns of a ranked page's candidates that its relevance is computed from. */
type Candidate = { searchText: AnyColumn; searchVector: AnyColumn };

/**
 * Which published articles a list shows (`where`) and, for a search, how relevant each is: higher first,
 * then newest first. Without `relevance`, newest first.
 */
type Matching = { where: SQL | undefined; relevance?: (candidate: Candidate) => SQL };

/**
 * The search of /blog: the words of the term in title, excerpt or body (full text, French stems, accents
 * ignored), or the term itself within title or excerpt (SPEC §5's partial match, which also finds a word
 * being typed: 'photogr' finds 'photographe'). Only whole words are looked up in the full-text index: for a
 * word's beginning PostgreSQL can only guess how many articles match (2 % of them), and that guess made it
 * read the whole table, newest first, for a rare word (0.5 s at 100,000 articles).
 */
function searchMatching({ category, search }: ArticleListQuery): Matching {
  const term = searchTerm(search);
  if (!term) return { where: publishedConditions(category) };
  const words = searchWords(term);
  if (words.length === 0) return { where: publishedConditions(category, searchCondition(term)) };
  const wordsOrBeginnings = textSearchQuery(words, { prefix: true });
  const wholeWords = textSearchQuery(words, { prefix: false });
  return {
    where: publishedConditions(
      category,
      // The partial match first: it reads the short search_text, where most matches of a title are found
      // without reading the larger tsvector.
      sql`(${searchCondition(term)} or ${blogArticles.searchVector} @@ ${wholeWords})`,
    ),
    // Articles holding every word whole come first ('été' puts 'Été' before 'éternel'), then those where
    // the last word is only begun; within each, ts_rank (0 to 1) weighs a title (A) over an excerpt (B)
    // over a body (C). A partial match alone scores 0: after every word match.
    relevance: ({ searchVector }) =>
      sql`(${searchVector} @@ ${wholeWords})::int + ts_rank(${searchVector}, ${wordsOrBeginnings})`,
  };
}

/** A known word (of a published title or excerpt) that resembles a typed word, and how much (0 to 1). */
export type Correction = { word: string; similarity: number };

/**
 * For each typed word of three characters or more, the known words most like it (trigram similarity):
 * what a search that found nothing may have meant ('mariagge' → 'mariage'). Read from
 * `blog_search_words`, short words with their own trigram index, not from the articles: comparing a word
 * with every title would read the whole table.
 */
export async function similarKnownWords(words: string[]): Promise<Correction[][]> {
  const typed = words.filter((word) => [...word].length >= MIN_CORRECTED_LENGTH);
  if (typed.length === 0) return [];
  const values = sql.join(
    typed.map((word, position) => sql`(${position}::int, f_unaccent(lower(${word})))`),
    sql`, `,
  );
  const result = await db().execute<Correction & { position: number }>(sql`
    select typed.position, known.word, known.similarity
    from (values ${values}) as typed (position, word)
    cross join lateral (
      select ${blogSearchWords.word} as word, similarity(${blogSearchWords.word}, typed.word) as similarity
      from ${blogSearchWords}
      where ${blogSearchWords.word} % typed.word
        and similarity(${blogSearchWords.word}, typed.word) >= ${MIN_SIMILARITY}
      order by similarity desc, ${blogSearchWords.articles} desc, ${blogSearchWords.word}
      limit ${CORRECTIONS_PER_WORD}
    ) as known`);
  return typed.map((_, position) =>
    result.rows
      .filter((row) => row.position === position)
      .map(({ word, similarity }) => ({ word, similarity })),
  );
}

/**
 * The typo fallback: the search again with each typed word replaced by the known words it resembles
 * (`meant`, one list per typed word): the articles whose title or excerpt holds one of them for every
 * typed word, the most similar first (summed over the typed words), then the newest.
 */
function similarMatching({ category }: ArticleListQuery, meant: Correction[][]): Matching {
  const holds = (word: string) =>
    sql`${blogArticles.searchText} like ${`%${escapeLikePattern(word)}%`} escape '\\'`;
  return {
    where: publishedConditions(
      category,
      and(...meant.map((words) => or(...words.map(({ word }) => holds(word))))),
    ),
    relevance: ({ searchText }) =>
      sql.join(
        meant.map(
          (words) =>
            sql`greatest(${sql.join(
              words.map(
                ({ word, similarity }) =>
                  sql`case when strpos(${searchText}, ${word}) > 0 then ${similarity}::real else 0 end`,
              ),
              sql`, `,
            )})`,
        ),
        sql` + `,
      ),
  };
}

/**
 * How many matches are counted for 'Page N sur M': ten pages beyond the one asked for. Counting every match of
 * a common search term among 100,000 articles would cost a scan of the table on every search; past this the
 * pager says 'Page N'.
 */
export function countCap(page = 1): number {
  return (pageNumber(page) + 10) * BLOG_PAGE_SIZE;
}

/**
 * One page of a list. Each row also carries how many articles match (up to countCap), from a subquery
 * PostgreSQL runs once, so the page costs one round trip and keeps its own plan. A ranked page is taken
 * from the RANKED_MATCHES newest matches only, so that relevance is computed for a bounded number of rows.
 */
function pageQuery({ where, relevance }: Matching, page: number) {
  const offset = (page - 1) * BLOG_PAGE_SIZE;
  const total = sql<number>`(select count(*)::int from (select 1 from ${blogArticles} left join ${blogCategories} on ${eq(blogArticles.categoryId, blogCategories.id)} where ${where} limit ${countCap(page)}) as matches)`;
  if (!relevance || offset >= RANKED_MATCHES) {
    return db()
      .select({ ...cardColumns, total })
      .from(blogArticles)
      .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
      .where(where)
      .orderBy(...newestFirst)
      .limit(BLOG_PAGE_SIZE)
      .offset(offset);
  }
  const candidates = db()
    .select({
      ...cardColumns,
      // Named apart: the subquery cannot carry two columns called 'name' and 'slug'.
      categoryName: sql<string | null>`${blogCategories.name}`.as("category_name"),
      categorySlug: sql<string | null>`${blogCategories.slug}`.as("category_slug"),
      searchText: blogArticles.searchText,
      searchVector: blogArticles.searchVector,
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(where)
    .orderBy(...newestFirst)
    .limit(RANKED_MATCHES)
    .as("candidates");
  return db()
    .select({
      id: candidates.id,
      title: candidates.title,
      slug: candidates.slug,
      excerpt: candidates.excerpt,
      coverImageUrl: candidates.coverImageUrl,
      coverFocalX: candidates.coverFocalX,
      coverFocalY: candidates.coverFocalY,
      publishedAt: candidates.publishedAt,
      categoryName: candidates.categoryName,
      categorySlug: candidates.categorySlug,
      total,
    })
    .from(candidates)
    .orderBy(
      sql`${relevance(candidates)} desc`,
      sql`${candidates.publishedAt} desc nulls last`,
      desc(candidates.id),
    )
    .limit(BLOG_PAGE_SIZE)
    .offset(offset);
}

/**
 * The query behind /blog (the benchmark reproduces it for EXPLAIN: scripts/bench/search.ts): without a
 * search, newest first; with one, by relevance (decision 0109).
 */
export function publishedArticlesQuery(query: ArticleListQuery) {
  return pageQuery(searchMatching(query), pageNumber(query.page));
}

/** The typo fallback's page for these corrections (the benchmark reproduces it too). */
export function similarArticlesQuery(query: ArticleListQuery, meant: Correction[][]) {
  return pageQuery(similarMatching(query, meant), pageNumber(query.page));
}

/** How many published articles match, up to countCap. */
async function countMatches({ where }: Matching, page: number): Promise<number> {
  const matches = db()
    .select({ one: sql`1` })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(where)
    .limit(countCap(page))
    .as("matches");
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(matches);
  return row?.count ?? 0;
}

type ListPage = { articles: ArticleCard[]; total: number; exact: boolean };

async function matchingPage(matching: Matching, page: number): Promise<ListPage> {
  const rows = await pageQuery(matching, page);
  const first = rows[0];
  // A page past the end has no row to carry the total: only then is it counted apart.
  const total = first ? first.total : page > 1 ? await countMatches(matching, page) : 0;
  return {
    articles: rows.map(({ total: _total, ...row }) => toCard(row)),
    total,
    exact: total < countCap(page),
  };
}

/**
 * One page of published articles for /blog and how many match in all (`exact` false when there are
 * countCap(page) or more): newest first, or for a search by relevance; when a search finds nothing, the
 * articles holding the words the visitor may have meant.
 */
export async function publishedArticlesPage(query: ArticleListQuery): Promise<ListPage> {
  const page = pageNumber(query.page);
  const found = await matchingPage(searchMatching(query), page);
  if (found.total > 0) return found;
  const meant = await similarKnownWords(searchWords(searchTerm(query.search) ?? ""));
  // A typo is corrected, the search is not loosened: every typed word needs a known word like it.
  if (meant.length === 0 || meant.some((words) => words.length === 0)) return found;
  return matchingPage(similarMatching(query, meant), page);
}

/** One page of published articles for /blog, as publishedArticlesPage orders them. */
export async function listPublishedArticles(query: ArticleListQuery): Promise<ArticleCard[]> {
  return (await publishedArticlesPage(query)).articles;
}

/** Every published article of one category, newest first (category page). */
export async function listPublishedArticlesOfCategory(categoryId: string): Promise<ArticleCard[]> {
  const rows = await db()
    .select(cardColumns)
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(and(eq(blogArticles.published, true), eq(blogArticles.categoryId, categoryId)))
    .orderBy(...newestFirst);
  return rows.map(toCard);
}

export type PublishedArticle = NonNullable<Awaited<ReturnType<typeof findPublishedArticle>>>;

/** A published article by its slug, with its category; undefined for a draft or an unknown slug. */
export async function findPublishedArticle(slug: string) {
  const [row] = await db()
    .select({
      id: blogArticles.id,
      title: blogArticles.title,
      slug: blogArticles.slug,
      excerpt: blogArticles.excerpt,
      content: blogArticles.content,
      author: blogArticles.author,
      coverImageUrl: blogArticles.coverImageUrl,
      coverFocalX: blogArticles.coverFocalX,
      coverFocalY: blogArticles.coverFocalY,
      seoImageUrl: blogArticles.seoImageUrl,
      seoTitle: blogArticles.seoTitle,
      seoDescription: blogArticles.seoDescription,
      publishedAt: blogArticles.publishedAt,
      updatedAt: blogArticles.updatedAt,
      categoryId: blogArticles.categoryId,
      categoryName: blogCategories.name,
      categorySlug: blogCategories.slug,
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(and(eq(blogArticles.slug, slug), eq(blogArticles.published, true)))
    .limit(1);
  if (!row) return undefined;
  const { categoryName, categorySlug, ...article } = row;
  return {
    ...article,
    category:
      row.categoryId && categoryName && categorySlug
        ? { id: row.categoryId, name: categoryName, slug: categorySlug }
        : null,
  };
}

/** Up to three other published articles of the same category, newest first. */
export async function listRelatedArticles(article: {
  id: string;
  categoryId: string | null;
}): Promise<ArticleCard[]> {
  if (!article.categoryId) return [];
  const rows = await db()
    .select(cardColumns)
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(
      and(
        eq(blogArticles.published, true),
        eq(blogArticles.categoryId, article.categoryId),
        ne(blogArticles.id, article.id),
      ),
    )
    .orderBy(...newestFirst)
    .limit(RELATED_ARTICLE_COUNT);
  return rows.map(toCard);
}

/** The latest published articles with what an RSS item needs. */
export async function listFeedArticles(limit = FEED_ARTICLE_COUNT) {
  return db()
    .select({
      title: blogArticles.title,
      slug: blogArticles.slug,
      excerpt: blogArticles.excerpt,
      author: blogArticles.author,
      publishedAt: blogArticles.publishedAt,
      categoryName: blogCategories.name,
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(eq(blogArticles.published, true))
    .orderBy(...newestFirst)
    .limit(limit);
}

/** Every published article's address and last change, for the sitemap. */
export async function listSitemapArticles() {
  return db()
    .select({ slug: blogArticles.slug, updatedAt: blogArticles.updatedAt })
    .from(blogArticles)
    .where(and(eq(blogArticles.published, true), isNotNull(blogArticles.slug)))
    .orderBy(...newestFirst);
}
