import { pageHeroPreload } from "~/components/marketing/page-hero";
import type { SitePhoto } from "~/lib/media";

/**
 * The preload of a page's hero photo, rendered with the page (React puts it in the head) since `links`
 * gets no loader data. A photo without AVIF variants (removed meanwhile: a placeholder) is not preloaded.
 */
export function HeroPreload({ photo }: { photo: Pick<SitePhoto, "picture"> }) {
  if (!photo.picture.sources.avif) return null;
  return <link {...pageHeroPreload(photo.picture)} />;
}
