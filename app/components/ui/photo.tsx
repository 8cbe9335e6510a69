import type { Picture } from "imagetools-core";
import type { SitePhoto } from "~/lib/media";
import { cn } from "~/lib/utils";

type CommonProps = {
  /** How wide the photo is drawn, for the browser's choice among the widths (the `sizes` attribute). */
  sizes: string;
  /** Above the fold: loaded at once with high priority. Everything else waits until near the viewport. */
  priority?: boolean;
  className?: string;
  imgClassName?: string;
};

type PhotoProps = CommonProps &
  (
    | {
        /** A photo of the media library: its focus point keeps the subject in a crop, its colour fills the
         * frame while it loads. */
        photo: SitePhoto;
        /** "" for a decorative photo (beside or behind a title); the media's own text otherwise. */
        alt?: string;
      }
    | { picture: Picture; alt: string }
  );

/** A photo in AVIF and WebP with a JPEG fallback, at several widths, with its intrinsic size. */
export function Photo({ sizes, priority = false, className, imgClassName, ...props }: PhotoProps) {
  const picture = "photo" in props ? props.photo.picture : props.picture;
  const alt = "photo" in props ? (props.alt ?? props.photo.alt) : props.alt;
  const style =
    "photo" in props
      ? {
          objectPosition: `${props.photo.focal.x}% ${props.photo.focal.y}%`,
          backgroundColor: props.photo.colour,
        }
      : undefined;
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
        style={style}
        className={cn("h-full w-full object-cover", imgClassName)}
      />
    </picture>
  );
}

/**
 * The `<link rel="preload">` for a priority photo, so the browser fetches it before it parses the body
 * (in `links`, or rendered as `<link {...preloadPhoto(…)} />` in a component: React hoists it to the head).
 */
export function preloadPhoto(photo: Picture | SitePhoto, sizes: string) {
  const picture = "picture" in photo ? photo.picture : photo;
  const avif = picture.sources.avif;
  return avif
    ? ({
        rel: "preload",
        as: "image",
        type: "image/avif",
        imageSrcSet: avif,
        imageSizes: sizes,
        fetchPriority: "high",
      } as const)
    : ({ rel: "preload", as: "image", href: picture.img.src, fetchPriority: "high" } as const);
}
