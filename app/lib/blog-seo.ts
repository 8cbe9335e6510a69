import type { HeadersFunction, MetaDescriptor } from "react-router";
import { absoluteUrl, DEFAULT_SHARE_IMAGE } from "~/lib/seo";

export const RSS_PATH = "/blog/rss.xml";

/**
 * Public blog pages and feeds: a CDN may serve them for a minute and revalidate in the background; browsers
 * always ask again, so a publish or edit shows on the next uncached request.
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

/** The feed, announced in the head of every blog page (named after the brand, hence from `meta`). */
export function blogFeedLink(brand: string): MetaDescriptor {
  return {
    tagName: "link",
    rel: "alternate",
    type: "application/rss+xml",
    title: `Blog - ${brand}`,
    href: RSS_PATH,
  };
}

/**
 * Cache headers of a blog page: shared caching for what the loader rendered; an action's answer (it concerns
 * one visitor) and a "not found" carry their own `no-store`, which wins.
 */
export const blogPageHeaders: HeadersFunction = ({
  actionHeaders,
  errorHeaders,
  loaderHeaders,
}) => {
  const own =
    actionHeaders.get("Cache-Control") ??
    errorHeaders?.get("Cache-Control") ??
    loaderHeaders.get("Cache-Control");
  return { "Cache-Control": own ?? (errorHeaders ? "no-store" : PUBLIC_CACHE_CONTROL) };
};

/** What a loader throws for an unknown or unpublished address: 404, never stored by a shared cache. */
export const NOT_FOUND_INIT = { status: 404, headers: { "Cache-Control": "no-store" } };

type Crumb = { name: string; path: string };

/** schema.org BreadcrumbList for Accueil > Blog > … */
export function breadcrumbStructuredData(siteUrl: string, crumbs: Crumb[]) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(siteUrl, crumb.path),
    })),
  };
}

type ArticleForStructuredData = {
  title: string;
  slug: string;
  excerpt: string;
  seoDescription: string | null;
  author: string;
  publishedAt: Date | string | null;
  updatedAt: Date | string;
  image: string;
  categoryName: string | null;
};

function isoDate(value: Date | string | null): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}

/** schema.org BlogPosting of an article page. */
export function blogPostingStructuredData(
  siteUrl: string,
  article: ArticleForStructuredData,
  publisher: { brand: string; shareImage: string },
) {
  const url = `${siteUrl}/blog/${article.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    "@id": `${url}#article`,
    mainEntityOfPage: url,
    url,
    headline: article.title,
    description: article.seoDescription || article.excerpt,
    image: [absoluteUrl(siteUrl, article.image)],
    datePublished: isoDate(article.publishedAt),
    dateModified: isoDate(article.updatedAt),
    author: { "@type": "Person", name: article.author },
    publisher: {
      "@type": "Organization",
      name: publisher.brand,
      logo: { "@type": "ImageObject", url: absoluteUrl(siteUrl, publisher.shareImage) },
    },
    ...(article.categoryName ? { articleSection: article.categoryName } : {}),
    inLanguage: "fr-FR",
  };
}

/** SEO image, else cover, else the logo (SPEC §2). */
export function shareImageOf(article: {
  seoImageUrl: string | null;
  coverImageUrl: string | null;
}) {
  return article.seoImageUrl || article.coverImageUrl || DEFAULT_SHARE_IMAGE;
}
