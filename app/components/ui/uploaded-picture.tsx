import type { ComponentProps } from "react";
import { variantSrcSet } from "~/lib/image-variants";

type Props = Omit<ComponentProps<"img">, "src" | "srcSet"> & {
  src: string;
  /** The `sizes` of the variants, e.g. "(min-width: 1024px) 768px, 100vw". */
  sizes: string;
};

/**
 * An uploaded blog image as a <picture>: AVIF and WebP variants by width, the re-encoded original as
 * fallback. Images that are not from our upload bucket render as a plain <img>.
 */
export function UploadedPicture({ src, sizes, alt = "", ...props }: Props) {
  const avif = variantSrcSet(src, "avif");
  const webp = variantSrcSet(src, "webp");
  const image = <img src={src} alt={alt} {...props} />;
  if (!avif || !webp) return image;
  return (
    <picture>
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      <source type="image/webp" srcSet={webp} sizes={sizes} />
      {image}
    </picture>
  );
}
