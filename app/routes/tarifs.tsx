import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/tarifs";
import { PriceTabs } from "~/components/marketing/price-tabs";
import { Button } from "~/components/ui/button";
import { sessionFacts } from "~/content/prestations";
import { site } from "~/content/site";
import { priceOf, priceTabFromParameter, priceTabs } from "~/content/tarifs";
import { seo } from "~/lib/seo";
import type { SiteHandle } from "./site-layout";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Nos Tarifs | ${site.brand}`,
    description: `Tarifs des séances photo : famille et grossesse ${priceOf("Séance Famille")}, naissance ${priceOf("Séance Naissance")}, coffret grossesse + naissance ${priceOf("Coffret Grossesse + Naissance")}, portrait CV ${priceOf("Portrait CV")}, mariages ${priceOf("Mariages")}, professionnels sur devis.`,
    path: "/tarifs",
    matches,
  });

export default function Tarifs() {
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
        <PriceTabs tabs={priceTabs} selected={selected} />
      </div>
      <div className="mt-16 flex flex-wrap justify-center gap-4">
        <Button asChild variant="gold" size="lg">
          <Link to="/contact">Réserver une séance</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
      </div>
    </div>
  );
}
