import { Link } from "react-router";
import type { Route } from "./+types/prestations.naissances";
import heroPhoto from "~/assets/photos/naissances-hero.jpg?photo=hero";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { ProcessSteps } from "~/components/marketing/process-steps";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { StyleGallery } from "~/components/marketing/style-gallery";
import { Button } from "~/components/ui/button";
import { newbornStyles } from "~/content/galerie";
import { newbornProcess, sessionFacts } from "~/content/prestations";
import { site } from "~/content/site";
import { priceOf } from "~/content/tarifs";
import { seo } from "~/lib/seo";

export const links: Route.LinksFunction = () => [pageHeroPreload(heroPhoto)];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Séance photo naissance | ${site.brand}`,
    description: `Séance photo nouveau-né en studio à Ussel, Brive et Limoges, ${sessionFacts.naissance.idealMoment} : ${priceOf("Séance Naissance")}, ${sessionFacts.naissance.duration}, ${sessionFacts.includedPrint}.`,
    path: "/prestations/naissances",
    matches,
  });

export default function Naissances() {
  return (
    <>
      <PageHero
        eyebrow="Séance naissance"
        title="Photographie de naissance"
        subtitle={`Les premiers jours de votre bébé, photographiés tout en douceur, ${sessionFacts.naissance.idealMoment}.`}
        photo={heroPhoto}
      />
      <Section labelledBy="deroulement">
        <SectionHeading
          id="deroulement"
          title="Votre séance en trois étapes"
          intro={`Séance naissance à ${priceOf("Séance Naissance")}, ou ${priceOf("Coffret Grossesse + Naissance")} avec la séance grossesse.`}
        />
        <div className="mt-12">
          <ProcessSteps steps={newbornProcess} />
        </div>
      </Section>
      <Section labelledBy="styles" muted>
        <SectionHeading
          id="styles"
          title="Nos styles"
          intro="Cocons, paniers, en famille ou tout simplement : chaque séance s'adapte à votre bébé."
        />
        <div className="mt-12">
          <StyleGallery images={newbornStyles} />
        </div>
      </Section>
      <CallToAction
        title="Réservez dès la grossesse"
        text="Nous fixons une date provisoire et l'ajustons à l'arrivée de votre bébé."
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
