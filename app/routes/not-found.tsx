import type { Route } from "./+types/not-found";
import type { SiteHandle } from "./site-layout";
import { NotFoundPage, notFoundMeta } from "~/components/layout/not-found-page";
export { headers, loader } from "./not-found.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = () => notFoundMeta;

export default function NotFound() {
  return <NotFoundPage />;
}
