import { Outlet, useMatches } from "react-router";
import { Footer } from "~/components/layout/footer";
import { Header } from "~/components/layout/header";

/** Route `handle` of public pages: `solidHeader` for pages without a dark photo under the header. */
export type SiteHandle = { solidHeader?: boolean };

export default function SiteLayout() {
  const matches = useMatches();
  const solid = matches.some((match) => (match.handle as SiteHandle | undefined)?.solidHeader);
  return (
    <>
      <a
        href="#contenu"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Aller au contenu
      </a>
      <Header solid={solid} />
      <main id="contenu" tabIndex={-1} className="outline-none">
        <Outlet />
      </main>
      <Footer />
    </>
  );
}
