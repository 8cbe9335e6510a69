import { matchRoutes, type RouteObject } from "react-router";

/**
 * « Is this address a page of the site? », judged by the route table itself (so a page added tomorrow is
 * known at once): an address is a page when a route other than the catch-alls claims it: `*` (the 404 page
 * that also follows the redirects) and a segment that is only a parameter (`:page`, whose pages are the
 * studios' /studio-{slug} and /contact-studio-{slug}, judged from the studios themselves, and whose other
 * addresses are old addresses or 404s). The admin's redirect checks use it (redirects.server.ts).
 */

/** A route as the server build lists it (`ServerBuild["routes"]`), or as a test writes it. */
export type RouteEntry = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
};

export type PageMatcher = (pathname: string) => boolean;

function routeTree(routes: readonly RouteEntry[], parentId?: string): RouteObject[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, caseSensitive: route.caseSensitive, index: true }
        : {
            id: route.id,
            path: route.path,
            caseSensitive: route.caseSensitive,
            children: routeTree(routes, route.id),
          },
    );
}

/** The matcher of a route table. */
export function pageMatcher(routes: Record<string, RouteEntry | undefined>): PageMatcher {
  const tree = routeTree(Object.values(routes).filter((route) => route !== undefined));
  return (pathname) => {
    const matches = matchRoutes(tree, pathname) ?? [];
    const deepest = matches.at(-1)?.route;
    if (!deepest) return false;
    return deepest.path !== "*" && !/^:\w+$/.test(deepest.path ?? "");
  };
}
