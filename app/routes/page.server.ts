import { data } from "react-router";
import type { Route } from "./+types/page";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { answerContactForm } from "~/server/contact/contact-form.server";
import { siteContent } from "~/server/content/site-content.server";
import { studioAt, studioContactData, studioPageData } from "~/server/content/studio-pages.server";
import { redirectOrNotFound } from "~/server/not-found.server";

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

/** A message to a studio, from its contact page's form. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const content = await siteContent(context);
  const found = studioAt(content, `/${params.page}`);
  // A studio retired (or renamed) meanwhile: its page is gone.
  if (found?.kind !== "contact") throw data(null, NOT_FOUND_INIT);
  return answerContactForm(request, context, found.studio);
}
