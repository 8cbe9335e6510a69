import { PUBLIC_CACHE_CONTROL } from "~/lib/blog-seo";
import { env } from "~/server/env.server";

/**
 * Addresses crawlers are kept out of: the admin area, and the newsletter's e-mailed links (each holds a
 * subscriber's token; a crawler has nothing to find there), and the clients' private galleries (decision
 * 0103). Never listed in the sitemap either.
 */
export const disallowedPaths = ["/admin", "/newsletter/", "/galerie-client/", "/reservation/"];

/** Crawlers may read everything public but these; the sitemap is announced. */
export function loader() {
  const body = [
    "User-agent: *",
    "Allow: /",
    ...disallowedPaths.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${env().SITE_URL}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PUBLIC_CACHE_CONTROL },
  });
}
