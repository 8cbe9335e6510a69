import type { Route } from "./+types/pages-du-site";
import { requireAdmin } from "~/server/admin/guard.server";
import { sitePages } from "~/server/blog/link-targets.server";
import { siteContent } from "~/server/content/site-content.server";

/**
 * /admin/pages-du-site: the pages the article editor's link dialog offers (JSON, administrators only; a
 * resource route: refused with 401/403, never redirected).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const pages = await sitePages((await siteContent(context)).studios);
  return Response.json({ pages }, { headers: { "Cache-Control": "no-store" } });
}
