import { Outlet, useMatches } from "react-router";
import { Footer } from "~/components/layout/footer";
import { Header } from "~/components/layout/header";
import type { Route } from "./+types/site-layout";
export { loader } from "./site-layout.server";

/**
 * Route `handle` of public pages: `solidHeader` for pages without a dark photo under the header (or, for a
 * route that serves several kinds of page, a function of its loader data).
 */
export type SiteHandle = { solidHeader?: boolean | ((loaderData: unknown) => boolean) };

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  const solid = matches.some((match) => {
    const solidHeader = (match.handle as SiteHandle | undefined)?.solidHeader;
    return typeof solidHeader === "function" ? solidHeader(match.loaderData) : solidHeader;
  });
  return (
    <>
      <a
        href="#contenu"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Aller au contenu
      </a>
      {loaderData.preview ? (
        <p
          role="status"
          className="fixed inset-x-0 bottom-0 z-[70] bg-amber-300 px-4 py-2 text-center text-sm font-semibold text-stone-900"
        >
          Aperçu : modifications non enregistrées, visibles par vous uniquement.
        </p>
      ) : null}
      <Header solid={solid} />
      <main id="contenu" tabIndex={-1} className="outline-none">
        <Outlet />
      </main>
      <Footer />
    </>
  );
}
