import { ChevronDown, Mail, MapPin, Phone, CalendarCheck } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/accueil";
import { Button } from "~/components/ui/button";
import { Photo, preloadPhoto } from "~/components/ui/photo";
import { siteFrom, telHref, useSite } from "~/lib/public-site";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { businessStructuredData } from "~/lib/structured-data";
export { loader } from "./accueil.server";

const HERO_SIZES = "100vw";

const NUMBER_WORDS = [
  "Un",
  "Deux",
  "Trois",
  "Quatre",
  "Cinq",
  "Six",
  "Sept",
  "Huit",
  "Neuf",
  "Dix",
];

/** 3 → « Trois studios » (SPEC's sentence, whatever the number of studios on the site). */
function studiosInWords(count: number): string {
  const word = NUMBER_WORDS[count - 1] ?? String(count);
  return `${word} studio${count > 1 ? "s" : ""}`;
}

/** « Studio d'Ussel, Studio de Brive et Studio de Limoges »: the studios as the page names them. */
function studioNames(studios: ReadonlyArray<{ name: string }>): string {
  return new Intl.ListFormat("fr", { type: "conjunction" }).format(
    studios.map((studio) => studio.name),
  );
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const siteUrl = siteUrlFrom(matches);
  const site = siteFrom(matches);
  // From the studios on the site (the menu's), by the name the page gives each: a studio added in the
  // admin is in the title at once, and a studio is never « Ambazac » here and « Studio de Limoges » there.
  const names = studioNames(site.studios);
  return seo({
    title: `${site.brand} | ${names}`,
    description: `${studiosInWords(site.studios.length)} photo en Limousin (${names}) : naissance, grossesse, famille, mariage et portraits professionnels. ${site.label}, ${site.experience}.`,
    path: "/",
    matches,
    extra: [jsonLd(businessStructuredData(siteUrl, site, loaderData?.studios ?? []))],
  });
};

