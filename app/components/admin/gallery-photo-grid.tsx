import { useEffect, useRef, useState, type DragEvent, type ReactNode } from "react";
import { useRevalidator, useSubmit } from "react-router";
import type { PhotosProgress } from "~/server/uploads/gallery-photos.server";

/** How often the page asks for the photos' states while some are being prepared or sent. */
const POLL_INTERVAL_MS = 2_000;

/**
 * The gallery's photos and their states, kept up to date: `/progression` is asked every 2 s while a photo
 * is not ready yet or the uploader is sending (new photos appear as they complete), and only while the
 * tab is in view. Without JavaScript, the states are those of the page's loading.
 */
export function useLivePhotos(
  initial: PhotosProgress,
  progressUrl: string,
  uploading: boolean,
): PhotosProgress {
  const [polled, setPolled] = useState<{ base: PhotosProgress; value: PhotosProgress } | null>(
    null,
  );
  const live = polled?.base === initial ? polled.value : initial;
  const active = uploading || live.preparing > 0;

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    const poll = () => {
      if (document.visibilityState === "hidden") return;
      void fetch(progressUrl, {
        signal: controller.signal,
        headers: { Accept: "application/json" },
      })
        .then(async (response) => {
          if (response.ok)
            setPolled({ base: initial, value: (await response.json()) as PhotosProgress });
        })
        // A network hiccup (or leaving the page): the next tick tries again.
        .catch(() => undefined);
    };
    const timer = window.setInterval(poll, POLL_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [active, progressUrl, initial]);

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
export function useDragToReorder(photoIds: string[]) {
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
      const position = photoIds.indexOf(photoId) + 1;
      if (position < 1) return;
      void submit({ intent: "move", id: moving, position: String(position) }, { method: "post" });
    },
  });
  return { itemProps };
}
