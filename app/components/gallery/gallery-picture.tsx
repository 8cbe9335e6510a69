import { type GalleryTile, photoUrl, srcSetOf, widthUpTo } from "../../lib/gallery-photo-urls";

/** A gallery photo in AVIF, WebP or JPEG, at the width the layout needs (`sizes`). */
export function GalleryPicture({
  galleryId,
  photo,
  sizes,
  alt,
  eager = false,
  fallbackWidth = 960,
  className,
}: {
  galleryId: string;
  photo: GalleryTile;
  sizes: string;
  /** The alternative text: the file's name unless given ("" for a photo shown again). */
  alt?: string;
  eager?: boolean;
  fallbackWidth?: number;
  className?: string;
}) {
  const avif = srcSetOf(galleryId, photo, "avif");
  return (
    <picture>
      {avif ? <source type="image/avif" srcSet={avif} sizes={sizes} /> : null}
      <source type="image/webp" srcSet={srcSetOf(galleryId, photo, "webp")} sizes={sizes} />
      <img
        src={photoUrl(galleryId, photo, widthUpTo(photo, fallbackWidth), "jpg")}
        srcSet={srcSetOf(galleryId, photo, "jpg")}
        sizes={sizes}
        width={photo.width}
        height={photo.height}
        alt={alt ?? photo.name}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className={className}
      />
    </picture>
  );
}
