import { randomBytes } from "node:crypto";
import { inArray, like } from "drizzle-orm";
import { blogArticles, blogCategories } from "../../app/server/db/schema";
import { serverDatabase } from "./server-under-test";

type ArticleFixture = {
  slug?: string;
  title?: string;
  excerpt?: string;
  content?: string;
  published?: boolean;
  publishedAt?: Date;
  coverImageUrl?: string | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoImageUrl?: string | null;
  author?: string;
  /** Put it in the file's category. */
  inCategory?: boolean;
};

/**
 * Blog fixtures of one test file, all named after one random token so that files sharing the server's
 * database never see each other's rows; `cleanup` removes them.
 */
export function blogFixtures() {
  const token = `t${randomBytes(4).toString("hex")}`;
  let categoryId: string | undefined;
  let sequence = 0;

  return {
    token,
    categorySlug: `categorie-${token}`,
    categoryName: `Catégorie ${token}`,

    async createCategory(description: string | null = "Une catégorie de test.") {
      const [category] = await serverDatabase()
        .insert(blogCategories)
        .values({ slug: `categorie-${token}`, name: `Catégorie ${token}`, description })
        .returning();
      categoryId = category?.id;
      return category;
    },

    async createEmptyCategory() {
      const [category] = await serverDatabase()
        .insert(blogCategories)
        .values({ slug: `vide-${token}`, name: `Vide ${token}`, description: null })
        .returning();
      return category;
    },

    async createArticles(fixtures: ArticleFixture[]) {
      return serverDatabase()
        .insert(blogArticles)
        .values(
          fixtures.map((fixture) => {
            sequence += 1;
            return {
              slug: fixture.slug ?? `article-${token}-${sequence}`,
              title: fixture.title ?? `Article ${token} numéro ${sequence}`,
              excerpt: fixture.excerpt ?? `Extrait de l'article ${sequence}.`,
              content: fixture.content ?? `<p>Corps de l'article ${sequence}.</p>`,
              author: fixture.author ?? "Studio Photo Exemple",
              categoryId: fixture.inCategory ? categoryId : null,
              coverImageUrl:
                fixture.coverImageUrl === undefined
                  ? "/images/demo-blog/naissance.jpg"
                  : fixture.coverImageUrl,
              seoTitle: fixture.seoTitle ?? null,
              seoDescription: fixture.seoDescription ?? null,
              seoImageUrl: fixture.seoImageUrl ?? null,
              published: fixture.published ?? true,
              publishedAt:
                fixture.publishedAt ?? new Date(Date.UTC(2025, 0, 1) + sequence * 86_400_000),
            };
          }),
        )
        .returning();
    },

    async cleanup() {
      await serverDatabase()
        .delete(blogArticles)
        .where(like(blogArticles.slug, `%${token}%`));
      await serverDatabase()
        .delete(blogCategories)
        .where(inArray(blogCategories.slug, [`categorie-${token}`, `vide-${token}`]));
    },
  };
}

/** For expect.poll on what the browser does: the machine may be busy running other suites. */
export const patiently = { timeout: 15_000, interval: 100 };
