import { useEffect } from "react";
import { data, Link, redirect, useLocation } from "react-router";
import type { Route } from "./+types/not-found";
import type { SiteHandle } from "./site-layout";
import { redirectTarget } from "~/content/redirects";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { log } from "~/server/logger.server";

export const handle: SiteHandle = { solidHeader: true };

/**
 * Every address no route claims lands here: an old address of the previous site (content/redirects.ts)
 * answers a permanent redirect that keeps the query string, anything else a 404. For a client-side
 * navigation the old address never becomes a history entry: only the new one is committed.
 */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // A client-side navigation asks for "/old.data?_routes=…" (single fetch); judge the page's address.
  const path = url.pathname.replace(/\.data$/, "");
  const target = redirectTarget(path);
  if (target) {
    url.searchParams.delete("_routes");
    return redirect(`${target}${url.search}`, 301);
  }
  log.warn("not_found", { path });
  return data(null, NOT_FOUND_INIT);
}

/** A "not found" is never stored by a shared cache: the address may exist tomorrow. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = () => [
  { title: "Page introuvable" },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);

  return (
    <section className="flex min-h-[70vh] flex-col items-center justify-center px-6 pt-24 pb-16 text-center">
      <h1 className="text-6xl font-bold">404</h1>
      <p className="mt-4 text-xl text-muted-foreground">Oops! Page not found</p>
      <Link
        to="/"
        className="mt-8 rounded-full bg-primary px-6 py-3 font-semibold text-primary-foreground hover:bg-stone-700"
      >
        Retour à l'accueil
      </Link>
    </section>
  );
}
