import type { MetaDescriptor } from "react-router";
import { siteFrom } from "./public-site";

export const DEFAULT_SHARE_IMAGE = "/images/logo-partage.png";

type SeoInput = {
  title: string;
  description: string;
  /** Path of the page, e.g. "/tarifs"; the canonical address is SITE_URL + path. */
  path: string;
  /** The meta function's matches: the site's address (root) and facts (site layout) come from them. */
  matches: Matches;
  /** Absolute or site-relative image; the logo when absent. */
  image?: string | null;
  type?: "website" | "article";
  /** Extra tags (article:published_time, JSON-LD…). */
  extra?: MetaDescriptor[];
};

export function absoluteUrl(siteUrl: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${siteUrl}${pathOrUrl}`;
}

/** Title, description, canonical link, Open Graph and Twitter card tags of a page. */
export function seo({
  title,
  description,
  path,
  matches,
  image,
  type = "website",
  extra = [],
}: SeoInput): MetaDescriptor[] {
  const siteUrl = siteUrlFrom(matches);
  const site = siteFrom(matches);
  const url = absoluteUrl(siteUrl, path);
  const imageUrl = absoluteUrl(siteUrl, image || site.shareImage);
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.brand },
    { property: "og:locale", content: "fr_FR" },
    { property: "og:type", content: type },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
    ...extra,
  ];
}

/** JSON-LD as a meta descriptor; React Router renders it as a <script type="application/ld+json">. */
export function jsonLd(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": data };
}

type Matches = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

/** The site's base address, from the root loader's data (SITE_URL). */
export function siteUrlFrom(matches: Matches) {
  const root = matches.find((match) => match?.id === "root")?.loaderData as
    { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}
