import { Link } from "react-router";
import type { Route } from "./+types/boudoir";
import { StyleGallery } from "~/components/marketing/style-gallery";
import { Button } from "~/components/ui/button";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import type { SiteHandle } from "./site-layout";
export { loader } from "./boudoir.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: `Galerie boudoir | ${siteFrom(matches).brand}`,
    description: loaderData?.images.length
      ? "Séances photo boudoir en studio, dans le respect et la bienveillance. Découvrez notre galerie boudoir et parlons de votre projet en toute discrétion."
      : "Séances photo boudoir en studio, dans le respect et la bienveillance. Notre galerie boudoir sera bientôt en ligne : contactez-nous pour en savoir plus.",
    path: "/boudoir",
    matches,
  });

function Links() {
  return (
    <div className="mt-10 flex flex-wrap justify-center gap-4">
      <Button asChild size="lg">
        <Link to="/contact">Nous contacter</Link>
      </Button>
      <Button asChild variant="outline" size="lg">
        <Link to="/prestations">Voir nos prestations</Link>
      </Button>
    </div>
  );
}

export default function Boudoir({ loaderData: { images } }: Route.ComponentProps) {
  if (images.length > 0) {
    // The owner has published the gallery (/admin/medias): the photos, then the same ways to go on.
    return (
      <div className="mx-auto max-w-7xl px-4 pt-32 pb-20 sm:px-6">
        <header className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl font-bold sm:text-5xl">Galerie boudoir</h1>
          <p className="mt-4 text-muted-foreground">
            Une sélection de photos réalisées avec l'accord de nos clientes. Parlons de votre projet
            de séance boudoir en toute discrétion.
          </p>
        </header>
        <div className="mt-12">
          <StyleGallery images={images} />
        </div>
        <Links />
      </div>
    );
  }
  return (
    <div className="mx-auto flex min-h-[70svh] max-w-3xl flex-col items-center justify-center px-4 pt-32 pb-20 text-center sm:px-6">
      <h1 className="text-4xl font-bold sm:text-5xl">Galerie boudoir</h1>
      <p className="mt-6 text-xl font-semibold">Galerie disponible prochainement</p>
      <p className="mt-4 text-muted-foreground">
        Nous préparons une sélection de photos réalisées avec l'accord de nos clientes. En
        attendant, parlons de votre projet de séance boudoir en toute discrétion.
      </p>
      <Links />
    </div>
  );
}
