import { Link } from "react-router";
import type { Route } from "./+types/prestations.mariages";
import heroPhoto from "~/assets/photos/mariages-hero.jpg?photo=hero";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { ProcessSteps } from "~/components/marketing/process-steps";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import { sessionFacts, weddingHighlights } from "~/content/prestations";
import { site } from "~/content/site";
import { priceOf } from "~/content/tarifs";
import { seo } from "~/lib/seo";

export const links: Route.LinksFunction = () => [pageHeroPreload(heroPhoto)];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Photographe de mariage | ${site.brand}`,
    description: `Photographe de mariage en Corrèze et Haute-Vienne : reportage complet ${priceOf("Mariages")}, réservation ${sessionFacts.mariage.booking}, photos livrées ${sessionFacts.mariage.delivery}.`,
    path: "/prestations/mariages",
    matches,
  });

export default function Mariages() {
  return (
    <>
      <PageHero
        eyebrow="Mariages et événements"
        title="Photographe de mariage"
        subtitle="Le récit de votre journée, des préparatifs à la première danse, avec discrétion et émotion."
        photo={heroPhoto}
      />
      <Section labelledBy="votre-mariage">
        <SectionHeading
          id="votre-mariage"
          title="Votre mariage en images"
          intro={`Reportage de mariage ${priceOf("Mariages")}.`}
        />
        <div className="mt-12">
          <ProcessSteps steps={weddingHighlights} />
        </div>
      </Section>
      <CallToAction
        title="Parlons de votre mariage"
        text={`Pensez à réserver ${sessionFacts.mariage.booking}.`}
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/tarifs?onglet=pro">Voir les tarifs</Link>
        </Button>
        <Button asChild variant="light" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
      </CallToAction>
    </>
  );
}
