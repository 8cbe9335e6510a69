/**
 * Uploaded blog images are stored as `<name>.<ext>` plus AVIF and WebP variants named `<name>-<width>.avif`
 * and `<name>-<width>.webp` (see server/images/uploads.server.ts). Variants are never enlarged, so a small
 * original's wider variants have its own width.
 */
export const VARIANT_WIDTHS = [480, 960, 1600] as const;

export type VariantFormat = "avif" | "webp";

/** Where uploaded blog images are served from (the bucket `blog-images`). */
export const BLOG_IMAGES_PATH = "/uploads/blog-images/";

/**
 * Where the demo articles' covers are (public/images/demo-blog): made with the same variants as an upload
 * (scripts/generate-demo-blog-images.ts), so that the demo blog weighs what the owner's own will.
 */
export const DEMO_BLOG_IMAGES_PATH = "/images/demo-blog/";

/**
 * True for an image of our upload bucket or a demo cover, which have variants; other images (old site,
 * static) do not.
 */
export function hasVariants(url: string | null | undefined): url is string {
  if (typeof url !== "string") return false;
  const folder = [BLOG_IMAGES_PATH, DEMO_BLOG_IMAGES_PATH].find((prefix) => url.startsWith(prefix));
  return (
    folder !== undefined &&
    /^[a-z0-9-]+\.(?:jpe?g|png|webp|avif|gif)$/i.test(url.slice(folder.length))
  );
}

/** The URL of one variant of an uploaded image. */
export function variantUrl(url: string, width: number, format: VariantFormat): string {
  return `${url.replace(/\.[a-z0-9]+$/i, "")}-${width}.${format}`;
}

/** The `srcset` of one format, e.g. for `<source type="image/avif" srcSet={…}>`; null for other images. */
export function variantSrcSet(
  url: string | null | undefined,
  format: VariantFormat,
): string | null {
  if (!hasVariants(url)) return null;
  return VARIANT_WIDTHS.map((width) => `${variantUrl(url, width, format)} ${width}w`).join(", ");
}

/**
 * The widest an uploaded image is stored: the article banner is at most 1216 CSS pixels wide, so this
 * covers it on a high-density screen; a camera's 6000 pixels would only weigh more.
 */
export const MAX_STORED_WIDTH = 2400;

/** The subject of a cover, in % of its width (x) and height (y); 50/50 is the centre. */
export type FocalPoint = { x: number; y: number };

/** The CSS `object-position` that keeps a cover's subject in view where it is cropped. */
export function focalPosition(point: FocalPoint | null | undefined): string {
  return point ? `${point.x}% ${point.y}%` : "50% 50%";
}
