import type { Route } from "./+types/gendarmerie";
import { parisToday } from "~/lib/dates";
import { gendarmerieOfferRuns, slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent, studioBySlug } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const { gendarmerie, testimonials } = content.documents;
  // The studio that handles the offer; the first studio if the owner has retired it meanwhile.
  const studio = studioBySlug(content, gendarmerie.studioSlug) ?? content.studios[0];
  // Outside its dates the offer (its title and the discounted packages) is not shown: a reduction that has
  // ended must not be announced. The services, the booth and the testimonials stay.
  const offerRuns = gendarmerieOfferRuns(gendarmerie.offer, parisToday());
  return {
    hero: slotPhoto(content, "gendarmerie.hero"),
    services: gendarmerie.services.map(({ photo, youtubeId, videoTitle, ...service }) => {
      const picture = content.photo(photo);
      return {
        ...service,
        photo: picture,
        video: youtubeId
          ? { youtubeId, title: videoTitle || service.title, poster: picture }
          : null,
      };
    }),
    offer: offerRuns
      ? { title: gendarmerie.offer.title, packages: gendarmerie.packages }
      : { title: "", packages: [] },
    booth: { ...gendarmerie.selfieBooth, photo: content.photo(gendarmerie.selfieBooth.photo) },
    testimonials: testimonials.gendarmerie,
    contact: studio
      ? { path: studio.contactPath, name: studio.data.name }
      : { path: "/contact", name: "" },
  };
}
