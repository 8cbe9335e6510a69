import { Link } from "react-router";
import type { Route } from "./+types/prestations.grossesse";
import heroPhoto from "~/assets/photos/grossesse-hero.jpg?photo=hero";
import { CallToAction } from "~/components/marketing/call-to-action";
import { Tips } from "~/components/marketing/tips";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { StyleGallery } from "~/components/marketing/style-gallery";
import { Testimonials } from "~/components/marketing/testimonials";
import { Button } from "~/components/ui/button";
import { pregnancyPhotos } from "~/content/galerie";
import { pregnancyTips, sessionFacts } from "~/content/prestations";
import { site } from "~/content/site";
import { priceOf } from "~/content/tarifs";
import { testimonials } from "~/content/temoignages";
import { seo } from "~/lib/seo";

export const links: Route.LinksFunction = () => [pageHeroPreload(heroPhoto)];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Séance photo grossesse | ${site.brand}`,
    description: `Séance photo grossesse en studio à Ussel, Brive et Limoges, idéalement au 7e ou 8e mois : ${priceOf("Séance Grossesse")}, ${sessionFacts.grossesse.duration}, ${sessionFacts.includedPrint}, vos photos découvertes ${sessionFacts.grossesse.discovery}.`,
    path: "/prestations/grossesse",
    matches,
  });

export default function Grossesse() {
  return (
    <>
      <PageHero
        eyebrow="Séance grossesse"
        title="Photographie de grossesse"
        subtitle={`Célébrez ces mois uniques : une séance de ${sessionFacts.grossesse.duration}, ${sessionFacts.grossesse.idealMoment}.`}
        photo={heroPhoto}
      />
      <Section labelledBy="galerie-grossesse">
        <SectionHeading
          id="galerie-grossesse"
          title="Galerie grossesse"
          intro="Silhouettes, fonds noirs, en couple ou avec les aînés : quelques-unes de nos ambiances."
        />
        <div className="mt-12">
          <StyleGallery images={pregnancyPhotos} />
        </div>
      </Section>
      <Section labelledBy="conseils" muted>
        <SectionHeading id="conseils" title="Nos conseils pour votre séance" />
        <Tips tips={pregnancyTips} className="mt-12" />
      </Section>
      <Testimonials testimonials={testimonials.grossesse} title="Elles nous ont fait confiance" />
      <CallToAction
        title="Réservez votre séance grossesse"
        text={`Séance grossesse à ${priceOf("Séance Grossesse")}, ou coffret grossesse + naissance à ${priceOf("Coffret Grossesse + Naissance")}.`}
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
