import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import {
  DEMO_BLOG_IMAGES_PATH,
  VARIANT_WIDTHS,
  variantUrl,
  type VariantFormat,
} from "~/lib/image-variants";
import { blogArticles, blogCategories } from "../db/schema";
import { blogIsEmpty, demoCoverNames, seedDemoContent } from "./demo-articles.server";

let testDatabase: TestDatabase;
const formats: VariantFormat[] = ["avif", "webp"];

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

  it("has a cover image file, with its AVIF and WebP variants, for every article", () => {
    const directory = path.resolve(import.meta.dirname, "../../../public");
    for (const name of demoCoverNames) {
      const cover = `${DEMO_BLOG_IMAGES_PATH}${name}.jpg`;
      const files = [
        cover,
        ...VARIANT_WIDTHS.flatMap((width) =>
          formats.map((format) => variantUrl(cover, width, format)),
        ),
      ];
      for (const file of files) expect(existsSync(path.join(directory, file)), file).toBe(true);
    }
  });
});
