import { Link, useLocation } from "react-router";
import { buttonVariants } from "~/components/ui/button";

/** The query-string names of keyset.server.ts (kept here as text: this file also runs in the browser). */
const AFTER_PARAM = "apres";
const BEFORE_PARAM = "avant";

/** The address of the same list, its search and filters kept, at the page after or before a cursor. */
function pageHref(pathname: string, search: string, name: string, cursor: string): string {
  const params = new URLSearchParams(search);
  params.delete(AFTER_PARAM);
  params.delete(BEFORE_PARAM);
  params.set(name, cursor);
  return `${pathname}?${params}`;
}

/**
 * The links between the pages of an admin list (decision 0130): plain links, so they work without
 * JavaScript; nothing when the list fits on one page.
 */
export function Pager({
  previous,
  next,
  label = "Pages de la liste",
}: {
  previous: string | null;
  next: string | null;
  label?: string;
}) {
  const location = useLocation();
  if (!previous && !next) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4">
      {previous ? (
        <Link
          to={pageHref(location.pathname, location.search, BEFORE_PARAM, previous)}
          rel="prev"
          className={buttonVariants({ variant: "outline" })}
        >
          ← Page précédente
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link
          to={pageHref(location.pathname, location.search, AFTER_PARAM, next)}
          rel="next"
          className={buttonVariants({ variant: "outline" })}
        >
          Page suivante →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
