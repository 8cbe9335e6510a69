import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/tarifs";
import { PriceTabs } from "~/components/marketing/price-tabs";
import { Button } from "~/components/ui/button";
import { sessionFacts } from "~/content/prestations";
import { priceTabFromParameter } from "~/content/tarifs";
import { formatPrice } from "~/lib/prices";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { BOOKING_HOME_PATH } from "~/lib/booking/urls";
import { VOUCHERS_PATH } from "~/lib/vouchers/order-page";
import type { SiteHandle } from "./site-layout";
export { loader } from "./tarifs.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  // The owner's cards, in order: « Séance Famille 79 €, …, Prestations Pro sur devis ».
  const quoted = (loaderData?.tabs ?? [])
    .flatMap((tab) => tab.cards)
    .map((card) => `${card.title} ${formatPrice(card.price).replace("Sur devis", "sur devis")}`)
    .join(", ");
  return seo({
    title: `Nos Tarifs | ${siteFrom(matches).brand}`,
    description: `Tarifs des séances photo${quoted ? ` : ${quoted}` : ""}.`,
    path: "/tarifs",
    matches,
  });
};

export default function Tarifs({
  loaderData: { tabs, booking, vouchersOnSale },
}: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const selected = priceTabFromParameter(searchParams.get("onglet"));
  return (
    <div className="mx-auto max-w-7xl px-4 pt-32 pb-20 sm:px-6">
      <header className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-bold sm:text-5xl">Nos Tarifs</h1>
        <p className="mt-4 text-muted-foreground">
          Des tarifs clairs, et {sessionFacts.includedPrint} avec chaque séance famille, grossesse
          ou naissance.
        </p>
      </header>
      <div className="mt-12">
        <PriceTabs tabs={tabs} selected={selected} />
      </div>
      <div className="mt-16 flex flex-wrap justify-center gap-4">
        <Button asChild variant="gold" size="lg">
          <Link to={booking ? BOOKING_HOME_PATH : "/contact"}>Réserver une séance</Link>
        </Button>
        {vouchersOnSale ? (
          <Button asChild variant="outline" size="lg">
            <Link to={VOUCHERS_PATH}>Offrir un bon cadeau</Link>
          </Button>
        ) : null}
        <Button asChild variant="outline" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
      </div>
    </div>
  );
}
