import type { Route } from "./+types/scolaire";
import { slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    hero: slotPhoto(content, "scolaire.hero"),
    mobileStudioPhoto: slotPhoto(content, "scolaire.studio-mobile"),
  };
}
