import type { ReactNode } from "react";
import Lightbox, { useLightboxState } from "yet-another-react-lightbox";
import Counter from "yet-another-react-lightbox/plugins/counter";
import Zoom from "yet-another-react-lightbox/plugins/zoom";
import "yet-another-react-lightbox/styles.css";
import "yet-another-react-lightbox/plugins/counter.css";
import { type GalleryTile, photoUrl, widthUpTo } from "../../lib/gallery-photo-urls";
import { galleryFormatsFor } from "~/lib/gallery-urls";

/*
 * The full-screen viewer (decision 0103): yet-another-react-lightbox with zoom (wheel, pinch, double tap,
 * + and - keys, buttons) and the counter « 3 / 30 »; arrows, Escape and swipe are its own. Loaded with
 * React.lazy on first open: the grid's page does not carry it. Its styles are a stylesheet from 'self' and
 * CSSOM properties set by React, which the CSP allows.
 */

const LABELS = {
  Lightbox: "Visionneuse de photos",
  Carousel: "Photos",
  Slide: "Photo",
  "Photo gallery": "Galerie de photos",
  "{index} of {total}": "{index} sur {total}",
  Previous: "Photo précédente",
  Next: "Photo suivante",
  Close: "Fermer",
  "Zoom in": "Agrandir",
  "Zoom out": "Réduire",
};

export type PhotoViewerProps = {
  galleryId: string;
  photos: GalleryTile[];
  index: number;
  onView: (index: number) => void;
  onClose: () => void;
  /** The toolbar's own buttons for the photo on screen (♥, comment, download). */
  actions: (photo: GalleryTile) => ReactNode;
};

function CurrentActions({ photos, actions }: Pick<PhotoViewerProps, "photos" | "actions">) {
  const { currentIndex } = useLightboxState();
  const photo = photos[currentIndex];
  return photo ? <div className="flex items-center gap-1 px-1">{actions(photo)}</div> : null;
}

/**
 * The file's name, as the studio will read it in the selection (« IMG_0042.jpg »): on a line of its own at
 * the bottom, never beside the counter or the buttons, where a phone's narrow toolbar ran them together
 * (« 05.JPG9 », decision 0134).
 */
function CurrentName({ photos }: Pick<PhotoViewerProps, "photos">) {
  const { currentIndex } = useLightboxState();
  const photo = photos[currentIndex];
  return photo ? (
    <p
      data-photo-name
      className="pointer-events-none absolute inset-x-0 bottom-0 truncate bg-black/60 px-4 py-2 text-center text-sm text-white"
    >
      {photo.name}
    </p>
  ) : null;
}

export default function PhotoViewer({
  galleryId,
  photos,
  index,
  onView,
  onClose,
  actions,
}: PhotoViewerProps) {
  const slides = photos.map((photo) => {
    const format = "webp" as const;
    const largest = widthUpTo(photo, 2400);
    return {
      src: photoUrl(galleryId, photo, largest, format),
      alt: photo.name,
      width: photo.width,
      height: photo.height,
      srcSet: photo.widths
        .filter((width) => galleryFormatsFor(width).includes(format))
        .map((width) => ({
          src: photoUrl(galleryId, photo, width, format),
          width,
          height: Math.round((photo.height * width) / photo.width),
        })),
    };
  });
  return (
    <Lightbox
      open
      index={index}
      close={onClose}
      slides={slides}
      plugins={[Zoom, Counter]}
      labels={LABELS}
      carousel={{ preload: 2, finite: false }}
      zoom={{ maxZoomPixelRatio: 2, scrollToZoom: true }}
      on={{ view: ({ index: viewed }) => onView(viewed) }}
      render={{ controls: () => <CurrentName photos={photos} /> }}
      toolbar={{
        buttons: [
          <CurrentActions key="gallery-actions" photos={photos} actions={actions} />,
          "zoom",
          "close",
        ],
      }}
    />
  );
}
