import { siteContent } from "~/server/content/site-content.server";
import { findClientGallery } from "~/server/galleries/access.server";
import { studioContact } from "~/server/galleries/emails.server";
import type { Route } from "./+types/layout";

export async function loader({ context, params }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const gallery = params.id ? await findClientGallery(params.id) : null;
  return {
    brand: content.documents.identity.brand,
    contact: studioContact(content, gallery?.studioId ?? null),
  };
}
