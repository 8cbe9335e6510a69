import { asc, count, eq } from "drizzle-orm";
import type { CategoryInput } from "~/lib/admin-schemas";
import { db } from "../db/client.server";
import { blogArticles, blogCategories } from "../db/schema";
import { SlugTakenError } from "./admin-articles.server";

/** Every category by name, with the number of articles filed under it. */
export function listCategoriesForAdmin() {
  return db()
    .select({
      id: blogCategories.id,
      name: blogCategories.name,
      slug: blogCategories.slug,
      description: blogCategories.description,
      articleCount: count(blogArticles.id),
    })
    .from(blogCategories)
    .leftJoin(blogArticles, eq(blogArticles.categoryId, blogCategories.id))
    .groupBy(blogCategories.id)
    .orderBy(asc(blogCategories.name));
}

function rethrow(error: unknown): never {
  if ((error as { cause?: { code?: string } }).cause?.code === "23505") {
    throw new SlugTakenError("slug déjà utilisé", { cause: error });
  }
  throw error;
}

export async function createCategory(input: CategoryInput): Promise<void> {
  try {
    await db().insert(blogCategories).values(input);
  } catch (error) {
    rethrow(error);
  }
}

export async function updateCategory(id: string, input: CategoryInput): Promise<boolean> {
  try {
    const rows = await db()
      .update(blogCategories)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(blogCategories.id, id))
      .returning({ id: blogCategories.id });
    return rows.length > 0;
  } catch (error) {
    rethrow(error);
  }
}

/** Articles of a deleted category stay, without a category (foreign key: on delete set null). */
export async function deleteCategory(id: string): Promise<boolean> {
  const rows = await db()
    .delete(blogCategories)
    .where(eq(blogCategories.id, id))
    .returning({ id: blogCategories.id });
  return rows.length > 0;
}
