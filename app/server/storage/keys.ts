// Relative, with its extension: the photo worker thread imports this file unbundled (decision 0102).
import { galleryVariantName, type GalleryWebFormat } from "../../lib/gallery-urls.ts";

export { galleryVariantName };

/**
 * The storage keys of the site, one place for their shapes:
 * - `blog-images/{name}` and `media/{file}-{width}.{format}` are public (served under /uploads);
 * - `galleries/{galleryId}/…` is private: reached only through the client gallery's routes.
 */

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/;

/** Throws when a key could escape its folder or name something odd: keys are built by code, never typed. */
export function checkKey(key: string): string {
  if (
    !KEY_PATTERN.test(key) ||
    key.length > 300 ||
    key.split("/").some((part) => part === "" || part === "." || part === "..")
  ) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A folder of keys (`media/`, `galleries/{id}/`): a valid key followed by `/`. Throws otherwise. */
export function checkPrefix(prefix: string): string {
  if (!prefix.endsWith("/")) throw new Error(`Storage prefix must end with "/": ${prefix}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}

/** The prefixes served publicly under /uploads/{key}. Nothing else is. */
export const PUBLIC_PREFIXES = ["blog-images/", "media/"] as const;

export function isPublicKey(key: string): boolean {
  return PUBLIC_PREFIXES.some((prefix) => key.startsWith(prefix));
}

export const galleryPrefix = (galleryId: string) => `galleries/${galleryId}/`;

export const galleryPhotoPrefix = (galleryId: string, photoId: string) =>
  `${galleryPrefix(galleryId)}${photoId}/`;

/** The owner's upload as received (with its metadata), deleted once processed. */
export const galleryUploadKey = (galleryId: string, photoId: string, extension: string) =>
  `${galleryPhotoPrefix(galleryId, photoId)}upload.${extension}`;

/** The delivery original: the photographer's pixels without location data. */
export const galleryOriginalKey = (galleryId: string, photoId: string, extension: string) =>
  `${galleryPhotoPrefix(galleryId, photoId)}original.${extension}`;

type WebFormat = GalleryWebFormat;

export const galleryVariantKey = (
  galleryId: string,
  photoId: string,
  revision: number,
  width: number,
  format: WebFormat,
) => `${galleryPhotoPrefix(galleryId, photoId)}${galleryVariantName(revision, width, format)}`;

const VARIANT_NAME = /^r(\d{1,6})-w(\d{2,5})\.(avif|webp|jpg)$/;

/** Reads a web size's file name from a URL; null when it is not one. */
export function parseVariantName(
  name: string,
): { revision: number; width: number; format: WebFormat } | null {
  const match = VARIANT_NAME.exec(name);
  if (!match) return null;
  return { revision: Number(match[1]), width: Number(match[2]), format: match[3] as WebFormat };
}

/**
 * The types of the files the site makes (decision 0128): photos only. A stored file is served with the type
 * its key's extension implies from this list, never one a store or an archive declares: an `.html`, `.js`
 * or `.svg` put in the store by hand or by a crafted backup is never a page of the site's origin.
 */
export const CONTENT_TYPES: Record<string, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  heic: "image/heic",
  gif: "image/gif",
};

function extensionOf(key: string): string {
  return key.slice(key.lastIndexOf(".") + 1).toLowerCase();
}

/** The content type of a key from its extension (application/octet-stream when unknown). */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[extensionOf(key)] ?? "application/octet-stream";
}

/** Whether the key's extension is one of the types the site makes (CONTENT_TYPES). */
export function hasSiteFileType(key: string): boolean {
  return Object.hasOwn(CONTENT_TYPES, extensionOf(key));
}

const NAME = "[a-z0-9][a-z0-9_.-]*";
const SITE_KEY = new RegExp(
  `^(?:blog-images/${NAME}|media/${NAME}|galleries/${NAME}/${NAME}/${NAME})$`,
);

/**
 * Whether the site itself could have made this key (blog images, the media library, a client gallery's
 * photo files), with a type of CONTENT_TYPES. A restore refuses an archive holding any other (decision 0128).
 */
export function isSiteFileKey(key: string): boolean {
  try {
    checkKey(key);
  } catch {
    return false;
  }
  return SITE_KEY.test(key) && hasSiteFileType(key);
}