export default function Home({ loaderData }: Route.ComponentProps) {
  const { hero, studios } = loaderData;
  const site = useSite();
  const preload = hero.picture.sources.avif ? preloadPhoto(hero.picture, HERO_SIZES) : null;
  return (
    <>
      {preload ? <link {...preload} /> : null}
      <section className="relative isolate flex min-h-svh items-center justify-center overflow-hidden bg-stone-900 text-white">
        <Photo
          picture={hero.picture}
          alt=""
          sizes={HERO_SIZES}
          priority
          className="absolute inset-0 -z-20"
        />
        <div className="absolute inset-0 -z-10 bg-gradient-to-b from-black/70 via-black/50 to-black/75" />
        {/* Centred on the photo: its first lines drawn alone would move up 135 px as the rest came (0107). */}
        <div className="invisible-until-parsed mx-auto max-w-4xl px-6 py-32 text-center">
          <p className="text-sm font-semibold tracking-[0.2em] text-gold uppercase">
            {site.label} · {site.experience}
          </p>
          <h1 className="mt-6 text-4xl leading-tight font-bold sm:text-6xl">{site.brand}</h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-stone-100 sm:text-xl">{site.tagline}</p>
          <Button asChild variant="gold" size="lg" className="mt-10">
            <a href="#studios">Découvrir nos studios</a>
          </Button>
        </div>
        <a
          href="#studios"
          className="absolute bottom-8 left-1/2 -translate-x-1/2 motion-safe:animate-scroll-hint"
          aria-label="Descendre vers nos studios"
        >
          <ChevronDown aria-hidden="true" className="size-8" />
        </a>
      </section>

      <section id="studios" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
        <h2 className="text-center text-3xl font-bold sm:text-4xl">Nos Studios</h2>
        <p className="mx-auto mt-4 max-w-2xl text-center text-muted-foreground">
          {studiosInWords(studios.length)} en Limousin, une même équipe et le même soin à chaque
          séance.
        </p>
        <ul
          className={cn(
            "mt-12 grid gap-8",
            studios.length === 4 ? "md:grid-cols-2 xl:grid-cols-4" : "md:grid-cols-3",
          )}
        >
          {studios.map((studio) => (
            <li
              key={studio.slug}
              className="group relative flex flex-col overflow-hidden rounded-2xl border border-border bg-white shadow-sm transition-shadow hover:shadow-lg"
            >
              <Photo
                picture={studio.photo.picture}
                alt={`Le ${studio.name}`}
                sizes="(min-width: 768px) 33vw, 100vw"
                className="aspect-[3/2] overflow-hidden"
                imgClassName="transition-transform duration-500 group-hover:scale-105"
              />
              <div className="flex flex-1 flex-col p-6">
                <h3 className="text-2xl font-semibold">
                  <Link to={studio.pagePath} className="after:absolute after:inset-0">
                    {studio.name}
                  </Link>
                </h3>
                <p className="mt-2 flex-1 text-sm text-muted-foreground">{studio.description}</p>
                <p className="mt-4 flex items-start gap-2 text-sm">
                  <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-dark" />
                  {studio.address.street}, {studio.address.postalCode} {studio.address.city}
                </p>
                <a
                  href={telHref(studio.phone)}
                  className="relative z-10 mt-1 flex min-h-11 items-center gap-2 text-sm font-semibold text-gold-dark hover:underline"
                >
                  <Phone aria-hidden="true" className="size-4" />
                  <span>
                    <span className="sr-only">Appeler le {studio.name} au </span>
                    {studio.phone}
                  </span>
                </a>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-muted py-20" aria-labelledby="contact-titre">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <h2 id="contact-titre" className="text-center text-3xl font-bold sm:text-4xl">
            Prenons rendez-vous
          </h2>
          <ul className="mt-12 grid gap-8 md:grid-cols-3">
            <li className="rounded-2xl bg-white p-8 text-center shadow-sm">
              <Phone aria-hidden="true" className="mx-auto size-8 text-gold-dark" />
              <h3 className="mt-4 text-xl font-semibold">Par téléphone</h3>
              <ul className="mt-4 space-y-1 text-sm">
                {studios.map((studio) => (
                  <li key={studio.slug}>
                    {studio.name} :{" "}
                    <a
                      href={telHref(studio.phone)}
                      className="inline-flex min-h-11 items-center font-semibold hover:underline"
                    >
                      {studio.phone}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
            <li className="rounded-2xl bg-white p-8 text-center shadow-sm">
              <Mail aria-hidden="true" className="mx-auto size-8 text-gold-dark" />
              <h3 className="mt-4 text-xl font-semibold">Par e-mail</h3>
              <p className="mt-4 text-sm text-muted-foreground">
                Une question, un projet ? Écrivez-nous, nous répondons rapidement.
              </p>
              <Button asChild variant="outline" className="mt-6">
                <Link to="/contact">Nous écrire</Link>
              </Button>
            </li>
            <li className="rounded-2xl bg-white p-8 text-center shadow-sm">
              <CalendarCheck aria-hidden="true" className="mx-auto size-8 text-gold-dark" />
              <h3 className="mt-4 text-xl font-semibold">En ligne</h3>
              <p className="mt-4 text-sm text-muted-foreground">
                Choisissez votre studio et réservez votre séance en quelques clics.
              </p>
              <ul className="mt-4 flex flex-wrap justify-center gap-2 text-sm">
                {studios
                  .filter((studio) => studio.bookingPath || studio.bookingUrl)
                  .map((studio) => (
                    <li key={studio.slug}>
                      {studio.bookingPath ? (
                        <Link
                          to={studio.bookingPath}
                          className="inline-block rounded-full border border-border px-3 py-1.5 hover:bg-muted"
                        >
                          {studio.name}
                          <span className="sr-only"> – réserver en ligne</span>
                        </Link>
                      ) : (
                        <a
                          href={studio.bookingUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="inline-block rounded-full border border-border px-3 py-1.5 hover:bg-muted"
                        >
                          {studio.name}
                          <span className="sr-only"> – réserver en ligne (nouvel onglet)</span>
                        </a>
                      )}
                    </li>
                  ))}
              </ul>
            </li>
          </ul>
        </div>
      </section>
    </>
  );
}
