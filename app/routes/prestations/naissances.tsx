import { Link } from "react-router";
import type { Route } from "./+types/naissances";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { ProcessSteps } from "~/components/marketing/process-steps";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { StyleGallery } from "~/components/marketing/style-gallery";
import { Button } from "~/components/ui/button";
import { newbornProcess, sessionFacts } from "~/content/prestations";
import type { QuotedPrice } from "~/content/tarifs";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./naissances.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const price = loaderData?.newbornPrice;
  return seo({
    title: `Séance photo naissance | ${siteFrom(matches).brand}`,
    description: `Séance photo nouveau-né en studio à Ussel, Brive et Limoges, ${sessionFacts.naissance.idealMoment} : ${price ? `${price.amount}, ` : ""}${sessionFacts.naissance.duration}, ${sessionFacts.includedPrint}.`,
    path: "/prestations/naissances",
    matches,
  });
};

/** « Séance naissance à 99 €, ou 129 € avec la séance grossesse. », without the prices the owner removed. */
function pricesSentence(newbornPrice?: QuotedPrice, bundlePrice?: QuotedPrice): string {
  const newborn = newbornPrice
    ? `Séance naissance ${newbornPrice.phrase}`
    : "Séance naissance seule";
  const bundle = bundlePrice
    ? `${bundlePrice.amount} avec la séance grossesse`
    : "en coffret avec la séance grossesse";
  return `${newborn}, ou ${bundle}.`;
}

export default function Naissances({
  loaderData: { hero, styles, newbornPrice, bundlePrice },
}: Route.ComponentProps) {
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow="Séance naissance"
        title="Photographie de naissance"
        subtitle={`Les premiers jours de votre bébé, photographiés tout en douceur, ${sessionFacts.naissance.idealMoment}.`}
        photo={hero}
      />
      <Section labelledBy="deroulement">
        <SectionHeading
          id="deroulement"
          title="Votre séance en trois étapes"
          intro={pricesSentence(newbornPrice, bundlePrice)}
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
          <StyleGallery images={styles} />
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
