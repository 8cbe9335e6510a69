import { Mail } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/scolaire";
import heroPhoto from "~/assets/photos/scolaire-hero.jpg?photo=hero";
import mobileStudioPhoto from "~/assets/photos/scolaire-studio-mobile.jpg?photo";
import { CallToAction } from "~/components/marketing/call-to-action";
import { FeatureList } from "~/components/marketing/feature-list";
import { IconItems } from "~/components/marketing/icon-items";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import { Photo } from "~/components/ui/photo";
import { quoteRequestMailto } from "~/content/professionnels";
import { mobileStudio, schoolCommitments, schoolServices } from "~/content/scolaire";
import { site } from "~/content/site";
import { seo } from "~/lib/seo";

export const links: Route.LinksFunction = () => [pageHeroPreload(heroPhoto)];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Photographie scolaire | ${site.brand}`,
    description:
      "Photos de classe, portraits individuels et de fratrie, remises de diplômes : notre studio mobile s'installe dans votre école, collège ou lycée en Limousin.",
    path: "/scolaire",
    matches,
  });

export default function Scolaire() {
  return (
    <>
      <PageHero
        eyebrow="Écoles, collèges, lycées"
        title="Photographie scolaire"
        subtitle="Des photos de classe et des portraits dont les familles seront fières, sans bousculer la journée des élèves."
        photo={heroPhoto}
      />
      <Section labelledBy="services-scolaires">
        <SectionHeading id="services-scolaires" title="Nos services" />
        <IconItems items={schoolServices} className="mt-12" />
      </Section>
      <Section labelledBy="engagements" muted>
        <SectionHeading id="engagements" title="Nos engagements qualité" />
        <IconItems items={schoolCommitments} className="mt-12" />
      </Section>
      <Section labelledBy="studio-mobile">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <div>
            <h2 id="studio-mobile" className="text-3xl font-bold sm:text-4xl">
              {mobileStudio.title}
            </h2>
            <p className="mt-4 text-muted-foreground">{mobileStudio.description}</p>
            <FeatureList features={mobileStudio.features} className="mt-6" />
          </div>
          <Photo
            picture={mobileStudioPhoto}
            alt="Le studio mobile installé dans une salle de classe"
            sizes="(min-width: 768px) 50vw, 100vw"
            className="aspect-[3/2] overflow-hidden rounded-2xl"
          />
        </div>
      </Section>
      <CallToAction
        title="Organisons vos photos scolaires"
        text="Contactez-nous pour fixer une date et recevoir notre proposition pour votre établissement."
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
        <Button asChild variant="light" size="lg">
          <a href={quoteRequestMailto("Demande de devis : photographie scolaire")}>
            <Mail aria-hidden="true" />
            Demander un devis par e-mail
          </a>
        </Button>
      </CallToAction>
    </>
  );
}
