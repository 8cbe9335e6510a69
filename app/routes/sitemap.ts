import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Route } from "./+types/sitemap";
import { PUBLIC_CACHE_CONTROL } from "~/lib/blog-seo";
import { BOOKING_HOME_PATH, bookingStudioPath } from "~/lib/booking/urls";
import { VOUCHERS_PATH } from "~/lib/vouchers/order-page";
import { listSitemapArticles } from "~/server/blog/articles.server";
import { listSitemapCategories } from "~/server/blog/categories.server";
import { siteContent, type StudioRecord } from "~/server/content/site-content.server";
import { env } from "~/server/env.server";
import { escapeXml } from "~/server/xml.server";

/**
 * The static public pages of SPEC §2's route table; sitemap.test.ts checks this list against the route
 * table. The studios' pages and contact pages come from the database (the studios on the site, in menu
 * order), like the blog's articles and categories.
 */
export const staticPages = [
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
  "/contact",
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

/**
 * Every public page's address: the static pages, then each studio's page and contact page, then the booking
 * pages of the studios that take bookings on the site (decision 0115; /reserver exists only when one does).
 */
export function publicPages(
  studios: readonly StudioRecord[],
  { vouchersOnSale = false }: { vouchersOnSale?: boolean } = {},
): string[] {
  const booking = studios.filter((studio) => studio.data.onlineBooking);
  return [
    ...staticPages,
    // /bons-cadeaux exists only while vouchers are on sale (decision 0168).
    ...(vouchersOnSale ? [VOUCHERS_PATH] : []),
    ...studios.map((studio) => studio.pagePath),
    ...studios.map((studio) => studio.contactPath),
    ...(booking.length > 0 ? [BOOKING_HOME_PATH] : []),
    ...booking.map((studio) => bookingStudioPath(studio.slug)),
  ];
}

/** /sitemap.xml: every public page, every published article and every category, with lastmod. */
export async function loader({ context }: Route.LoaderArgs) {
  const siteUrl = env().SITE_URL;
  const [articles, categories, content] = await Promise.all([
    listSitemapArticles(),
    listSitemapCategories(),
    siteContent(context),
  ]);
  const latestArticle = articles.reduce<Date | undefined>(
    (latest, article) => (!latest || article.updatedAt > latest ? article.updatedAt : latest),
    undefined,
  );
  const blogModified = latestArticle && latestArticle > builtAt ? latestArticle : builtAt;

  const entries = [
    ...publicPages(content.studios, {
      vouchersOnSale: content.documents.payments.vouchersOnSale,
    }).map((path) => entry(`${siteUrl}${path}`, builtAt)),
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
