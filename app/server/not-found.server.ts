import { data, redirect } from "react-router";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { redirectTarget } from "~/lib/redirects";
import type { SiteContent } from "./content/site-content.server";
import { log } from "./logger.server";

/**
 * An address no page claims: an old address of the previous site (the `redirects` table) answers a
 * permanent redirect that keeps the query string, anything else a 404. For a client-side navigation the
 * old address never becomes a history entry: only the new one is committed.
 */
export function redirectOrNotFound(request: Request, content: SiteContent) {
  const url = new URL(request.url);
  // A client-side navigation asks for "/old.data?_routes=…" (single fetch); judge the page's address.
  const path = url.pathname.replace(/\.data$/, "");
  const target = redirectTarget(content.redirects, path);
  if (target) {
    url.searchParams.delete("_routes");
    throw redirect(`${target}${url.search}`, 301);
  }
  log.warn("not_found", { path });
  return data({ kind: "not-found" as const }, NOT_FOUND_INIT);
}
