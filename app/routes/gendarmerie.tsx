import { Link } from "react-router";
import type { Route } from "./+types/gendarmerie";
import heroPhoto from "~/assets/photos/gendarmerie-hero.jpg?photo=hero";
import boothPhoto from "~/assets/photos/borne-selfie.jpg?photo";
import { CallToAction } from "~/components/marketing/call-to-action";
import { FeatureList } from "~/components/marketing/feature-list";
import { PackageCard } from "~/components/marketing/package-card";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { PriceTag } from "~/components/marketing/price-tag";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Testimonials } from "~/components/marketing/testimonials";
import { VideoPlaceholder } from "~/components/marketing/video-placeholder";
import { Button } from "~/components/ui/button";
import { Photo } from "~/components/ui/photo";
import {
  gendarmerieContactPath,
  gendarmerieOffer,
  gendarmeriePackages,
  gendarmerieServices,
  selfieBoothRental,
} from "~/content/gendarmerie";
import { site } from "~/content/site";
import { testimonials } from "~/content/temoignages";
import { seo } from "~/lib/seo";

export const links: Route.LinksFunction = () => [pageHeroPreload(heroPhoto)];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Photographe pour la gendarmerie | ${site.brand}`,
    description:
      "Photos de groupe, reportages de cérémonie, galas et vidéo pour les unités de gendarmerie. Formules Offre spéciale 2025 dès 1 200 €, location de borne selfie.",
    path: "/gendarmerie",
    matches,
  });

const CARD_SIZES = "(min-width: 768px) 50vw, 100vw";

export default function Gendarmerie() {
  return (
    <>
      <PageHero
        eyebrow={gendarmerieOffer}
        title="Offre Gendarmerie"
        subtitle="Cérémonies, photos de groupe, galas et vidéo : un photographe qui connaît vos traditions et votre protocole."
        photo={heroPhoto}
      >
        <Button asChild variant="gold" size="lg">
          <Link to={gendarmerieContactPath}>Demander un devis</Link>
        </Button>
      </PageHero>

      <Section labelledBy="services-gendarmerie">
        <SectionHeading id="services-gendarmerie" title="Nos prestations" />
        <ul className="mt-12 grid gap-8 md:grid-cols-2">
          {gendarmerieServices.map((service) => {
            const Icon = service.icon;
            return (
              <li key={service.title}>
                <article className="flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-white shadow-sm">
                  {"video" in service.media ? (
                    <VideoPlaceholder video={service.media.video} sizes={CARD_SIZES} />
                  ) : (
                    <Photo
                      picture={service.media.photo}
                      alt=""
                      sizes={CARD_SIZES}
                      className="aspect-video overflow-hidden"
                    />
                  )}
                  <div className="flex flex-1 flex-col p-6">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <h3 className="flex items-center gap-2 text-xl font-semibold">
                        <Icon aria-hidden="true" className="size-5 text-gold-dark" />
                        {service.title}
                      </h3>
                      <PriceTag price={service.price} />
                    </div>
                    <p className="mt-2 text-sm text-muted-foreground">{service.description}</p>
                    <FeatureList features={service.features} className="mt-4" />
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      </Section>

      <Section labelledBy="formules" muted>
        <SectionHeading
          id="formules"
          title={`Nos formules · ${gendarmerieOffer}`}
          intro="Regroupez vos prestations et profitez d'un tarif préférentiel."
        />
        <ul className="mt-14 grid items-stretch gap-8 lg:grid-cols-3">
          {gendarmeriePackages.map((offer) => (
            <li key={offer.title}>
              <PackageCard offer={offer} contactPath={gendarmerieContactPath} />
            </li>
          ))}
        </ul>
      </Section>

      <Section labelledBy="borne-selfie">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <Photo
            picture={boothPhoto}
            alt="Invités posant devant une borne selfie"
            sizes={CARD_SIZES}
            className="aspect-[3/2] overflow-hidden rounded-2xl"
          />
          <div>
            <h2 id="borne-selfie" className="text-3xl font-bold sm:text-4xl">
              {selfieBoothRental.title}
            </h2>
            <PriceTag
              price={selfieBoothRental.price}
              unit={selfieBoothRental.unit}
              className="mt-4"
            />
            <p className="mt-4 text-muted-foreground">{selfieBoothRental.description}</p>
            <FeatureList features={selfieBoothRental.features} className="mt-4" />
            <Button asChild className="mt-8">
              <Link to={gendarmerieContactPath}>Réserver la borne</Link>
            </Button>
          </div>
        </div>
      </Section>

      <Testimonials testimonials={testimonials.gendarmerie} />

      <CallToAction
        title="Préparons votre événement"
        text="Le studio d'Ussel coordonne l'offre gendarmerie : contactez-le pour un devis ou une date."
      >
        <Button asChild variant="gold" size="lg">
          <Link to={gendarmerieContactPath}>Contacter le studio d'Ussel</Link>
        </Button>
      </CallToAction>
    </>
  );
}
