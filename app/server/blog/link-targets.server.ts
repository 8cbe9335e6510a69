import { desc, eq } from "drizzle-orm";
import type { SitePage } from "~/lib/link-address";
import type { StudioRecord } from "../content/site-content.server";
import { db } from "../db/client.server";
import { blogArticles } from "../db/schema";

/*
 * The pages an article may link to, for the editor's link dialog: the site's own pages by their names,
 * each studio's page and contact page, the blog and its newest articles (the dialog's field takes any
 * other address).
 */

/** The static pages of the site (routes/sitemap.ts lists their addresses) with the names the menu uses. */
export const STATIC_PAGES: Array<[label: string, path: string]> = [
  ["Accueil", "/"],
  ["Prestations", "/prestations"],
  ["Portrait de famille", "/portrait-famille"],
  ["Grossesse", "/prestations/grossesse"],
  ["Naissances", "/prestations/naissances"],
  ["Mariages", "/prestations/mariages"],
  ["Séances à offrir", "/seances-a-offrir"],
  ["Professionnels", "/professionnels"],
  ["Gendarmerie", "/gendarmerie"],
  ["Scolaire", "/scolaire"],
  ["Contact", "/contact"],
  ["Tarifs", "/tarifs"],
  ["Galerie", "/galerie"],
  ["Boudoir", "/boudoir"],
  ["Blog", "/blog"],
  ["Mentions légales", "/mentions-legales"],
  ["Données personnelles", "/donnees-personnelles"],
  ["Politique cookies", "/politique-cookies"],
];

/** How many of the newest articles the dialog lists. */
const ARTICLES_LISTED = 100;

export async function sitePages(studios: readonly StudioRecord[]): Promise<SitePage[]> {
  const articles = await db()
    .select({ title: blogArticles.title, slug: blogArticles.slug })
    .from(blogArticles)
    .where(eq(blogArticles.published, true))
    .orderBy(desc(blogArticles.publishedAt), desc(blogArticles.id))
    .limit(ARTICLES_LISTED);
  return [
    ...STATIC_PAGES.map(([label, path]): SitePage => ({ label, path, group: "Pages" })),
    ...studios.flatMap((studio): SitePage[] => [
      { label: studio.data.name, path: studio.pagePath, group: "Studios" },
      { label: `${studio.data.name} – contact`, path: studio.contactPath, group: "Studios" },
    ]),
    ...articles.map((article): SitePage => ({
      label: article.title,
      path: `/blog/${article.slug}`,
      group: "Articles",
    })),
  ];
}
