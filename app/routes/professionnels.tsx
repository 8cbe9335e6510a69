import { Mail } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/professionnels";
import { CallToAction } from "~/components/marketing/call-to-action";
import { IconItems } from "~/components/marketing/icon-items";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { PhotoCard } from "~/components/marketing/photo-card";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import {
  PROFESSIONAL_QUOTE_SUBJECT,
  quoteRequestMailto,
  reasonsToChooseUs,
} from "~/content/professionnels";
import { siteFrom, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./professionnels.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Photographe pour les professionnels | ${siteFrom(matches).brand}`,
    description:
      "Portraits d'entreprise, reportages, événements, location de borne selfie, offre gendarmerie et photographie scolaire en Corrèze et Haute-Vienne. Devis sur demande.",
    path: "/professionnels",
    matches,
  });

export default function Professionnels({ loaderData: { hero, services } }: Route.ComponentProps) {
  const site = useSite();
  const quoteRequestHref = quoteRequestMailto(site.email, PROFESSIONAL_QUOTE_SUBJECT);
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow="Entreprises, institutions, écoles"
        title="Prestations pour les professionnels"
        subtitle="Des images à la hauteur de votre activité : portraits, reportages et événements, en studio ou sur place."
        photo={hero}
      >
        <Button asChild variant="gold" size="lg">
          <a href={quoteRequestHref}>
            <Mail aria-hidden="true" />
            Demander un devis
          </a>
        </Button>
      </PageHero>
      <Section labelledBy="services-pro">
        <SectionHeading
          id="services-pro"
          title="Nos services"
          intro="Chaque projet fait l'objet d'un devis personnalisé."
        />
        <ul className="mt-12 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li key={service.title} className="flex [&>article]:flex-1">
              <PhotoCard
                photo={service.photo}
                title={service.title}
                description={service.description}
                icon={service.icon}
                link={service.link}
                linkHint={service.link?.external ? "Voir le site de la borne" : "En savoir plus"}
              />
            </li>
          ))}
        </ul>
      </Section>
      <Section labelledBy="pourquoi-nous" muted>
        <SectionHeading id="pourquoi-nous" title="Pourquoi nous choisir ?" />
        <IconItems items={reasonsToChooseUs(site)} className="mt-12" />
      </Section>
      <CallToAction
        title="Parlons de votre projet"
        text="Décrivez-nous votre besoin : nous vous répondons avec un devis détaillé."
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
        <Button asChild variant="light" size="lg">
          <a href={quoteRequestHref}>
            <Mail aria-hidden="true" />
            Demander un devis par e-mail
          </a>
        </Button>
      </CallToAction>
    </>
  );
}
