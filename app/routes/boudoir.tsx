import { Link } from "react-router";
import type { Route } from "./+types/boudoir";
import { Button } from "~/components/ui/button";
import { site } from "~/content/site";
import { seo } from "~/lib/seo";
import type { SiteHandle } from "./site-layout";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Galerie boudoir | ${site.brand}`,
    description:
      "Séances photo boudoir en studio, dans le respect et la bienveillance. Notre galerie boudoir sera bientôt en ligne : contactez-nous pour en savoir plus.",
    path: "/boudoir",
    matches,
  });

export default function Boudoir() {
  return (
    <div className="mx-auto flex min-h-[70svh] max-w-3xl flex-col items-center justify-center px-4 pt-32 pb-20 text-center sm:px-6">
      <h1 className="text-4xl font-bold sm:text-5xl">Galerie boudoir</h1>
      <p className="mt-6 text-xl font-semibold">Galerie disponible prochainement</p>
      <p className="mt-4 text-muted-foreground">
        Nous préparons une sélection de photos réalisées avec l'accord de nos clientes. En
        attendant, parlons de votre projet de séance boudoir en toute discrétion.
      </p>
      <div className="mt-10 flex flex-wrap justify-center gap-4">
        <Button asChild size="lg">
          <Link to="/contact">Nous contacter</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/prestations">Voir nos prestations</Link>
        </Button>
      </div>
    </div>
  );
}
