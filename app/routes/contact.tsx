import { Mail, Phone } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/contact";
import { ContactForm } from "~/components/contact/contact-form";
import { PageHero } from "~/components/marketing/page-hero";
import { HeroPreload } from "~/components/studio/hero-preload";
import { studioNameInSentence } from "~/components/studio/studio-name";
import { cn } from "~/lib/utils";
import { siteFrom, telHref, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { action, loader } from "./contact.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Contactez-nous | ${siteFrom(matches).brand}`,
    description:
      "Particuliers, entreprises, gendarmerie, écoles : écrivez à nos studios photo d'Ussel, Brive et Limoges (Ambazac) pour un devis, une réservation ou une question.",
    path: "/contact",
    matches,
  });

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  const { photo, studio } = loaderData;
  const site = useSite();
  const studios = site.studios;
  return (
    <>
      <HeroPreload photo={photo} />
      <PageHero
        photo={photo.picture}
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
                <li key={item.slug}>
                  <Link to={item.contactPath} className="font-semibold hover:underline">
                    {item.name}
                  </Link>{" "}
                  :{" "}
                  <a
                    href={telHref(item.phone)}
                    className="inline-flex min-h-11 items-center text-gold-dark hover:underline"
                  >
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

        {studio ? (
          <div className="rounded-2xl border border-border bg-white p-6 shadow-sm sm:p-8">
            <nav aria-labelledby="choix-studio">
              <h2 id="choix-studio" className="text-sm font-semibold">
                À quel studio écrivez-vous ?
              </h2>
              <ul className="mt-3 flex flex-wrap gap-2">
                {studios.map((item) => (
                  <li key={item.slug}>
                    <Link
                      to={`?studio=${item.slug}`}
                      replace
                      preventScrollReset
                      aria-current={item.slug === studio.slug ? "true" : undefined}
                      className={cn(
                        "inline-flex h-11 items-center rounded-full border px-5 text-sm font-semibold transition-colors",
                        item.slug === studio.slug
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
              Votre message sera transmis au {studioNameInSentence(studio)} ({studio.city}).
            </p>
            <ContactForm
              key={studio.slug}
              studio={studio.slug}
              settings={studio.contactForm}
              action={`/contact?studio=${studio.slug}`}
              className="mt-8"
            />
          </div>
        ) : null}
      </div>
    </>
  );
}
