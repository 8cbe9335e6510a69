import type { Route } from "./+types/galerie";
import { shownAddress } from "~/lib/external-links";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    items: content.documents.gallery.items.map((item) => ({
      ...item,
      // A link the owner has not set yet is not shown (decision 0126).
      link: shownAddress(item.link),
      photo: content.photo(item.photo),
    })),
  };
}
