import { useEffect, useRef, useState, type DragEvent, type ReactNode } from "react";
import { usePolled } from "~/lib/use-polled";
import { useRevalidator, useSubmit } from "react-router";
import type { PhotosProgress } from "~/server/uploads/gallery-photos.server";

/**
 * The gallery's photos and their states, kept up to date: `/progression` is polled while a photo is not
 * ready yet or the uploader is sending (new photos appear as they complete). Without JavaScript, the states
 * are those of the page's loading.
 */
export function useLivePhotos(
  initial: PhotosProgress,
  progressUrl: string,
  uploading: boolean,
): PhotosProgress {
  const live = usePolled(initial, progressUrl, (value) => uploading || value.preparing > 0);

  // The uploader finished: one last look, so the last photos show without waiting for the next tick.
  const revalidator = useRevalidator();
  const wasUploading = useRef(uploading);
  useEffect(() => {
    if (wasUploading.current && !uploading) void revalidator.revalidate();
    wasUploading.current = uploading;
  }, [uploading, revalidator]);

  return live;
}

/** The grid of a gallery's photos (one `li` each). */
export function GalleryPhotoGrid({ children }: { children: ReactNode }) {
  return (
    <ul
      aria-label="Photos de la galerie, dans l'ordre du client"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
    >
      {children}
    </ul>
  );
}

/**
 * Drag and drop in the grid, for a pointer: a photo dropped on another takes its place (posted as
 * `intent=move` with the place, like the « Monter »/« Descendre » buttons, which do the same from the
 * keyboard and without JavaScript).
 */
export function useDragToReorder(photoIds: string[], offset = 0) {
  const submit = useSubmit();
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);

  const itemProps = (photoId: string) => ({
    draggable: true,
    "data-drop-target": over === photoId && dragged !== photoId ? "" : undefined,
    onDragStart(event: DragEvent) {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", photoId);
      setDragged(photoId);
    },
    onDragOver(event: DragEvent) {
      if (!dragged) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setOver(photoId);
    },
    onDragEnd() {
      setDragged(null);
      setOver(null);
    },
    onDrop(event: DragEvent) {
      event.preventDefault();
      const moving = dragged;
      setDragged(null);
      setOver(null);
      if (!moving || moving === photoId) return;
      // The place in the whole gallery: the grid shows one page of it (decision 0136).
      const index = photoIds.indexOf(photoId);
      if (index < 0) return;
      const position = offset + index + 1;
      void submit({ intent: "move", id: moving, position: String(position) }, { method: "post" });
    },
  });
  return { itemProps };
}
