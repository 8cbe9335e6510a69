import type { Route } from "./+types/donnees-personnelles";
import { DEFAULT_PURGE_AFTER_DAYS } from "~/lib/gallery-schemas";
import { siteContent } from "~/server/content/site-content.server";

/** The publisher's details (`legal` document, /admin/site). */
export async function loader({ context }: Route.LoaderArgs) {
  const { companyName, address, email } = (await siteContent(context)).documents.legal;
  return {
    publisher: { companyName, address },
    privacyContact: email,
    galleryPurgeDays: DEFAULT_PURGE_AFTER_DAYS,
  };
}
