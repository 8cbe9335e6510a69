import type { Route } from "./+types/naissances";
import { quotedPrice } from "~/content/tarifs";
import { galleryImages, slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const { prices } = content.documents;
  return {
    hero: slotPhoto(content, "naissances.hero"),
    styles: galleryImages(content, "naissances"),
    /** Undefined once the owner renames or removes the card: the sentences then name no price. */
    newbornPrice: quotedPrice(prices, "Séance Naissance"),
    bundlePrice: quotedPrice(prices, "Coffret Grossesse + Naissance"),
  };
}
