import { Link } from "react-router";
import type { Route } from "./+types/grossesse";
import { CallToAction } from "~/components/marketing/call-to-action";
import { Tips } from "~/components/marketing/tips";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { StyleGallery } from "~/components/marketing/style-gallery";
import { Testimonials } from "~/components/marketing/testimonials";
import { Button } from "~/components/ui/button";
import { pregnancyTips, sessionFacts } from "~/content/prestations";
import type { QuotedPrice } from "~/content/tarifs";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./grossesse.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const price = loaderData?.pregnancyPrice;
  return seo({
    title: `Séance photo grossesse | ${siteFrom(matches).brand}`,
    description: `Séance photo grossesse en studio à Ussel, Brive et Limoges, idéalement au 7e ou 8e mois : ${price ? `${price.amount}, ` : ""}${sessionFacts.grossesse.duration}, ${sessionFacts.includedPrint}, vos photos découvertes ${sessionFacts.grossesse.discovery}.`,
    path: "/prestations/grossesse",
    matches,
  });
};

/** « Séance grossesse à 79 €, ou coffret grossesse + naissance à 129 €. », with the prices still on /tarifs. */
function bookingSentence(pregnancyPrice?: QuotedPrice, bundlePrice?: QuotedPrice): string {
  const pregnancy = `Séance grossesse${pregnancyPrice ? ` ${pregnancyPrice.phrase}` : ""}`;
  const bundle = `coffret grossesse + naissance${bundlePrice ? ` ${bundlePrice.phrase}` : ""}`;
  return `${pregnancy}, ou ${bundle}.`;
}

export default function Grossesse({
  loaderData: { hero, photos, testimonials, pregnancyPrice, bundlePrice },
}: Route.ComponentProps) {
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow="Séance grossesse"
        title="Photographie de grossesse"
        subtitle={`Célébrez ces mois uniques : une séance de ${sessionFacts.grossesse.duration}, ${sessionFacts.grossesse.idealMoment}.`}
        photo={hero}
      />
      <Section labelledBy="galerie-grossesse">
        <SectionHeading
          id="galerie-grossesse"
          title="Galerie grossesse"
          intro="Silhouettes, fonds noirs, en couple ou avec les aînés : quelques-unes de nos ambiances."
        />
        <div className="mt-12">
          <StyleGallery images={photos} />
        </div>
      </Section>
      <Section labelledBy="conseils" muted>
        <SectionHeading id="conseils" title="Nos conseils pour votre séance" />
        <Tips tips={pregnancyTips} className="mt-12" />
      </Section>
      {testimonials.length > 0 ? (
        <Testimonials testimonials={testimonials} title="Elles nous ont fait confiance" />
      ) : null}
      <CallToAction
        title="Réservez votre séance grossesse"
        text={bookingSentence(pregnancyPrice, bundlePrice)}
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
        <Button asChild variant="light" size="lg">
          <Link to="/tarifs">Voir les tarifs</Link>
        </Button>
      </CallToAction>
    </>
  );
}
