import { data, useLocation } from "react-router";
import type { Route } from "./+types/contact-studio";
import { ContactForm } from "~/components/contact/contact-form";
import { networkFailure } from "~/components/contact/contact-outcome";
import { StudioContactCards } from "~/components/contact/studio-contact-cards";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { studioFromPath, studioNameInSentence } from "~/components/studio/studio-from-path";
import { studioHeroPhotos } from "~/components/studio/studio-photos-hero";
import { site } from "~/content/site";
import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { formValues } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { submitContactForm } from "~/server/contact-form.server";
import { clientAddressContext } from "~/server/context";

// One module serves /contact-studio-ussel, /contact-studio-brive and /contact-studio-limoges.

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const studio = studioFromPath(location.pathname);
  return seo({
    title: `Contacter le ${studioNameInSentence(studio)} | ${site.brand}`,
    description: `Écrivez au ${studioNameInSentence(studio)} (${studio.address.street}, ${studio.address.postalCode} ${studio.address.city}) : horaires, téléphone et formulaire de contact pour réserver votre séance photo.`,
    path: studio.contactPath,
    matches,
  });
};

export async function action({ request, context }: Route.ActionArgs) {
  const studio = studioFromPath(new URL(request.url).pathname);
  const { result, httpStatus, delivery } = await submitContactForm({
    formData: await request.formData(),
    studio: studio.id,
    clientAddress: context.get(clientAddressContext),
  });
  // The e-mail goes out after the answer: the visitor does not wait for the mail server.
  void delivery;
  return data(result, { status: httpStatus });
}

/**
 * With JavaScript: the server's answer as it is, or, when no answer came (offline, connection cut), the
 * generic failure, shown by the form like a server failure with what was typed kept.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const values = formValues(await request.clone().formData(), [HONEYPOT_FIELD]);
  try {
    return await serverAction();
  } catch {
    return networkFailure(values);
  }
}

export default function StudioContactPage() {
  const studio = studioFromPath(useLocation().pathname);
  const photo = studioHeroPhotos[studio.id];
  return (
    <>
      <link {...pageHeroPreload(photo)} />
      <PageHero
        photo={photo}
        eyebrow={site.brand}
        title={`Contacter le ${studioNameInSentence(studio)}`}
        subtitle="Une question, un projet de séance ? Appelez-nous, passez au studio ou laissez-nous un message : nous vous répondons rapidement."
        short
      />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[1fr_2fr]">
        <StudioContactCards studio={studio} />
        <div className="rounded-2xl border border-border bg-white p-6 shadow-sm sm:p-8">
          <ContactForm studio={studio.id} />
        </div>
      </div>
    </>
  );
}
