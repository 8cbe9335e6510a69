import { Outlet } from "react-router";
import { telHref } from "~/lib/public-site";
import type { Route } from "./+types/layout";

export { loader } from "./layout.server";

/**
 * The client's gallery pages (decision 0103) have a layout of their own: the brand and the studio's
 * contact, no menu leading elsewhere (the client came for the photos; the address must not travel
 * through links to the rest of the site).
 */
export default function GalleryClientLayout({ loaderData }: Route.ComponentProps) {
  const { brand, contact } = loaderData;
  return (
    <div className="flex min-h-screen flex-col bg-stone-50 text-stone-900">
      <a
        href="#contenu"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Aller au contenu
      </a>
      <header className="border-b border-stone-200 bg-white">
        <p className="mx-auto max-w-7xl px-4 py-4 font-serif text-xl font-semibold">{brand}</p>
      </header>
      <main id="contenu" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
      <footer className="border-t border-stone-200 bg-white text-sm text-stone-700">
        <div className="mx-auto flex max-w-7xl flex-wrap gap-x-6 gap-y-2 px-4 py-6">
          <p className="font-semibold">{contact.name}</p>
          {contact.phone ? (
            <p>
              Téléphone :{" "}
              <a
                className="inline-flex min-h-11 items-center underline"
                href={telHref(contact.phone)}
              >
                {contact.phone}
              </a>
            </p>
          ) : null}
          <p>
            E-mail :{" "}
            <a className="underline" href={`mailto:${contact.email}`}>
              {contact.email}
            </a>
          </p>
        </div>
      </footer>
    </div>
  );
}
