import type { Route } from "./+types/portrait-famille";
import { quotedPrice } from "~/content/tarifs";
import { galleryImages, slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    hero: slotPhoto(content, "portrait-famille.hero"),
    styles: galleryImages(content, "portrait-famille"),
    testimonials: content.documents.testimonials.portraitFamille,
    /** Undefined once the owner renames or removes the card: the sentences then name no price. */
    familyPrice: quotedPrice(content.documents.prices, "Séance Famille"),
  };
}
