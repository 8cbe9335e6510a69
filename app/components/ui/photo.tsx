import type { Picture } from "imagetools-core";
import { cn } from "~/lib/utils";

type PhotoProps = {
  picture: Picture;
  alt: string;
  /** How wide the photo is drawn, for the browser's choice among the widths (the `sizes` attribute). */
  sizes: string;
  /** Above the fold: loaded at once with high priority. Everything else waits until near the viewport. */
  priority?: boolean;
  className?: string;
  imgClassName?: string;
};

/** A photo in AVIF and WebP with a JPEG fallback, at several widths, with its intrinsic size. */
export function Photo({
  picture,
  alt,
  sizes,
  priority = false,
  className,
  imgClassName,
}: PhotoProps) {
  const { jpeg, jpg, ...modern } = picture.sources;
  const fallbackSrcSet = jpeg ?? jpg;
  return (
    <picture className={className}>
      {Object.entries(modern).map(([format, srcSet]) => (
        <source key={format} type={`image/${format}`} srcSet={srcSet} sizes={sizes} />
      ))}
      <img
        src={picture.img.src}
        srcSet={fallbackSrcSet}
        sizes={sizes}
        width={picture.img.w}
        height={picture.img.h}
        alt={alt}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : "auto"}
        decoding={priority ? "sync" : "async"}
        className={cn("h-full w-full object-cover", imgClassName)}
      />
    </picture>
  );
}

/** The `<link rel="preload">` for a priority photo, so the browser fetches it before it parses the body. */
export function preloadPhoto(picture: Picture, sizes: string) {
  const avif = picture.sources.avif;
  if (!avif) throw new Error("A preloaded photo needs its AVIF variants (the ?photo preset).");
  return {
    rel: "preload",
    as: "image",
    type: "image/avif",
    imageSrcSet: avif,
    imageSizes: sizes,
    fetchPriority: "high",
  } as const;
}
