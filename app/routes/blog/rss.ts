import type { Route } from "./+types/rss";
import { PUBLIC_CACHE_CONTROL, RSS_PATH } from "~/lib/blog-seo";
import { listFeedArticles } from "~/server/blog/articles.server";
import { siteContent } from "~/server/content/site-content.server";
import { env } from "~/server/env.server";
import { escapeXml } from "~/server/xml.server";

/** RSS 2.0 feed of the 20 latest published articles. */
export async function loader({ context }: Route.LoaderArgs) {
  const siteUrl = env().SITE_URL;
  const [articles, content] = await Promise.all([listFeedArticles(), siteContent(context)]);
  const { brand } = content.documents.identity;
  const latest = articles[0]?.publishedAt;
  const items = articles
    .map((article) => {
      const url = `${siteUrl}/blog/${article.slug}`;
      return [
        "    <item>",
        `      <title>${escapeXml(article.title)}</title>`,
        `      <link>${escapeXml(url)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
        `      <description>${escapeXml(article.excerpt)}</description>`,
        `      <dc:creator>${escapeXml(article.author)}</dc:creator>`,
        article.categoryName ? `      <category>${escapeXml(article.categoryName)}</category>` : "",
        article.publishedAt ? `      <pubDate>${article.publishedAt.toUTCString()}</pubDate>` : "",
        "    </item>",
      ]
        .filter(Boolean)
        .join("\n");
    })
    .join("\n");

  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(`Blog - ${brand}`)}</title>
    <link>${escapeXml(`${siteUrl}/blog`)}</link>
    <description>Conseils, coulisses et inspiration photographique</description>
    <language>fr-FR</language>
    <atom:link href="${escapeXml(`${siteUrl}${RSS_PATH}`)}" rel="self" type="application/rss+xml"/>
${latest ? `    <lastBuildDate>${latest.toUTCString()}</lastBuildDate>\n` : ""}${items}
  </channel>
</rss>
`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      "Cache-Control": PUBLIC_CACHE_CONTROL,
    },
  });
}
