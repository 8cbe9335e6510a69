import { Link } from "react-router";
import type { Route } from "./+types/index";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { PhotoCard } from "~/components/marketing/photo-card";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import { siteFrom, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./index.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Nos prestations photo | ${siteFrom(matches).brand}`,
    description:
      "Naissance, grossesse, portrait et famille, mariage, séances à offrir et photographie professionnelle : découvrez les prestations de nos studios d'Ussel, Brive et Limoges.",
    path: "/prestations",
    matches,
  });

export default function Prestations({ loaderData: { hero, cards } }: Route.ComponentProps) {
  const site = useSite();
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow={`${site.label} · ${site.experience}`}
        title="Nos Prestations"
        subtitle="De la naissance au mariage, des portraits de famille aux photos d'entreprise : une séance pensée pour vous, du premier appel à la remise de vos photos."
        photo={hero}
      />
      <Section labelledBy="prestations-liste">
        <SectionHeading
          id="prestations-liste"
          title="Une séance pour chaque moment"
          intro="Choisissez votre séance pour découvrir son déroulement, ses styles et ses tarifs."
        />
        <ul className="mt-12 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <li key={card.link} className="flex [&>article]:flex-1">
              <PhotoCard
                photo={card.photo}
                title={card.title}
                description={card.description}
                link={{ href: card.link }}
                linkHint="Découvrir"
              />
            </li>
          ))}
        </ul>
      </Section>
      <CallToAction
        title="Un projet de séance ?"
        text="Parlez-nous de vos envies : nous vous conseillons la séance qui vous ressemble."
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
      </CallToAction>
    </>
  );
}
