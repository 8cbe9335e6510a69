import type { Route } from "./+types/index";
import { prestationCards } from "~/content/prestations";
import { slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    hero: slotPhoto(content, "prestations.hero"),
    cards: prestationCards.map((card) => ({ ...card, photo: slotPhoto(content, card.photo) })),
  };
}
