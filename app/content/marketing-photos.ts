import type { Picture } from "imagetools-core";

/**
 * The small photos of the style galleries and of the gallery covers (app/assets/photos/style-*.jpg and
 * galerie-*.jpg), at two widths only: they are drawn at most about 400 px wide.
 */
const smallPhotos = import.meta.glob<Picture>(
  ["../assets/photos/style-*.jpg", "../assets/photos/galerie-*.jpg"],
  {
    eager: true,
    import: "default",
    query: "?w=400;800&format=avif;webp;jpg&quality=62&as=picture",
  },
);

/** The small photo saved as app/assets/photos/{name}.jpg. */
export function smallPhoto(name: string): Picture {
  const picture = smallPhotos[`../assets/photos/${name}.jpg`];
  if (!picture) throw new Error(`Photo manquante : app/assets/photos/${name}.jpg`);
  return picture;
}
