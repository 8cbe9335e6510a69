import type { Picture } from "imagetools-core";

/**
 * Photos of the media library uploaded by the owner are stored as `{file}-{width}.{avif,webp,jpg}` under
 * /uploads/media/, at the widths of MEDIA_WIDTHS that are not wider than the original (never enlarged).
 */
export const MEDIA_PATH = "/uploads/media/";
export const MEDIA_WIDTHS = [400, 800, 1280, 1920, 2400] as const;
export const MEDIA_MAX_WIDTH = 2400;
export const MEDIA_FORMATS = ["avif", "webp", "jpg"] as const;

/** The widths stored for an original this wide: every width below it, and the original's own when smaller. */
export function mediaWidthsFor(originalWidth: number): number[] {
  const widths: number[] = MEDIA_WIDTHS.filter((width) => width < originalWidth);
  const largest = Math.min(originalWidth, MEDIA_MAX_WIDTH);
  if (!widths.includes(largest)) widths.push(largest);
  return widths;
}

export function mediaFileUrl(file: string, width: number, format: (typeof MEDIA_FORMATS)[number]) {
  return `${MEDIA_PATH}${file}-${width}.${format}`;
}

/** An uploaded photo in the shape of a build photo (vite-imagetools' Picture), for the same `<Photo>`. */
export function uploadedPicture(
  file: string,
  widths: number[],
  size: { width: number; height: number },
): Picture {
  const sorted = [...widths].sort((a, b) => a - b);
  const srcSet = (format: (typeof MEDIA_FORMATS)[number]) =>
    sorted.map((width) => `${mediaFileUrl(file, width, format)} ${width}w`).join(", ");
  const fallback = sorted.filter((width) => width <= 1280).at(-1) ?? sorted[0] ?? size.width;
  return {
    sources: { avif: srcSet("avif"), webp: srcSet("webp"), jpeg: srcSet("jpg") },
    img: {
      src: mediaFileUrl(file, fallback, "jpg"),
      w: fallback,
      h: Math.round((fallback * size.height) / size.width),
    },
  };
}

/** A photo as a page receives it in its loader data: everything `<Photo>` needs, nothing of the database. */
export type SitePhoto = {
  id: string;
  picture: Picture;
  alt: string;
  /** The subject, in % of the width and height: where a crop keeps the photo centred. */
  focal: { x: number; y: number };
  /** Dominant colour (#rrggbb), the background while the photo loads. */
  colour: string;
  /** Still a demo photo of the build: the go-live checklist lists it. */
  demo: boolean;
};
