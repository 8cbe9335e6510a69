import { data } from "react-router";
import type { Route } from "./+types/contact";
import { answerContactForm } from "~/server/contact/contact-form.server";
import { siteContent, type SiteContent } from "~/server/content/site-content.server";

/**
 * The visitor chooses the studio that receives the message (docs/decisions/0020): the choice is a link
 * (?studio={slug}), so it works without JavaScript, and the form shown is that studio's own. The first
 * studio of the menu when none (or an unknown one) is asked for.
 */
function chosenStudio(content: SiteContent, request: Request) {
  const slug = new URL(request.url).searchParams.get("studio");
  return content.studios.find((studio) => studio.slug === slug) ?? content.studios[0];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const studio = chosenStudio(content, request);
  return {
    photo: content.photo(content.documents.pagePhotos.slots["contact.hero"]),
    // None when every studio is retired: the page still gives the general e-mail.
    studio: studio
      ? {
          slug: studio.slug,
          name: studio.data.name,
          city: studio.data.address.city,
          contactForm: studio.data.contactForm,
        }
      : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const content = await siteContent(context);
  const studio = chosenStudio(content, request);
  if (!studio) throw data(null, { status: 404, headers: { "Cache-Control": "no-store" } });
  return answerContactForm(request, context, studio);
}
