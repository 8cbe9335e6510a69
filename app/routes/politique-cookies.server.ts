import type { Route } from "./+types/politique-cookies";
import { siteContent } from "~/server/content/site-content.server";

/** Where people ask about their data: the `legal` document's e-mail (/admin/site). */
export async function loader({ context }: Route.LoaderArgs) {
  return { privacyContact: (await siteContent(context)).documents.legal.email };
}
