import { and, asc, eq, max, sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { blogArticles, blogCategories } from "../db/schema";

export type CategoryBadge = { id: string; name: string; slug: string };

/** Every category, by name (the filter badges of /blog). */
export async function listCategories(): Promise<CategoryBadge[]> {
  return db()
    .select({ id: blogCategories.id, name: blogCategories.name, slug: blogCategories.slug })
    .from(blogCategories)
    .orderBy(asc(blogCategories.name));
}

export async function findCategoryBySlug(slug: string) {
  const [category] = await db()
    .select({
      id: blogCategories.id,
      name: blogCategories.name,
      slug: blogCategories.slug,
      description: blogCategories.description,
    })
    .from(blogCategories)
    .where(eq(blogCategories.slug, slug))
    .limit(1);
  return category;
}

/** Categories with the date of their latest change or latest published article, for the sitemap. */
export async function listSitemapCategories() {
  return db()
    .select({
      slug: blogCategories.slug,
      lastModified:
        sql<Date>`greatest(${blogCategories.updatedAt}, coalesce(${max(blogArticles.updatedAt)}, ${blogCategories.updatedAt}))`.mapWith(
          (value: string | Date) => new Date(value),
        ),
    })
    .from(blogCategories)
    .leftJoin(
      blogArticles,
      and(eq(blogArticles.categoryId, blogCategories.id), eq(blogArticles.published, true)),
    )
    .groupBy(blogCategories.id)
    .orderBy(asc(blogCategories.name));
}
