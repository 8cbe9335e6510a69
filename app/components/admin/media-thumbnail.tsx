import type { Picture } from "imagetools-core";
import { cn } from "~/lib/utils";

/** A photo of the library drawn small (its smallest widths are chosen by the browser), in its own colour. */
export function MediaThumbnail({
  picture,
  alt,
  colour,
  focal,
  className,
  sizes = "12rem",
}: {
  picture: Picture | null;
  alt: string;
  colour: string;
  focal?: { x: number; y: number };
  className?: string;
  sizes?: string;
}) {
  const style = {
    backgroundColor: colour,
    objectPosition: focal ? `${focal.x}% ${focal.y}%` : undefined,
  };
  if (!picture) {
    return (
      <span
        role="img"
        aria-label={alt}
        className={cn("block aspect-[4/3] rounded-md", className)}
        style={style}
      />
    );
  }
  const { jpeg, jpg, ...modern } = picture.sources;
  return (
    <picture>
      {Object.entries(modern).map(([format, srcSet]) => (
        <source key={format} type={`image/${format}`} srcSet={srcSet} sizes={sizes} />
      ))}
      <img
        src={picture.img.src}
        srcSet={jpeg ?? jpg}
        sizes={sizes}
        width={picture.img.w}
        height={picture.img.h}
        alt={alt}
        loading="lazy"
        decoding="async"
        className={cn("block aspect-[4/3] w-full rounded-md object-cover", className)}
        style={style}
      />
    </picture>
  );
}

export type ChoosablePhoto = {
  id: string;
  alt: string;
  colour: string;
  picture: Picture | null;
  demo: boolean;
};

/**
 * The library as a choice (radio buttons named `photo`): each photo with its description, the current one
 * checked. Works without JavaScript.
 */
export function PhotoChoices({
  photos,
  current,
  legend,
}: {
  photos: ChoosablePhoto[];
  current: string | null;
  legend: string;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold">{legend}</legend>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {photos.map((photo) => (
          <li key={photo.id}>
            <label className="block cursor-pointer rounded-lg border border-border bg-white p-2 has-[:checked]:border-gold-dark has-[:checked]:ring-2 has-[:checked]:ring-gold-dark has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-gold-dark">
              <MediaThumbnail picture={photo.picture} alt="" colour={photo.colour} sizes="10rem" />
              <span className="mt-2 flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="photo"
                  value={photo.id}
                  defaultChecked={photo.id === current}
                  className="mt-1 size-4 shrink-0 accent-gold-dark"
                />
                <span>
                  {photo.alt}
                  {photo.demo ? (
                    <span className="block text-xs text-muted-foreground">
                      Photo de démonstration
                    </span>
                  ) : null}
                  {photo.id === current ? (
                    <span className="block text-xs font-semibold">Photo actuelle</span>
                  ) : null}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
