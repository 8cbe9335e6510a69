/**
 * Addresses and shared figures of the client galleries (decision 0103), for the server and the browser alike.
 * The client's pages live under /galerie-client/{id}; the owner's under /admin/galeries.
 */

/** The web sizes' widths (never enlarged past the photo's own width). */
export const GALLERY_WIDTHS = [480, 960, 1600, 2400] as const;
/** AVIF is slow to encode: only up to this width (the browser takes WebP above it). */
export const GALLERY_AVIF_MAX_WIDTH = 1600;

export const GALLERY_WEB_FORMATS = ["avif", "webp", "jpg"] as const;
export type GalleryWebFormat = (typeof GALLERY_WEB_FORMATS)[number];

/**
 * The web widths of a photo `photoWidth` pixels wide (upright): every step below it, and the photo's own
 * width up to the largest step (a 1067 px portrait gets 480, 960 and 1067; a 300 px photo only 300).
 */
export function galleryWidthsFor(photoWidth: number): number[] {
  const top = Math.min(photoWidth, Math.max(...GALLERY_WIDTHS));
  return [...GALLERY_WIDTHS.filter((width) => width < top), top];
}

/** The formats written at one web width: AVIF up to GALLERY_AVIF_MAX_WIDTH, WebP and JPEG always. */
export function galleryFormatsFor(width: number): GalleryWebFormat[] {
  return width <= GALLERY_AVIF_MAX_WIDTH ? ["avif", "webp", "jpg"] : ["webp", "jpg"];
}

/**
 * A web size's file name (the client's URLs and the store's keys): it carries the gallery's variant revision,
 * so a changed watermark never reads stale.
 */
export const galleryVariantName = (revision: number, width: number, format: GalleryWebFormat) =>
  `r${revision}-w${width}.${format}`;

/** The largest photo the owner can upload. */
export const MAX_GALLERY_PHOTO_BYTES = 50 * 1024 * 1024;
/** The size of every piece of a resumable upload but the last (S3 parts must be at least 5 MiB). */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;

export const clientGalleryPath = (galleryId: string) => `/galerie-client/${galleryId}`;

export const clientPhotoPath = (galleryId: string, photoId: string, fileName: string) =>
  `${clientGalleryPath(galleryId)}/photos/${photoId}/${fileName}`;

export const clientPhotoDownloadPath = (galleryId: string, photoId: string) =>
  `${clientGalleryPath(galleryId)}/telecharger/${photoId}`;

export const clientZipPath = (galleryId: string, options: { favourites?: boolean } = {}) =>
  `${clientGalleryPath(galleryId)}/telecharger.zip${options.favourites ? "?favoris=1" : ""}`;

export const ADMIN_GALLERIES_PATH = "/admin/galeries";
export const adminGalleryPath = (galleryId: string) => `${ADMIN_GALLERIES_PATH}/${galleryId}`;
export const adminGallerySettingsPath = (galleryId: string) =>
  `${adminGalleryPath(galleryId)}/reglages`;
export const adminGallerySelectionPath = (galleryId: string) =>
  `${adminGalleryPath(galleryId)}/selection`;
export const adminGalleryProgressPath = (galleryId: string) =>
  `${adminGalleryPath(galleryId)}/progression`;
export const adminGalleryPhotoPath = (galleryId: string, photoId: string, fileName: string) =>
  `${adminGalleryPath(galleryId)}/photos/${photoId}/${fileName}`;

/** The resumable upload protocol (decision 0101): start, then one chunk at a time. */
export const UPLOADS_PATH = "/admin/envois";
export const uploadPath = (uploadId: string) => `${UPLOADS_PATH}/${uploadId}`;
/** One photo through a plain form, for a browser without JavaScript. */
export const uploadFormPath = (galleryId: string) => `${UPLOADS_PATH}/formulaire/${galleryId}`;
