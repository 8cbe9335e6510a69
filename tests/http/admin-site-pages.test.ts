import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { STATIC_PAGES } from "../../app/server/blog/link-targets.server";
import type { SitePage } from "../../app/lib/link-address";
import { staticPages } from "../../app/routes/sitemap";
import { useAdmin } from "../support/accounts";
import { blogFixtures } from "../support/blog-fixtures";
import { fetchPage } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * The pages the article editor's link dialog offers: the site's own pages by name, each
 * studio's page and contact page, the newest published articles. Refusals to others are in
 * admin-authorization.test.ts; the dialog itself in tests/e2e/admin-article-editor.test.ts.
 */

const admin = useAdmin();
const fixtures = blogFixtures();
afterAll(() => fixtures.cleanup());

describe("/admin/pages-du-site", () => {
  it("lists every public page by its name, the studios and published articles only", async () => {
    // The newest article of the blog (the list holds the 100 newest), and a draft.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const [published, draft] = await fixtures.createArticles([
      { title: `Nos tarifs de mariage ${fixtures.token}`, publishedAt: tomorrow },
      { title: `Brouillon ${fixtures.token}`, published: false, publishedAt: tomorrow },
    ]);
    const answer = await fetchPage("/admin/pages-du-site", {
      cookie: admin.cookie(),
      headers: { Accept: "application/json" },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const { pages } = JSON.parse(answer.html) as { pages: SitePage[] };
    const byGroup = (group: SitePage["group"]) => pages.filter((page) => page.group === group);

    // Every static page of the sitemap, named, and the blog.
    expect(
      byGroup("Pages")
        .map((page) => page.path)
        .sort(),
    ).toEqual([...staticPages, "/blog"].sort());
    expect(STATIC_PAGES.every(([label]) => label.length > 0)).toBe(true);
    expect(byGroup("Pages").find((page) => page.path === "/tarifs")?.label).toBe("Tarifs");
    for (const slug of ["ussel", "brive", "limoges"]) {
      expect(byGroup("Studios").map((page) => page.path)).toEqual(
        expect.arrayContaining([`/studio-${slug}`, `/contact-studio-${slug}`]),
      );
    }
    expect(byGroup("Articles")).toContainEqual({
      label: published?.title,
      path: `/blog/${published?.slug}`,
      group: "Articles",
    });
    expect(pages.map((page) => page.path)).not.toContain(`/blog/${draft?.slug}`);
    const slugs = byGroup("Articles").map((page) => page.path.replace(/^\/blog\//, ""));
    const publishedRows = await serverDatabase()
      .select({ slug: blogArticles.slug })
      .from(blogArticles)
      .where(and(inArray(blogArticles.slug, slugs), eq(blogArticles.published, true)));
    expect(publishedRows).toHaveLength(slugs.length);
  });
});
