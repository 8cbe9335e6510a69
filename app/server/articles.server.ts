import { and, desc, eq, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { withoutControlCharacters } from "~/lib/forms";
import { db } from "./db/client.server";
import { blogArticles, blogCategories } from "./db/schema";

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

export type ArticleListQuery = {
  /** Slug of the category to keep; absent: every category. */
  category?: string | null;
  search?: string | null;
  /** 1-based. */
  page?: number;
};

function publishedConditions({ category, search }: ArticleListQuery) {
  // The HTTP layer refuses addresses holding control characters; this query never depends on it
  // (PostgreSQL refuses NUL in text: a search must not be able to fail).
  const term = search ? withoutControlCharacters(search).trim() : undefined;
  const categorySlug = category ? withoutControlCharacters(category) : undefined;
  const conditions = [eq(blogArticles.published, true)];
  if (categorySlug) conditions.push(eq(blogCategories.slug, categorySlug));
  if (term) conditions.push(searchCondition(term));
  return and(...conditions);
}

/**
 * How many matches are counted for 'Page N sur M': ten pages beyond the one asked for. Counting every match of
 * a common search term among 100,000 articles would cost a scan of the table on every search; past this the
 * pager says 'Page N'.
 */
export function countCap(page = 1): number {
  return (Math.max(1, Math.floor(page)) + 10) * BLOG_PAGE_SIZE;
}

/**
 * The query behind /blog (the benchmark reproduces it for EXPLAIN: scripts/bench/search.ts). Each row also
 * carries how many articles match (up to countCap), from a subquery PostgreSQL runs once, so the page
 * costs one round trip and keeps its own plan.
 */
export function publishedArticlesQuery({ category, search, page = 1 }: ArticleListQuery) {
  const conditions = publishedConditions({ category, search });
  const total = sql<number>`(select count(*)::int from (select 1 from ${blogArticles} left join ${blogCategories} on ${eq(blogArticles.categoryId, blogCategories.id)} where ${conditions} limit ${countCap(page)}) as matches)`;
  return db()
    .select({ ...cardColumns, total })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(conditions)
    .orderBy(...newestFirst)
    .limit(BLOG_PAGE_SIZE)
    .offset((Math.max(1, Math.floor(page)) - 1) * BLOG_PAGE_SIZE);
}

/**
 * One page of published articles for /blog, newest first, and how many match in all (`exact` false when
 * there are countCap(page) or more).
 */
export async function publishedArticlesPage(
  query: ArticleListQuery,
): Promise<{ articles: ArticleCard[]; total: number; exact: boolean }> {
  const rows = await publishedArticlesQuery(query);
  const first = rows[0];
  // A page past the end has no row to carry the total: only then is it counted apart.
  const total = first
    ? first.total
    : (query.page ?? 1) > 1
      ? await countPublishedArticles(query)
      : 0;
  return {
    articles: rows.map(({ total: _total, ...row }) => toCard(row)),
    total,
    exact: total < countCap(query.page),
  };
}

/** One page of published articles for /blog, newest first. */
export async function listPublishedArticles(query: ArticleListQuery): Promise<ArticleCard[]> {
  return (await publishedArticlesPage(query)).articles;
}

/** How many published articles /blog's list has for this category and search, up to countCap. */
async function countPublishedArticles(query: ArticleListQuery): Promise<number> {
  const matches = db()
    .select({ one: sql`1` })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(publishedConditions(query))
    .limit(countCap(query.page))
    .as("matches");
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(matches);
  return row?.count ?? 0;
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
