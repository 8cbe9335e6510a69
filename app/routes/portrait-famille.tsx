import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/portrait-famille";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { ProcessSteps } from "~/components/marketing/process-steps";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { StyleGallery } from "~/components/marketing/style-gallery";
import { Testimonials } from "~/components/marketing/testimonials";
import { Button } from "~/components/ui/button";
import { portraitProcess, portraitSessionTypes, sessionFacts } from "~/content/prestations";
import { siteFrom, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
export { loader } from "./portrait-famille.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const price = loaderData?.familyPrice;
  return seo({
    title: `Portrait et famille | ${siteFrom(matches).brand}`,
    description: `Séances photo portrait, famille, enfants et couple en studio à Ussel, Brive et Limoges : ${price ? `séance famille ${price.phrase}, ` : ""}${sessionFacts.includedPrint}, vos photos découvertes ${sessionFacts.famille.discovery}.`,
    path: "/portrait-famille",
    matches,
  });
};

export default function PortraitFamille({
  loaderData: { hero, styles, testimonials, familyPrice },
}: Route.ComponentProps) {
  const site = useSite();
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow={site.label}
        title="Portrait & Famille"
        subtitle="Des images vraies et pleines de tendresse, pour vous et pour ceux que vous aimez."
        photo={hero}
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Réserver une séance</Link>
        </Button>
      </PageHero>

      <Section labelledBy="deroulement">
        <SectionHeading id="deroulement" title="Comment se déroule votre séance ?" />
        <div className="mt-12">
          <ProcessSteps steps={portraitProcess} />
        </div>
      </Section>

      <Section labelledBy="types-de-seances" muted>
        <SectionHeading id="types-de-seances" title="Nos séances" />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {portraitSessionTypes.map((session) => (
            <li key={session.title} className="rounded-2xl bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold">{session.title}</h3>
              <p className="mt-1 text-sm font-semibold text-gold-dark">
                Durée : {session.duration}
              </p>
              <p className="mt-3 text-sm text-muted-foreground">{session.description}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section labelledBy="styles">
        <SectionHeading
          id="styles"
          title="Nos styles de portraits"
          intro="Fond noir, fond blanc ou couleur, mode ou tout en douceur : choisissez votre ambiance."
        />
        <div className="mt-12">
          <StyleGallery images={styles} />
        </div>
      </Section>

      {testimonials.length > 0 ? <Testimonials testimonials={testimonials} /> : null}

      <Section labelledBy="garantie">
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-4 rounded-2xl border border-gold-dark p-8 text-center">
          <ShieldCheck aria-hidden="true" className="size-10 text-gold-dark" />
          <h2 id="garantie" className="text-2xl font-bold sm:text-3xl">
            Satisfaction garantie
          </h2>
          <p className="text-muted-foreground">
            Nous prenons le temps qu'il faut pour que chaque photo vous ressemble, et nous
            choisissons vos images ensemble lors de la séance de découverte. Vous repartez toujours
            avec {sessionFacts.includedPrint}.
          </p>
        </div>
      </Section>

      <CallToAction
        title="Envie d'une séance ?"
        text={
          familyPrice
            ? `Séance famille ${familyPrice.phrase} : découvrez tous nos tarifs.`
            : "Découvrez tous nos tarifs de séances."
        }
      >
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Réserver une séance</Link>
        </Button>
        <Button asChild variant="light" size="lg">
          <Link to="/tarifs">Voir les tarifs</Link>
        </Button>
      </CallToAction>
    </>
  );
}
