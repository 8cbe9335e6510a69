import { Link } from "react-router";
import type { Route } from "./+types/gendarmerie";
import { CallToAction } from "~/components/marketing/call-to-action";
import { FeatureList } from "~/components/marketing/feature-list";
import { PackageCard } from "~/components/marketing/package-card";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { PriceTag } from "~/components/marketing/price-tag";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Testimonials } from "~/components/marketing/testimonials";
import { VideoPlaceholder } from "~/components/marketing/video-placeholder";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Photo } from "~/components/ui/photo";
import { formatEuros } from "~/lib/prices";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./gendarmerie.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const offer = loaderData?.offer;
  const lowest = Math.min(
    ...(offer?.packages ?? []).flatMap(({ discountPrice }) =>
      discountPrice.kind === "quote" ? [] : [discountPrice.euros],
    ),
  );
  const packages =
    offer?.title && Number.isFinite(lowest)
      ? `Formules ${offer.title} dès ${formatEuros(lowest)}, location`
      : "Location";
  return seo({
    title: `Photographe pour la gendarmerie | ${siteFrom(matches).brand}`,
    description: `Photos de groupe, reportages de cérémonie, galas et vidéo pour les unités de gendarmerie. ${packages} de borne selfie.`,
    path: "/gendarmerie",
    matches,
  });
};

/** « Studio d'Ussel » → « studio d'Ussel », to sit inside a sentence. */
const inSentence = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

const CARD_SIZES = "(min-width: 768px) 50vw, 100vw";

export default function Gendarmerie({
  loaderData: { hero, services, offer, booth, testimonials, contact },
}: Route.ComponentProps) {
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow={offer.title || undefined}
        title="Offre Gendarmerie"
        subtitle="Cérémonies, photos de groupe, galas et vidéo : un photographe qui connaît vos traditions et votre protocole."
        photo={hero}
      >
        <Button asChild variant="gold" size="lg">
          <Link to={contact.path}>Demander un devis</Link>
        </Button>
      </PageHero>

      <Section labelledBy="services-gendarmerie">
        <SectionHeading id="services-gendarmerie" title="Nos prestations" />
        <ul className="mt-12 grid gap-8 md:grid-cols-2">
          {services.map((service) => (
            <li key={service.title}>
              <article className="flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-white shadow-sm">
                {service.video ? (
                  <VideoPlaceholder video={service.video} sizes={CARD_SIZES} />
                ) : (
                  <Photo
                    photo={service.photo}
                    alt=""
                    sizes={CARD_SIZES}
                    className="aspect-video overflow-hidden"
                  />
                )}
                <div className="flex flex-1 flex-col p-6">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="flex items-center gap-2 text-xl font-semibold">
                      <Icon name={service.icon} className="size-5 text-gold-dark" />
                      {service.title}
                    </h3>
                    <PriceTag price={service.price} />
                  </div>
                  <p className="mt-2 text-sm text-muted-foreground">{service.description}</p>
                  <FeatureList features={service.features} className="mt-4" />
                </div>
              </article>
            </li>
          ))}
        </ul>
      </Section>

      {offer.packages.length > 0 ? (
        <Section labelledBy="formules" muted>
          <SectionHeading
            id="formules"
            title={`Nos formules · ${offer.title}`}
            intro="Regroupez vos prestations et profitez d'un tarif préférentiel."
          />
          <ul className="mt-14 grid items-stretch gap-8 lg:grid-cols-3">
            {offer.packages.map((offered) => (
              <li key={offered.title}>
                <PackageCard offer={offered} contactPath={contact.path} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section labelledBy="borne-selfie">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <Photo
            photo={booth.photo}
            sizes={CARD_SIZES}
            className="aspect-[3/2] overflow-hidden rounded-2xl"
          />
          <div>
            <h2 id="borne-selfie" className="text-3xl font-bold sm:text-4xl">
              {booth.title}
            </h2>
            <PriceTag price={booth.price} unit={booth.unit} className="mt-4" />
            <p className="mt-4 text-muted-foreground">{booth.description}</p>
            <FeatureList features={booth.features} className="mt-4" />
            <Button asChild className="mt-8">
              <Link to={contact.path}>Réserver la borne</Link>
            </Button>
          </div>
        </div>
      </Section>

      {testimonials.length > 0 ? <Testimonials testimonials={testimonials} /> : null}

      <CallToAction
        title="Préparons votre événement"
        text={
          contact.name
            ? `Le ${inSentence(contact.name)} coordonne l'offre gendarmerie : contactez-le pour un devis ou une date.`
            : "Contactez-nous pour un devis ou une date."
        }
      >
        <Button asChild variant="gold" size="lg">
          <Link to={contact.path}>
            {contact.name ? `Contacter le ${inSentence(contact.name)}` : "Nous contacter"}
          </Link>
        </Button>
      </CallToAction>
    </>
  );
}
