import { pagePath } from "../page-path.server";
import type { RequestHandler } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { refuse } from "./refusal.server";

/**
 * Which HTTP methods each address accepts, derived from the route table: GET and HEAD everywhere, POST
 * where the route that would handle it has an action. Anything else (PUT, DELETE, PATCH, TRACE, CONNECT…)
 * and a POST to a page without action answer 405 with `Allow` and a French message before React Router
 * runs; OPTIONS answers 204 with `Allow`. (Undici cannot even build a TRACE request: it used to be a 500.)
 */

type Target = { id: string; index: boolean };

function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  const tree: RouteObject[] = [];
  for (const route of Object.values(routes)) {
    if (!route || route.parentId !== parentId) continue;
    const { id, path, caseSensitive } = route;
    tree.push(
      route.index
        ? { id, path, caseSensitive, index: true }
        : { id, path, caseSensitive, children: routeTree(routes, id) },
    );
  }
  return tree;
}

const trees = new WeakMap<ServerBuild, RouteObject[]>();

/** The methods `pathname` accepts, e.g. "GET, HEAD, POST". */
export function allowedMethods(build: ServerBuild, pathname: string, search: string): string {
  let tree = trees.get(build);
  if (!tree) {
    tree = routeTree(build.routes);
    trees.set(build, tree);
  }
  const matches = matchRoutes(tree, pagePath(pathname), build.basename) ?? [];
  // As React Router chooses the action: the deepest match, but an index route only when `?index` is
  // asked for (otherwise its parent's).
  const targets: Target[] = matches.map((match) => ({
    id: match.route.id ?? "",
    index: match.route.index === true,
  }));
  let target = targets.at(-1);
  if (target?.index && !new URLSearchParams(search).has("index")) target = targets.at(-2);
  const module = target ? build.routes[target.id]?.module : undefined;
  // A route serving several kinds of page says which of its addresses take a POST (routes/page.tsx).
  const acceptsPost = (module?.handle as { acceptsPost?: (path: string) => boolean } | undefined)
    ?.acceptsPost;
  const hasAction =
    typeof module?.action === "function" && (acceptsPost?.(pagePath(pathname)) ?? true);
  return hasAction ? "GET, HEAD, POST" : "GET, HEAD";
}

export function methodGuard(build: () => Promise<ServerBuild>): RequestHandler {
  return async (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    let allow: string;
    try {
      const url = new URL(req.originalUrl, "http://localhost");
      allow = allowedMethods(await build(), url.pathname, url.search);
    } catch (error) {
      return next(error);
    }
    if (req.method === "OPTIONS") {
      res.setHeader("Allow", allow);
      res.setHeader("Cache-Control", "no-store");
      return void res.status(204).end();
    }
    if (allow.split(", ").includes(req.method)) return next();
    refuse(
      req,
      res,
      405,
      `Cette adresse n'accepte pas la méthode ${req.method}. Méthodes acceptées : ${allow}.`,
      { allow },
    );
  };
}
