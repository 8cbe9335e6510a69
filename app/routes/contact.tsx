import { Mail, Phone } from "lucide-react";
import { data, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/contact";
import heroPhoto from "~/assets/photos/accueil-hero.jpg?photo=hero";
import { ContactForm } from "~/components/contact/contact-form";
import { networkFailure } from "~/components/contact/contact-outcome";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { studioNameInSentence } from "~/components/studio/studio-from-path";
import { site } from "~/content/site";
import { studios, telHref, type Studio } from "~/content/studios";
import { cn } from "~/lib/utils";
import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { formValues } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { submitContactForm } from "~/server/contact-form.server";
import { clientAddressContext } from "~/server/context";

/**
 * The visitor chooses the studio that receives the message (docs/decisions/0020): the choice is a link
 * (?studio=…), so it works without JavaScript, and the form shown is that studio's own.
 */
function chosenStudio(studioParam: string | null): Studio {
  return studios.find((studio) => studio.id === studioParam) ?? (studios[0] as Studio);
}

export const links: Route.LinksFunction = () => [pageHeroPreload(heroPhoto)];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Contactez-nous | ${site.brand}`,
    description:
      "Particuliers, entreprises, gendarmerie, écoles : écrivez à nos studios photo d'Ussel, Brive et Limoges (Ambazac) pour un devis, une réservation ou une question.",
    path: "/contact",
    matches,
  });

export async function action({ request, context }: Route.ActionArgs) {
  const studio = chosenStudio(new URL(request.url).searchParams.get("studio"));
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

export default function ContactPage() {
  const [searchParams] = useSearchParams();
  const studio = chosenStudio(searchParams.get("studio"));
  return (
    <>
      <PageHero
        photo={heroPhoto}
        eyebrow={site.brand}
        title="Contactez-nous"
        subtitle="Particuliers, entreprises, collectivités, écoles : une question, un devis, une séance à réserver ? Écrivez-nous, nous vous répondons rapidement."
        short
      />

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[1fr_2fr]">
        <aside className="space-y-6" aria-label="Nous joindre directement">
          <section className="rounded-2xl border border-border bg-white p-6 shadow-sm">
            <h2 className="flex items-center gap-2 text-lg font-semibold">
              <Phone aria-hidden="true" className="size-5 text-gold-dark" />
              Par téléphone
            </h2>
            <ul className="mt-3 space-y-2 text-sm">
              {studios.map((item) => (
                <li key={item.id}>
                  <Link to={item.contactPath} className="font-semibold hover:underline">
                    {item.name}
                  </Link>{" "}
                  :{" "}
                  <a href={telHref(item.phone)} className="text-gold-dark hover:underline">
                    {item.phone}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section className="rounded-2xl border border-border bg-white p-6 shadow-sm">
            <h2 className="flex items-center gap-2 text-lg font-semibold">
              <Mail aria-hidden="true" className="size-5 text-gold-dark" />
              Par email
            </h2>
            <p className="mt-3 text-sm">
              <a
                href={`mailto:${site.email}`}
                className="inline-block py-1.5 break-all text-gold-dark hover:underline"
              >
                {site.email}
              </a>
            </p>
          </section>
        </aside>

        <div className="rounded-2xl border border-border bg-white p-6 shadow-sm sm:p-8">
          <nav aria-labelledby="choix-studio">
            <h2 id="choix-studio" className="text-sm font-semibold">
              À quel studio écrivez-vous ?
            </h2>
            <ul className="mt-3 flex flex-wrap gap-2">
              {studios.map((item) => (
                <li key={item.id}>
                  <Link
                    to={`?studio=${item.id}`}
                    replace
                    preventScrollReset
                    aria-current={item.id === studio.id ? "true" : undefined}
                    className={cn(
                      "inline-flex h-11 items-center rounded-full border px-5 text-sm font-semibold transition-colors",
                      item.id === studio.id
                        ? "border-primary bg-primary text-primary-foreground"
                        : "border-border hover:bg-muted",
                    )}
                  >
                    {item.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <p className="mt-4 text-sm text-muted-foreground">
            Votre message sera transmis au {studioNameInSentence(studio)} ({studio.address.city}).
          </p>
          <ContactForm
            key={studio.id}
            studio={studio.id}
            action={`/contact?studio=${studio.id}`}
            className="mt-8"
          />
        </div>
      </div>
    </>
  );
}
