import type { Route } from "./+types/not-found";
import { siteContent } from "~/server/content/site-content.server";
import { redirectOrNotFound } from "~/server/not-found.server";

/**
 * Addresses of several segments that no route claims ("/prestations/maternite", "/category/familles"):
 * an old address of the `redirects` table answers a 301 that keeps the query string, anything else a 404.
 * Addresses of one segment are judged by routes/page.tsx, which also serves the studios' pages.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return redirectOrNotFound(request, await siteContent(context));
}

/** A "not found" is never stored by a shared cache: the address may exist tomorrow. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });
