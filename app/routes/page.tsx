import { data } from "react-router";
import type { Route } from "./+types/page";
import type { SiteHandle } from "./site-layout";
import { StudioContactPage } from "~/components/contact/studio-contact-page";
import { NotFoundPage, notFoundMeta } from "~/components/layout/not-found-page";
import { StudioPage } from "~/components/studio/studio-page";
import { studioNameInSentence } from "~/components/studio/studio-name";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { siteFrom } from "~/lib/public-site";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
import { studioStructuredData } from "~/lib/structured-data";
import { answerContactForm } from "~/server/contact/contact-form.server";
import { siteContent } from "~/server/content/site-content.server";
import { studioAt, studioContactData, studioPageData } from "~/server/content/studio-pages.server";
import { redirectOrNotFound } from "~/server/not-found.server";

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

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const found = studioAt(content, `/${params.page}`);
  if (!found) return redirectOrNotFound(request, content);
  return found.kind === "contact"
    ? { kind: "contact" as const, studio: studioContactData(content, found.studio) }
    : { kind: "studio" as const, studio: studioPageData(content, found.studio) };
}

/** The 404 keeps its `no-store`; a studio's page the site's usual policy. */
export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const own = actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  const headers = new Headers();
  if (own) headers.set("Cache-Control", own);
  return headers;
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

/** A message to a studio, from its contact page's form. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const content = await siteContent(context);
  const found = studioAt(content, `/${params.page}`);
  // A studio retired (or renamed) meanwhile: its page is gone.
  if (found?.kind !== "contact") throw data(null, NOT_FOUND_INIT);
  return answerContactForm(request, context, found.studio);
}

export default function Page({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "not-found") return <NotFoundPage />;
  if (loaderData.kind === "contact") return <StudioContactPage studio={loaderData.studio} />;
  return <StudioPage studio={loaderData.studio} />;
}
