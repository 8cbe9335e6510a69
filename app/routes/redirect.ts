import { replace } from "react-router";
import type { Route } from "./+types/redirect";
import { redirectTarget } from "~/content/redirects";

// One module serves every old address of content/redirects.ts: a permanent redirect that keeps the query
// string. `replace` makes a client-side navigation replace the history entry instead of adding one.
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const target = redirectTarget(url.pathname);
  if (!target) throw new Response(null, { status: 404 });
  return replace(`${target}${url.search}`, 301);
}
