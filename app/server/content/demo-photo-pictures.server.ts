import type { Picture } from "imagetools-core";

/**
 * The demo photos of the build (app/assets/photos), encoded by vite-imagetools at build time: what the media
 * library's `builtin` rows show until the owner replaces them with her own photos. Full-screen photos get
 * the widths of a hero, gallery and style photos the small widths, the others the card widths (vite.config.ts).
 * Server-only: the pages receive the photo they show in their loader data, not this table.
 */

const heroes = import.meta.glob<Picture>(
  ["../../assets/photos/*-hero.jpg", "../../assets/photos/studio-*.jpg"],
  { eager: true, import: "default", query: { photo: "hero" } },
);
const small = import.meta.glob<Picture>(
  ["../../assets/photos/style-*.jpg", "../../assets/photos/galerie-*.jpg"],
  {
    eager: true,
    import: "default",
    query: "?w=400;800&format=avif;webp;jpg&quality=62&as=picture",
  },
);
const cards = import.meta.glob<Picture>(
  [
    "../../assets/photos/*.jpg",
    "!../../assets/photos/*-hero.jpg",
    "!../../assets/photos/studio-*.jpg",
    "!../../assets/photos/style-*.jpg",
    "!../../assets/photos/galerie-*.jpg",
  ],
  { eager: true, import: "default", query: { photo: "" } },
);

const pictures = new Map<string, Picture>(
  [heroes, small, cards].flatMap((set) =>
    Object.entries(set).map(([file, picture]) => [
      file.replace(/^.*\/([^/]+)\.jpg$/, "$1"),
      picture,
    ]),
  ),
);

/** The encoded demo photo saved as app/assets/photos/{name}.jpg, or undefined when there is none. */
export function demoPicture(name: string): Picture | undefined {
  return pictures.get(name);
}

/** Names of every demo photo of the build. */
export function demoPictureNames(): string[] {
  return [...pictures.keys()].sort();
}
