import { redirect } from "react-router";
import type { Route } from "./+types/redirect";
import { redirectTarget } from "~/content/redirects";

// One module serves every old address of content/redirects.ts: a permanent redirect that keeps the query
// string. The old address never becomes a history entry: a client-side navigation to it commits only the
// new address (`replace()` would instead overwrite the page the visitor came from).
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // A client-side navigation asks for "/old.data?_routes=…" (single fetch); redirect from the page's address.
  const pathname = url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  const target = redirectTarget(pathname);
  if (!target) throw new Response(null, { status: 404 });
  return redirect(`${target}${url.search}`, 301);
}
