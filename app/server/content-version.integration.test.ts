import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../tests/support/database";
import { countArticleView, flushArticleViews } from "./blog/article-views.server";
import { readContentVersion } from "./content-version.server";
import { db } from "./db/client.server";
import { blogArticles, blogCategories } from "./db/schema";

useAppDatabase();

const article = (slug: string, published = true) => ({
  slug,
  title: `Article ${slug}`,
  excerpt: "Un extrait.",
  content: "<p>Texte</p>",
  author: "Auteur",
  published,
  publishedAt: new Date("2026-05-01T10:00:00Z"),
});

const viewsOf = async (slug: string) =>
  (
    await db()
      .select({ views: blogArticles.viewCount })
      .from(blogArticles)
      .where(eq(blogArticles.slug, slug))
  )[0]?.views;

describe("content version", () => {
  it("rises with every change to articles or categories, in the writer's transaction", async () => {
    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        "insert a category",
        () => db().insert(blogCategories).values({ name: "Conseils", slug: "conseils" }),
      ],
      ["rename it", () => db().update(blogCategories).set({ name: "Astuces" })],
      ["insert an article", () => db().insert(blogArticles).values(article("un"))],
      ["edit it", () => db().update(blogArticles).set({ title: "Nouveau titre" })],
      ["unpublish it", () => db().update(blogArticles).set({ published: false })],
      ["delete it", () => db().delete(blogArticles)],
      ["delete the category", () => db().delete(blogCategories)],
    ];
    for (const [step, change] of steps) {
      const before = await readContentVersion();
      await change();
      expect(await readContentVersion(), step).toBeGreaterThan(before);
    }
  });

  it("is not seen to rise before the change is committed", async () => {
    const before = await readContentVersion();
    await db().transaction(async (transaction) => {
      await transaction.insert(blogArticles).values(article("en-cours"));
      // Another connection (the page cache's) still reads the old number.
      expect(await readContentVersion()).toBe(before);
    });
    expect(await readContentVersion()).toBeGreaterThan(before);
  });

  it("stays the same when only views are counted", async () => {
    await db().insert(blogArticles).values(article("vu"));
    const before = await readContentVersion();
    await db().execute(sql`update blog_articles set view_count = view_count + 3`);
    expect(await readContentVersion()).toBe(before);
  });
});

describe("article views", () => {
  it("counts every view of a published article, written together in one statement", async () => {
    await db()
      .insert(blogArticles)
      .values([article("a"), article("b"), article("brouillon", false)]);
    const ids: Record<string, string> = Object.fromEntries(
      (await db().select({ id: blogArticles.id, slug: blogArticles.slug }).from(blogArticles)).map(
        (row) => [row.slug, row.id],
      ),
    );
    const versionBefore = await readContentVersion();
    for (let index = 0; index < 5; index += 1) countArticleView(ids.a ?? "");
    countArticleView(ids.b ?? "");
    countArticleView(ids.brouillon ?? "");
    await flushArticleViews();
    expect(await viewsOf("a")).toBe(5);
    expect(await viewsOf("b")).toBe(1);
    // A draft has no public page: nothing to count.
    expect(await viewsOf("brouillon")).toBe(0);
    expect(await readContentVersion()).toBe(versionBefore);
  });

  it("writes the pending views by itself within a couple of seconds", async () => {
    const [row] = await db()
      .select({ id: blogArticles.id })
      .from(blogArticles)
      .where(eq(blogArticles.slug, "b"));
    if (!row) throw new Error("missing fixture");
    countArticleView(row.id);
    countArticleView(row.id);
    await expect.poll(() => viewsOf("b"), { timeout: 5_000 }).toBe(3);
  });
});
