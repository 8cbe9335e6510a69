import type { ComponentProps } from "react";
import { focalPosition, type FocalPoint, variantSrcSet } from "~/lib/image-variants";

type Props = Omit<ComponentProps<"img">, "src" | "srcSet"> & {
  src: string;
  /** The `sizes` of the variants, e.g. "(min-width: 1024px) 768px, 100vw". */
  sizes: string;
  /** Where the subject is, for an image cropped by `object-fit: cover`. */
  focalPoint?: FocalPoint | null;
};

/**
 * An uploaded blog image as a <picture>: AVIF and WebP variants by width, the re-encoded original as
 * fallback. Images that are not from our upload bucket render as a plain <img>.
 */
export function UploadedPicture({ src, sizes, alt = "", focalPoint, style, ...props }: Props) {
  const avif = variantSrcSet(src, "avif");
  const webp = variantSrcSet(src, "webp");
  const image = (
    <img
      src={src}
      alt={alt}
      style={focalPoint ? { ...style, objectPosition: focalPosition(focalPoint) } : style}
      {...props}
    />
  );
  if (!avif || !webp) return image;
  return (
    <picture>
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      <source type="image/webp" srcSet={webp} sizes={sizes} />
      {image}
    </picture>
  );
}
