import { Link } from "react-router";
import type { Route } from "./+types/mariages";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { ProcessSteps } from "~/components/marketing/process-steps";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import { sessionFacts, weddingHighlights } from "~/content/prestations";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./mariages.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const price = loaderData?.weddingPrice;
  return seo({
    title: `Photographe de mariage | ${siteFrom(matches).brand}`,
    description: `Photographe de mariage en Corrèze et Haute-Vienne : reportage complet${price ? ` ${price.phrase}` : ""}, réservation ${sessionFacts.mariage.booking}, photos livrées ${sessionFacts.mariage.delivery}.`,
    path: "/prestations/mariages",
    matches,
  });
};

export default function Mariages({ loaderData: { hero, weddingPrice } }: Route.ComponentProps) {
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow="Mariages et événements"
        title="Photographe de mariage"
        subtitle="Le récit de votre journée, des préparatifs à la première danse, avec discrétion et émotion."
        photo={hero}
      />
      <Section labelledBy="votre-mariage">
        <SectionHeading
          id="votre-mariage"
          title="Votre mariage en images"
          intro={
            weddingPrice
              ? `Reportage de mariage ${weddingPrice.phrase}.`
              : "Un reportage complet, des préparatifs à la soirée."
          }
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
