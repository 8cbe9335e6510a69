import type { PhotoRight } from "./gallery-sales";
import {
  clientPhotoPath,
  galleryFormatsFor,
  galleryVariantName,
  type GalleryWebFormat,
} from "~/lib/gallery-urls";

/** What the client page knows of a photo (loader data). */
export type GalleryTile = {
  id: string;
  name: string;
  width: number;
  height: number;
  widths: number[];
  revision: number;
  thumbhash: string | null;
  favourite: boolean;
  comment: string | null;
  /** Whether she may download it, bought it or has it still to buy (decision 0184); absent: included. */
  right?: PhotoRight;
};

export const photoUrl = (
  galleryId: string,
  photo: GalleryTile,
  width: number,
  format: GalleryWebFormat,
) => clientPhotoPath(galleryId, photo.id, galleryVariantName(photo.revision, width, format));

/** The `srcset` of one format: every width the processing wrote in it. */
export function srcSetOf(galleryId: string, photo: GalleryTile, format: GalleryWebFormat): string {
  return photo.widths
    .filter((width) => galleryFormatsFor(width).includes(format))
    .map((width) => `${photoUrl(galleryId, photo, width, format)} ${width}w`)
    .join(", ");
}

/** The largest width at most `limit` (the smallest one when all are larger). */
export function widthUpTo(photo: GalleryTile, limit: number): number {
  const fitting = photo.widths.filter((width) => width <= limit);
  return fitting.length > 0 ? Math.max(...fitting) : Math.min(...photo.widths);
}
