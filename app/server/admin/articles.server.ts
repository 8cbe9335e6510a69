import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { ArticleDraftInput, ArticleInput } from "~/lib/admin-schemas";
import { db } from "../db/client.server";
import { blogArticles, blogCategories } from "../db/schema";
import { sanitizeArticleHtml } from "../sanitize.server";

/** The dashboard's list: every article, drafts included, newest created first. */
export function listArticlesForAdmin() {
  return db()
    .select({
      id: blogArticles.id,
      title: blogArticles.title,
      slug: blogArticles.slug,
      published: blogArticles.published,
      publishedAt: blogArticles.publishedAt,
      viewCount: blogArticles.viewCount,
      createdAt: blogArticles.createdAt,
      categoryName: blogCategories.name,
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .orderBy(desc(blogArticles.createdAt), desc(blogArticles.id));
}

/** The columns that publish an article; the first publication sets the date, later ones keep it. */
const publication = () => ({
  published: true,
  publishedAt: sql`coalesce(${blogArticles.publishedAt}, now())`,
});

/**
 * Publishes or unpublishes. An autosaved draft may still lack its excerpt or content: it cannot be
 * published until the form has them (false, as for an unknown id).
 */
export async function setArticlePublished(id: string, published: boolean): Promise<boolean> {
  const rows = await db()
    .update(blogArticles)
    .set({ ...(published ? publication() : { published: false }), updatedAt: new Date() })
    .where(
      published
        ? and(eq(blogArticles.id, id), ne(blogArticles.excerpt, ""), ne(blogArticles.content, ""))
        : eq(blogArticles.id, id),
    )
    .returning({ id: blogArticles.id });
  return rows.length > 0;
}

export async function deleteArticle(id: string): Promise<boolean> {
  const rows = await db()
    .delete(blogArticles)
    .where(eq(blogArticles.id, id))
    .returning({ id: blogArticles.id });
  return rows.length > 0;
}

export async function getArticleForAdmin(id: string) {
  const [article] = await db()
    .select({
      article: blogArticles,
      category: { id: blogCategories.id, name: blogCategories.name, slug: blogCategories.slug },
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(eq(blogArticles.id, id))
    .limit(1);
  if (!article) return null;
  return { ...article.article, category: article.category?.id ? article.category : null };
}

export type AdminArticle = NonNullable<Awaited<ReturnType<typeof getArticleForAdmin>>>;

/** Categories for the article form's select, by name. */
export function listCategoryOptions() {
  return db()
    .select({ id: blogCategories.id, name: blogCategories.name })
    .from(blogCategories)
    .orderBy(asc(blogCategories.name));
}

export class SlugTakenError extends Error {
  override name = "SlugTakenError";
}
export class UnknownCategoryError extends Error {
  override name = "UnknownCategoryError";
}

function values(input: ArticleInput | ArticleDraftInput) {
  return {
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt,
    content: sanitizeArticleHtml(input.content),
    author: input.author,
    categoryId: input.category_id,
    coverImageUrl: input.cover_image_url,
    coverFocalX: input.cover_focal_x,
    coverFocalY: input.cover_focal_y,
    seoImageUrl: input.seo_image_url,
    seoTitle: input.seo_title,
    seoDescription: input.seo_description,
  };
}

function translateConstraintError(error: unknown): never {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
  if (cause?.code === "23505") throw new SlugTakenError("slug déjà utilisé", { cause: error });
  if (cause?.code === "23503")
    throw new UnknownCategoryError("catégorie inconnue", { cause: error });
  throw error;
}

/** New articles start as drafts unless the owner chose 'Publier'. */
export async function createArticle(
  input: ArticleInput,
  { publish = false }: { publish?: boolean } = {},
): Promise<string> {
  try {
    const [row] = await db()
      .insert(blogArticles)
      .values({ ...values(input), published: publish, publishedAt: publish ? new Date() : null })
      .returning({ id: blogArticles.id });
    if (!row) throw new Error("insert returned nothing");
    return row.id;
  } catch (error) {
    translateConstraintError(error);
  }
}

export async function updateArticle(
  id: string,
  input: ArticleInput,
  { publish = false }: { publish?: boolean } = {},
): Promise<boolean> {
  try {
    const rows = await db()
      .update(blogArticles)
      .set({ ...values(input), ...(publish ? publication() : {}), updatedAt: new Date() })
      .where(eq(blogArticles.id, id))
      .returning({ id: blogArticles.id });
    return rows.length > 0;
  } catch (error) {
    translateConstraintError(error);
  }
}

export class ArticlePublishedError extends Error {
  override name = "ArticlePublishedError";
}

/**
 * The autosave of a draft: creates it (id null) or updates it, never publishes. A published article is
 * never autosaved (its changes would go live unreviewed): ArticlePublishedError. Returns the id, or null
 * for an unknown id.
 */
export async function saveDraft(id: string | null, input: ArticleDraftInput) {
  try {
    if (id === null) {
      const [row] = await db()
        .insert(blogArticles)
        .values({ ...values(input), published: false })
        .returning({ id: blogArticles.id, updatedAt: blogArticles.updatedAt });
      if (!row) throw new Error("insert returned nothing");
      return row;
    }
    const [row] = await db()
      .update(blogArticles)
      .set({ ...values(input), updatedAt: new Date() })
      .where(and(eq(blogArticles.id, id), eq(blogArticles.published, false)))
      .returning({ id: blogArticles.id, updatedAt: blogArticles.updatedAt });
    if (row) return row;
    const [existing] = await db()
      .select({ id: blogArticles.id })
      .from(blogArticles)
      .where(eq(blogArticles.id, id));
    if (existing) throw new ArticlePublishedError("article publié");
    return null;
  } catch (error) {
    if (error instanceof ArticlePublishedError) throw error;
    translateConstraintError(error);
  }
}
