import type { Route } from "./+types/mariages";
import { quotedPrice } from "~/content/tarifs";
import { slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    hero: slotPhoto(content, "mariages.hero"),
    /** « à partir de 990 € »; undefined once the owner renames or removes the card, or quotes it. */
    weddingPrice: quotedPrice(content.documents.prices, "Mariages"),
  };
}
