import { Link } from "react-router";
import type { Route } from "./+types/seances-a-offrir";
import { CallToAction } from "~/components/marketing/call-to-action";
import { PageHero, pageHeroPreload } from "~/components/marketing/page-hero";
import { PhotoCard } from "~/components/marketing/photo-card";
import { PriceTag } from "~/components/marketing/price-tag";
import { Section, SectionHeading } from "~/components/marketing/section-heading";
import { Button } from "~/components/ui/button";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { VOUCHERS_PATH } from "~/lib/vouchers/order-page";
export { loader } from "./seances-a-offrir.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Séances photo à offrir | ${siteFrom(matches).brand}`,
    description:
      "Offrez une séance photo : Iris, Fashion, Super-Héros ou Princesse, à réserver et offrir en ligne dans nos studios d'Ussel, Brive et Limoges.",
    path: "/seances-a-offrir",
    matches,
  });

export default function SeancesAOffrir({
  loaderData: { hero, sessions, vouchersOnSale },
}: Route.ComponentProps) {
  return (
    <>
      <link {...pageHeroPreload(hero)} />
      <PageHero
        eyebrow="Idées cadeaux"
        title="Séances à offrir"
        subtitle="Un anniversaire, une fête, un merci : offrez un moment unique et des photos qui restent."
        photo={hero}
      />
      <Section labelledBy="seances-cadeaux">
        <SectionHeading
          id="seances-cadeaux"
          title="Nos séances cadeaux"
          intro={
            sessions.some((session) => session.link)
              ? "Choisissez une séance : la réservation et le bon cadeau se font sur notre service en ligne."
              : "Choisissez une séance, puis contactez-nous : nous préparons le bon cadeau avec vous."
          }
        />
        <ul className="mt-12 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          {sessions.map((session) => (
            <li key={`${session.title}-${session.photo.id}`} className="flex [&>article]:flex-1">
              <PhotoCard
                photo={session.photo}
                title={session.title}
                description={session.description}
                link={
                  session.link ? { href: session.link, external: !session.soldHere } : undefined
                }
                linkHint={session.soldHere ? "Offrir" : "Réserver ou offrir"}
                sizes="(min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw"
              >
                <PriceTag price={session.price} className="mt-auto" />
              </PhotoCard>
            </li>
          ))}
        </ul>
      </Section>
      <CallToAction
        title="Une autre idée de cadeau ?"
        text="Nous composons aussi des bons cadeaux sur mesure pour toutes nos séances."
      >
        {vouchersOnSale ? (
          <Button asChild variant="gold" size="lg">
            <Link to={VOUCHERS_PATH}>Offrir un bon cadeau</Link>
          </Button>
        ) : null}
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
      </CallToAction>
    </>
  );
}
