import { asc, desc, eq, sql } from "drizzle-orm";
import type { ArticleInput } from "~/lib/admin-schemas";
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

/** Publishes or unpublishes; the first publication sets the publication date, later ones keep it. */
export async function setArticlePublished(id: string, published: boolean): Promise<boolean> {
  const rows = await db()
    .update(blogArticles)
    .set({
      published,
      publishedAt: published ? sql`coalesce(${blogArticles.publishedAt}, now())` : undefined,
      updatedAt: new Date(),
    })
    .where(eq(blogArticles.id, id))
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

function values(input: ArticleInput) {
  return {
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt,
    content: sanitizeArticleHtml(input.content),
    author: input.author,
    categoryId: input.category_id,
    coverImageUrl: input.cover_image_url,
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

/** New articles start as drafts. */
export async function createArticle(input: ArticleInput): Promise<string> {
  try {
    const [row] = await db()
      .insert(blogArticles)
      .values({ ...values(input), published: false })
      .returning({ id: blogArticles.id });
    if (!row) throw new Error("insert returned nothing");
    return row.id;
  } catch (error) {
    translateConstraintError(error);
  }
}

export async function updateArticle(id: string, input: ArticleInput): Promise<boolean> {
  try {
    const rows = await db()
      .update(blogArticles)
      .set({ ...values(input), updatedAt: new Date() })
      .where(eq(blogArticles.id, id))
      .returning({ id: blogArticles.id });
    return rows.length > 0;
  } catch (error) {
    translateConstraintError(error);
  }
}
