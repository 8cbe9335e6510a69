import type { Route } from "./+types/grossesse";
import { quotedPrice } from "~/content/tarifs";
import { galleryImages, slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const { prices, testimonials } = content.documents;
  return {
    hero: slotPhoto(content, "grossesse.hero"),
    photos: galleryImages(content, "grossesse"),
    testimonials: testimonials.grossesse,
    /** Undefined once the owner renames or removes the card: the sentences then name no price. */
    pregnancyPrice: quotedPrice(prices, "Séance Grossesse"),
    bundlePrice: quotedPrice(prices, "Coffret Grossesse + Naissance"),
  };
}
