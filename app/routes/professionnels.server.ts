import type { Route } from "./+types/professionnels";
import type { CardLink } from "~/components/marketing/photo-card";
import { professionalServices } from "~/content/professionnels";
import { shownAddress } from "~/lib/external-links";
import { slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const selfieBoothUrl = shownAddress(content.documents.identity.selfieBoothUrl);
  return {
    hero: slotPhoto(content, "professionnels.hero"),
    services: professionalServices.flatMap(({ link, ...service }) => {
      // Without a selfie-booth site (identity, not a placeholder: decision 0126), its card is left out
      // rather than shown without its link.
      if (link === "selfie-booth" && !selfieBoothUrl) return [];
      const cardLink: CardLink | undefined =
        link === "selfie-booth" ? { href: selfieBoothUrl, external: true } : link;
      return [{ ...service, photo: slotPhoto(content, service.photo), link: cardLink }];
    }),
  };
}
