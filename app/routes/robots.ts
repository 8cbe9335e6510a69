import { PUBLIC_CACHE_CONTROL } from "~/lib/blog-seo";
import { env } from "~/server/env.server";

/** Crawlers may read everything public; the admin area is not for them; the sitemap is announced. */
export function loader() {
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "",
    `Sitemap: ${env().SITE_URL}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PUBLIC_CACHE_CONTROL },
  });
}
