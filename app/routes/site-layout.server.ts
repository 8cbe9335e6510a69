import type { Route } from "./+types/site-layout";
import { publicSite } from "~/server/content/public-site.server";
import { siteContent } from "~/server/content/site-content.server";

/** The business's facts every public page shows (header, footer, titles): `useSite()` / `siteFrom()`. */
export async function loader({ context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  return { site: publicSite(content), preview: content.preview === true };
}
