import type { Route } from "./+types/boudoir";
import { galleryImages } from "~/server/content/marketing-pages.server";
import { siteContent } from "~/server/content/site-content.server";

export async function loader({ context }: Route.LoaderArgs) {
  return { images: galleryImages(await siteContent(context), "boudoir") };
}
