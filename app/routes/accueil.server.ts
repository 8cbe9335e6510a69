import type { Route } from "./+types/accueil";
import { shownAddress } from "~/lib/external-links";
import { siteContent } from "~/server/content/site-content.server";
import { studioFacts } from "~/server/content/studio-pages.server";

/** The hero photo and, for each studio in menu order, its card and its structured data. */
export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    hero: content.photo(content.documents.pagePhotos.slots["accueil.hero"]),
    studios: content.studios.map((studio) => ({
      ...studioFacts(studio),
      slug: studio.slug,
      description: studio.data.description,
      bookingUrl: shownAddress(studio.data.bookingUrl),
      photo: content.photo(studio.data.photo),
    })),
  };
}
