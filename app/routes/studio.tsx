import { CalendarCheck, Clock, Gift, Mail, MapPin, MessageSquare, Phone } from "lucide-react";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/studio";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { ExternalLink } from "~/components/studio/external-link";
import { OpeningHours } from "~/components/studio/opening-hours";
import { studioFromPath, studioNameInSentence } from "~/components/studio/studio-from-path";
import { studioHeroPhotos } from "~/components/studio/studio-photos-hero";
import { Button } from "~/components/ui/button";
import { site } from "~/content/site";
import { telHref } from "~/content/studios";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
import { studioStructuredData } from "~/lib/structured-data";

// One module serves /studio-ussel, /studio-brive and /studio-limoges: the path names the studio.

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const studio = studioFromPath(location.pathname);
  const siteUrl = siteUrlFrom(matches);
  const where = `${studio.address.street}, ${studio.address.postalCode} ${studio.address.city}`;
  return seo({
    title: `${studio.name} | ${site.brand}`,
    description: `${studio.name} (${where}) : horaires, téléphone, réservation en ligne et bons cadeaux. ${site.label}, ${site.experience}.`,
    path: studio.pagePath,
    matches,
    extra: [jsonLd(studioStructuredData(siteUrl, studio))],
  });
};

export default function StudioPage() {
  const studio = studioFromPath(useLocation().pathname);
  const { street, postalCode, city } = studio.address;
  return (
    <>
      <link {...pageHeroPreload(studioHeroPhotos[studio.id])} />
      <PageHero
        photo={studioHeroPhotos[studio.id]}
        eyebrow="Nos studios"
        title={studio.name}
        subtitle={studio.description}
      >
        <Button asChild variant="gold" size="lg">
          <ExternalLink href={studio.bookingUrl}>Réserver en ligne</ExternalLink>
        </Button>
        <Button asChild variant="light" size="lg">
          <ExternalLink href={studio.giftVoucherUrl}>Offrir un bon cadeau</ExternalLink>
        </Button>
      </PageHero>

      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-16 sm:px-6 lg:grid-cols-3">
        <section
          aria-labelledby="infos-pratiques"
          className="rounded-2xl border border-border bg-white p-8 shadow-sm lg:col-span-2"
        >
          <h2 id="infos-pratiques" className="text-2xl font-bold">
            Infos pratiques
          </h2>
          <div className="mt-6 grid gap-8 sm:grid-cols-2">
            <div className="space-y-6">
              <div className="flex gap-3">
                <MapPin aria-hidden="true" className="mt-1 size-5 shrink-0 text-gold-dark" />
                <div>
                  <h3 className="font-semibold">Adresse</h3>
                  <address className="text-muted-foreground not-italic">
                    {street}
                    <br />
                    {postalCode} {city}
                  </address>
                </div>
              </div>
              <div className="flex gap-3">
                <Phone aria-hidden="true" className="mt-1 size-5 shrink-0 text-gold-dark" />
                <div>
                  <h3 className="font-semibold">Téléphone</h3>
                  <a href={telHref(studio.phone)} className="text-gold-dark hover:underline">
                    {studio.phone}
                  </a>
                </div>
              </div>
              <div className="flex gap-3">
                <Mail aria-hidden="true" className="mt-1 size-5 shrink-0 text-gold-dark" />
                <div>
                  <h3 className="font-semibold">Email</h3>
                  <a
                    href={`mailto:${studio.email}`}
                    className="break-all text-gold-dark hover:underline"
                  >
                    {studio.email}
                  </a>
                </div>
              </div>
            </div>
            <div className="flex gap-3">
              <Clock aria-hidden="true" className="mt-1 size-5 shrink-0 text-gold-dark" />
              <div>
                <h3 className="font-semibold">Horaires d'ouverture</h3>
                <OpeningHours hours={studio.hours} className="mt-2" />
              </div>
            </div>
          </div>
          <Button asChild className="mt-8">
            <Link to={studio.contactPath}>
              <MessageSquare aria-hidden="true" />
              Contacter le studio
            </Link>
          </Button>
        </section>

        <div className="space-y-8">
          <section aria-labelledby="reserver" className="rounded-2xl bg-muted p-8">
            <CalendarCheck aria-hidden="true" className="size-8 text-gold-dark" />
            <h2 id="reserver" className="mt-3 text-xl font-bold">
              Réserver votre séance
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">
              Choisissez votre créneau en ligne, ou appelez-nous : nous vous conseillons avec
              plaisir.
            </p>
            <ExternalLink
              href={studio.bookingUrl}
              className="mt-4 inline-flex items-center gap-1.5 font-semibold text-gold-dark hover:underline [&_svg]:size-4"
            >
              Réservation en ligne – {studio.city}
            </ExternalLink>
          </section>
          <section aria-labelledby="offrir" className="rounded-2xl bg-muted p-8">
            <Gift aria-hidden="true" className="size-8 text-gold-dark" />
            <h2 id="offrir" className="mt-3 text-xl font-bold">
              Offrir une séance
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">
              Un bon cadeau valable dans notre studio de {studio.city}, à imprimer ou à envoyer.
            </p>
            <ExternalLink
              href={studio.giftVoucherUrl}
              className="mt-4 inline-flex items-center gap-1.5 font-semibold text-gold-dark hover:underline [&_svg]:size-4"
            >
              Bons cadeaux – {studio.city}
            </ExternalLink>
          </section>
        </div>
      </div>

      <section aria-labelledby="prestations" className="bg-stone-900 py-16 text-white">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
          <h2 id="prestations" className="text-3xl font-bold">
            Nos prestations
          </h2>
          <p className="mt-4 text-stone-200">
            Naissance, grossesse, famille, mariage, portraits professionnels : découvrez toutes nos
            séances, réalisées au {studioNameInSentence(studio)}.
          </p>
          <Button asChild variant="gold" size="lg" className="mt-8">
            <Link to="/prestations">Découvrir nos prestations</Link>
          </Button>
        </div>
      </section>
    </>
  );
}
