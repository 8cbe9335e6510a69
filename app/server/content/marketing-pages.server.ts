import type { Gendarmerie, PhotoSlot, StyleGalleryKey } from "~/content/schemas";
import type { SitePhoto } from "~/lib/media";
import type { SiteContent } from "./site-content.server";

/**
 * What the marketing pages' loaders take from the content snapshot: the photo of a slot, a page's gallery,
 * whether the gendarmerie offer runs today. Each loader returns only what its page shows.
 */

/** The photo the owner chose for a slot of a page (a neutral placeholder when none). */
export function slotPhoto(content: SiteContent, slot: PhotoSlot): SitePhoto {
  return content.photo(content.documents.pagePhotos.slots[slot] ?? "");
}

/** The captioned photos of a page's gallery, in the owner's order. */
export function galleryImages(
  content: SiteContent,
  gallery: StyleGalleryKey,
): Array<{ title: string; photo: SitePhoto }> {
  return content.documents.pagePhotos.galleries[gallery].map((image) => ({
    title: image.title,
    photo: content.photo(image.photo),
  }));
}

/**
 * Whether the gendarmerie offer runs on `today` (ISO, France): from `validFrom` to `validUntil` included,
 * an empty bound leaving that side open.
 */
export function gendarmerieOfferRuns(offer: Gendarmerie["offer"], today: string): boolean {
  return (
    (!offer.validFrom || offer.validFrom <= today) &&
    (!offer.validUntil || today <= offer.validUntil)
  );
}
