import type { Route } from "./+types/galerie";
import { ExternalLink } from "~/components/marketing/external-link";
import { Photo } from "~/components/ui/photo";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import type { SiteHandle } from "./site-layout";
export { loader } from "./galerie.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: `Galerie | ${siteFrom(matches).brand}`,
    description:
      "Mariages, familles et événements : parcourez les galeries photo de nos clients réalisées par nos studios d'Ussel, Brive et Limoges.",
    path: "/galerie",
    matches,
  });

export default function Galerie({ loaderData: { items } }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 pt-32 pb-20 sm:px-6">
      <header className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-bold sm:text-5xl">Galerie</h1>
        <p className="mt-4 text-muted-foreground">
          {items.some((item) => item.link)
            ? "Événements, familles et mariages : chaque galerie s'ouvre sur notre service de livraison de photos, dans un nouvel onglet."
            : "Événements, familles et mariages : quelques séances de nos studios."}
        </p>
      </header>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => {
          const card = (
            <>
              {/* The photo's own colour fills the card while it loads; the ratio keeps its place. */}
              <span className="block" style={{ backgroundColor: item.photo.colour }}>
                <Photo
                  photo={item.photo}
                  alt=""
                  sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
                  className="block aspect-[4/3] overflow-hidden"
                  imgClassName="transition-transform duration-500 group-hover:scale-105"
                />
              </span>
              <span className="block p-4">
                <span className="block text-xs font-semibold tracking-wider text-gold-dark uppercase">
                  {item.category}
                </span>
                <span className="mt-1 block font-serif text-lg font-semibold">{item.title}</span>
              </span>
            </>
          );
          const frame =
            "group block overflow-hidden rounded-2xl border border-border bg-white shadow-sm";
          return (
            <li key={`${item.title}-${item.photo.id}`}>
              {item.link ? (
                <ExternalLink
                  href={item.link}
                  className={`${frame} transition-shadow hover:shadow-lg`}
                >
                  {card}
                </ExternalLink>
              ) : (
                <div className={frame}>{card}</div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
