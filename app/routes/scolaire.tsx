import { Mail } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/scolaire";
import { CallToAction } from "~/components/marketing/call-to-action";
import { FeatureList } from "~/components/marketing/feature-list";
import { IconItems } from "~/components/marketing/icon-items";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import { Photo } from "~/components/ui/photo";
import { quoteRequestMailto } from "~/content/professionnels";
import { mobileStudio, schoolCommitments, schoolServices } from "~/content/scolaire";
import { siteFrom, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./scolaire.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Photographie scolaire | ${siteFrom(matches).brand}`,
    description:
      "Photos de classe, portraits individuels et de fratrie, remises de diplômes : notre studio mobile s'installe dans votre école, collège ou lycée en Limousin.",
    path: "/scolaire",
    matches,
  });

export default function Scolaire({
  loaderData: { hero, mobileStudioPhoto },
}: Route.ComponentProps) {
  const site = useSite();
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow="Écoles, collèges, lycées"
        title="Photographie scolaire"
        subtitle="Des photos de classe et des portraits dont les familles seront fières, sans bousculer la journée des élèves."
        photo={hero}
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
            photo={mobileStudioPhoto}
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
          <a href={quoteRequestMailto(site.email, "Demande de devis : photographie scolaire")}>
            <Mail aria-hidden="true" />
            Demander un devis par e-mail
          </a>
        </Button>
      </CallToAction>
    </>
  );
}
