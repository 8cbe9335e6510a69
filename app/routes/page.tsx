import type { Route } from "./+types/page";
import type { SiteHandle } from "./site-layout";
import { StudioContactPage } from "~/components/contact/studio-contact-page";
import { NotFoundPage, notFoundMeta } from "~/components/layout/not-found-page";
import { StudioPage } from "~/components/studio/studio-page";
import { studioNameInSentence } from "~/components/studio/studio-name";
import { siteFrom } from "~/lib/public-site";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
import { studioStructuredData } from "~/lib/structured-data";
export { action, headers, loader } from "./page.server";

/**
 * Every address of one segment that no static route claims: the studios are data (decision 0070), so their
 * pages (/studio-{slug}) and contact pages (/contact-studio-{slug}) are resolved here from the studios on
 * the site; anything else is an old address to redirect (the `redirects` table) or a 404. React Router
 * cannot match a parameter inside a segment (`/studio-:slug`), and static routes rank above this one.
 * Only a studio's contact page accepts a POST: the methods guard answers 405 elsewhere (`acceptsPost`).
 */

const CONTACT_PAGE = /^\/contact-studio-[a-z0-9]+(?:-[a-z0-9]+)*\/?$/;

export const handle: SiteHandle & { acceptsPost: (pathname: string) => boolean } = {
  // The 404 has no dark photo under the header.
  solidHeader: (loaderData) => (loaderData as { kind?: string } | undefined)?.kind === "not-found",
  acceptsPost: (pathname) => CONTACT_PAGE.test(pathname),
};

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData || loaderData.kind === "not-found") return notFoundMeta;
  const site = siteFrom(matches);
  const { address } = loaderData.studio;
  const where = `${address.street}, ${address.postalCode} ${address.city}`;
  if (loaderData.kind === "contact") {
    const { studio } = loaderData;
    return seo({
      title: `Contacter le ${studioNameInSentence(studio)} | ${site.brand}`,
      description: `Écrivez au ${studioNameInSentence(studio)} (${where}) : horaires, téléphone et formulaire de contact pour réserver votre séance photo.`,
      path: studio.contactPath,
      matches,
    });
  }
  const { studio } = loaderData;
  return seo({
    title: `${studio.name} | ${site.brand}`,
    description: `${studio.name} (${where}) : horaires, téléphone, réservation en ligne et bons cadeaux. ${site.label}, ${site.experience}.`,
    path: studio.pagePath,
    matches,
    // A studio's page is light (decision 0090): only the server renders it, so the structured data (and
    // its code) stays out of the browser's bundle, where this route serves the hydrated contact page.
    extra: import.meta.env.SSR
      ? [jsonLd(studioStructuredData(siteUrlFrom(matches), site, studio))]
      : [],
  });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "not-found") return <NotFoundPage />;
  if (loaderData.kind === "contact") return <StudioContactPage studio={loaderData.studio} />;
  return <StudioPage studio={loaderData.studio} />;
}
