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
 * The widest web size shown of a photo the client has to buy (decision 0196), and always narrower than the
 * original: a web copy at the original's own size would be the photo she has not paid for.
 */
export const GALLERY_UNBOUGHT_MAX_WIDTH = 1600;

/**
 * The web widths of a photo `photoWidth` pixels wide (upright): every step below it, and the photo's own
 * width up to the largest step (a 1067 px portrait gets 480, 960 and 1067). A photo narrower than the
 * smallest step also gets half its width (a 300 px photo: 150 and 300), so that every photo has a size
 * below its original's to show while it is to buy.
 */
export function galleryWidthsFor(photoWidth: number): number[] {
  const top = Math.min(photoWidth, Math.max(...GALLERY_WIDTHS));
  const steps = GALLERY_WIDTHS.filter((width) => width < top);
  const half = Math.floor(top / 2);
  return [...(steps.length === 0 && half > 0 ? [half] : []), ...steps, top];
}

/**
 * The web widths shown of a photo she may not download: narrower than the original `photoWidth` and at
 * most GALLERY_UNBOUGHT_MAX_WIDTH.
 */
export const unboughtWidths = (photoWidth: number, widths: readonly number[]): number[] =>
  widths.filter((width) => width < photoWidth && width <= GALLERY_UNBOUGHT_MAX_WIDTH);

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
