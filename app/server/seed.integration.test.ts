import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database";
import { blogArticles, blogCategories } from "./db/schema";
import { blogIsEmpty, demoCoverNames, seedDemoContent } from "./seed.server";

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
});

afterAll(async () => {
  await testDatabase?.close();
});

describe("demo content", () => {
  it("adds three categories and twelve articles, one of them a draft, once", async () => {
    expect(await blogIsEmpty(testDatabase.db)).toBe(true);
    expect(await seedDemoContent(testDatabase.db)).toEqual({ categories: 3, articles: 12 });
    expect(await blogIsEmpty(testDatabase.db)).toBe(false);

    const articles = await testDatabase.db.select().from(blogArticles);
    expect(articles.filter((article) => !article.published)).toHaveLength(1);
    expect(articles.every((article) => article.categoryId)).toBe(true);
    expect(articles.every((article) => !article.published || article.publishedAt)).toBe(true);
    expect(await testDatabase.db.select().from(blogCategories)).toHaveLength(3);

    // Running it again adds nothing.
    expect(await seedDemoContent(testDatabase.db)).toEqual({ categories: 0, articles: 0 });
  });

  it("has a cover image file for every article", () => {
    const directory = path.resolve(import.meta.dirname, "../../public/images/demo-blog");
    for (const name of demoCoverNames) {
      expect(existsSync(path.join(directory, `${name}.jpg`)), name).toBe(true);
    }
  });
});
