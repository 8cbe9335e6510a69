import type { Route } from "./+types/seances-a-offrir";
import { shownAddress } from "~/lib/external-links";
import { slotPhoto } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return {
    hero: slotPhoto(content, "seances-a-offrir.hero"),
    sessions: content.documents.giftSessions.sessions.map((session) => ({
      ...session,
      // A link the owner has not set yet is not shown (decision 0126).
      link: shownAddress(session.link),
      photo: content.photo(session.photo),
    })),
  };
}
