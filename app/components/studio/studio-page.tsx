import { CalendarCheck, Clock, Gift, Mail, MapPin, MessageSquare, Phone } from "lucide-react";
import { Link } from "react-router";
import { PageHero } from "~/components/marketing/page-hero";
import { ExternalLink } from "~/components/studio/external-link";
import { HeroPreload } from "~/components/studio/hero-preload";
import { Closures, OpeningHours } from "~/components/studio/opening-hours";
import { studioNameInSentence } from "~/components/studio/studio-name";
import { Button } from "~/components/ui/button";
import { telHref } from "~/lib/public-site";
import type { StudioPageData } from "~/server/content/studio-pages.server";

/** A studio's page (/studio-{slug}), from its data. */
export function StudioPage({ studio }: { studio: StudioPageData }) {
  const { street, postalCode, city } = studio.address;
  return (
    <>
      <HeroPreload photo={studio.photo} />
      <PageHero
        photo={studio.photo.picture}
        eyebrow="Nos studios"
        title={studio.name}
        subtitle={studio.description}
      >
        {studio.bookingPath ? (
          <Button asChild variant="gold" size="lg">
            <Link to={studio.bookingPath}>Réserver en ligne</Link>
          </Button>
        ) : studio.bookingUrl ? (
          <Button asChild variant="gold" size="lg">
            <ExternalLink href={studio.bookingUrl}>Réserver en ligne</ExternalLink>
          </Button>
        ) : null}
        {studio.giftVoucherUrl ? (
          <Button asChild variant="light" size="lg">
            {studio.giftVoucherUrl.startsWith("/") ? (
              <Link to={studio.giftVoucherUrl}>Offrir un bon cadeau</Link>
            ) : (
              <ExternalLink href={studio.giftVoucherUrl}>Offrir un bon cadeau</ExternalLink>
            )}
          </Button>
        ) : null}
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
                  <a
                    href={telHref(studio.phone)}
                    className="inline-flex min-h-11 items-center text-gold-dark hover:underline"
                  >
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
                <Closures closures={studio.closures} className="mt-4" />
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
          {studio.bookingPath || studio.bookingUrl ? (
            <section aria-labelledby="reserver" className="rounded-2xl bg-muted p-8">
              <CalendarCheck aria-hidden="true" className="size-8 text-gold-dark" />
              <h2 id="reserver" className="mt-3 text-xl font-bold">
                Réserver votre séance
              </h2>
              <p className="mt-2 text-sm text-muted-foreground">
                Choisissez votre créneau en ligne, ou appelez-nous : nous vous conseillons avec
                plaisir.
              </p>
              {studio.bookingPath ? (
                <Link
                  to={studio.bookingPath}
                  className="mt-4 inline-flex min-h-11 items-center gap-1.5 font-semibold text-gold-dark hover:underline"
                >
                  Réserver – {studio.city}
                </Link>
              ) : (
                <ExternalLink
                  href={studio.bookingUrl}
                  className="mt-4 inline-flex items-center gap-1.5 font-semibold text-gold-dark hover:underline [&_svg]:size-4"
                >
                  Réservation en ligne – {studio.city}
                </ExternalLink>
              )}
            </section>
          ) : null}
          {studio.giftVoucherUrl ? (
            <section aria-labelledby="offrir" className="rounded-2xl bg-muted p-8">
              <Gift aria-hidden="true" className="size-8 text-gold-dark" />
              <h2 id="offrir" className="mt-3 text-xl font-bold">
                Offrir une séance
              </h2>
              <p className="mt-2 text-sm text-muted-foreground">
                Un bon cadeau valable dans notre studio de {studio.city}, à imprimer ou à envoyer.
              </p>
              {/* Vouchers sold on the site: their page (decision 0168); else the studio's shop. */}
              {studio.giftVoucherUrl.startsWith("/") ? (
                <Link
                  to={studio.giftVoucherUrl}
                  className="mt-4 inline-flex min-h-11 items-center gap-1.5 font-semibold text-gold-dark hover:underline"
                >
                  Bons cadeaux
                </Link>
              ) : (
                <ExternalLink
                  href={studio.giftVoucherUrl}
                  className="mt-4 inline-flex items-center gap-1.5 font-semibold text-gold-dark hover:underline [&_svg]:size-4"
                >
                  Bons cadeaux – {studio.city}
                </ExternalLink>
              )}
            </section>
          ) : null}
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
