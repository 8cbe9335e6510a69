import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { studios } from "~/content/studios";
import { PUBLIC_CACHE_CONTROL } from "~/lib/blog-seo";
import { listSitemapArticles } from "~/server/articles.server";
import { listSitemapCategories } from "~/server/categories.server";
import { env } from "~/server/env.server";
import { escapeXml } from "~/server/xml.server";

/**
 * The public pages of SPEC §2's route table (the blog's articles and categories come from the database).
 * The studios' pages come from the same list as the route table (app/routes.ts maps content/studios), so a
 * studio added there is in the sitemap too; sitemap.test.ts checks this list against the route table.
 */
export const publicPages = [
  "/",
  "/prestations",
  "/portrait-famille",
  "/prestations/grossesse",
  "/prestations/naissances",
  "/prestations/mariages",
  "/seances-a-offrir",
  "/professionnels",
  "/gendarmerie",
  "/scolaire",
  ...studios.map((studio) => studio.pagePath),
  "/contact",
  ...studios.map((studio) => studio.contactPath),
  "/tarifs",
  "/galerie",
  "/boudoir",
  "/mentions-legales",
  "/donnees-personnelles",
  "/politique-cookies",
];

// Static pages change when the site is rebuilt: the server bundle's date is theirs.
const builtAt = (() => {
  try {
    return statSync(fileURLToPath(import.meta.url)).mtime;
  } catch {
    return new Date();
  }
})();

function entry(location: string, lastModified: Date): string {
  return `  <url>\n    <loc>${escapeXml(location)}</loc>\n    <lastmod>${lastModified.toISOString()}</lastmod>\n  </url>`;
}

/** /sitemap.xml: every public page, every published article and every category, with lastmod. */
export async function loader() {
  const siteUrl = env().SITE_URL;
  const [articles, categories] = await Promise.all([
    listSitemapArticles(),
    listSitemapCategories(),
  ]);
  const latestArticle = articles.reduce<Date | undefined>(
    (latest, article) => (!latest || article.updatedAt > latest ? article.updatedAt : latest),
    undefined,
  );
  const blogModified = latestArticle && latestArticle > builtAt ? latestArticle : builtAt;

  const entries = [
    ...publicPages.map((path) => entry(`${siteUrl}${path}`, builtAt)),
    entry(`${siteUrl}/blog`, blogModified),
    ...categories.map((category) =>
      entry(`${siteUrl}/blog/categorie/${category.slug}`, category.lastModified),
    ),
    ...articles.map((article) => entry(`${siteUrl}/blog/${article.slug}`, article.updatedAt)),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.join("\n")}
</urlset>
`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": PUBLIC_CACHE_CONTROL,
    },
  });
}
