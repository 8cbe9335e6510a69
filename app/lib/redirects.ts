/**
 * Old addresses of the previous site that still circulate (search results, shared links, printed flyers):
 * each answers a permanent redirect (301) to its page here. The table is data (`redirects`, seeded with
 * SPEC §2's list, edited at /admin/redirections); this is how an address is looked up in it.
 */

/** The path as the table keeps it: without a trailing slash (but "/" itself). */
export function normalisedPath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}

/** The redirect target for a path (trailing slash ignored), or undefined. */
export function redirectTarget(
  redirects: ReadonlyMap<string, string>,
  pathname: string,
): string | undefined {
  return redirects.get(normalisedPath(pathname));
}
