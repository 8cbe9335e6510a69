import { Photo } from "~/components/ui/photo";
import type { SitePhoto } from "~/lib/media";

/** SPEC §3 "Gallery image": a captioned photo of a page's gallery. */
export type GalleryImage = { title: string; photo: SitePhoto };

/** A grid of captioned photos (the styles of a service): each photo says what it shows (its alt text). */
export function StyleGallery({ images }: { images: GalleryImage[] }) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:gap-6 md:grid-cols-3 lg:grid-cols-4">
      {images.map((image) => (
        <li key={`${image.title}-${image.photo.id}`}>
          <figure className="overflow-hidden rounded-xl bg-white shadow-sm">
            {/* The photo's own colour fills the frame while it loads; the ratio keeps its place. */}
            <div style={{ backgroundColor: image.photo.colour }}>
              <Photo
                photo={image.photo}
                sizes="(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw"
                className="block aspect-[3/4] overflow-hidden"
              />
            </div>
            <figcaption className="px-3 py-2 text-sm font-semibold">{image.title}</figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
