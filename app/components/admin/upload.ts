import { useEffect, useRef, useState } from "react";
import { toast } from "~/components/ui/toaster";
import { formatSize } from "~/lib/sizes";

/** Largest image the server accepts (checked here first to spare a slow connection). */
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

export const TOO_LARGE_IMAGE = `L'image dépasse la taille maximale de ${formatSize(MAX_IMAGE_BYTES)}.`;

export class UploadError extends Error {
  override name = "UploadError";
}

/**
 * Sends one image to the upload route with XMLHttpRequest, whose upload events give the progress that
 * fetch() cannot (photos are large and rural connections slow). Resolves with the image's public URL.
 */
export function uploadImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) {
    return Promise.reject(new UploadError(TOO_LARGE_IMAGE));
  }
  if (file.type && !file.type.startsWith("image/")) {
    return Promise.reject(new UploadError("Ce fichier n'est pas une image."));
  }
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/admin/images");
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      const body = request.response as { url?: string; reason?: string } | null;
      if (request.status === 201 && body?.url) resolve(body.url);
      else if (request.status === 413) reject(new UploadError(body?.reason ?? TOO_LARGE_IMAGE));
      else reject(new UploadError(body?.reason ?? `Erreur du serveur (${request.status}).`));
    });
    request.addEventListener("error", () =>
      reject(new UploadError("La connexion a été interrompue.")),
    );
    const body = new FormData();
    body.append("file", file);
    request.send(body);
  });
}

export type UploadStatus =
  | { state: "sending"; percent: number }
  | { state: "processing" }
  | { state: "done" }
  | { state: "failed"; reason: string };

/** How long 'Image téléversée.' stays before the status clears. */
const DONE_VISIBLE_MS = 4000;

/** The words of an upload's status, for the live region beside the button. */
export function uploadStatusText(status: UploadStatus): string {
  switch (status.state) {
    case "sending":
      return `Envoi de l'image… ${status.percent} %`;
    case "processing":
      return "Image reçue, préparation en cours…";
    case "done":
      return "Image téléversée.";
    case "failed":
      return `Impossible d'uploader l'image : ${status.reason}`;
  }
}

/**
 * One image upload at a time with its status: the percentage while sending, then 'préparation' while
 * the server resizes it (the bar at 100 % would look stuck), then 'Image téléversée.' which clears by
 * itself; a failure stays until the next try and also raises SPEC's toast.
 */
export function useImageUpload() {
  const [status, setStatus] = useState<UploadStatus | null>(null);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(clearTimer.current), []);

  async function upload(file: File): Promise<string | null> {
    clearTimeout(clearTimer.current);
    setStatus({ state: "sending", percent: 0 });
    try {
      const url = await uploadImage(file, (fraction) =>
        setStatus(
          fraction >= 1
            ? { state: "processing" }
            : { state: "sending", percent: Math.round(fraction * 100) },
        ),
      );
      setStatus({ state: "done" });
      clearTimer.current = setTimeout(() => setStatus(null), DONE_VISIBLE_MS);
      return url;
    } catch (error) {
      const reason = error instanceof UploadError ? error.message : "Erreur inattendue.";
      setStatus({ state: "failed", reason });
      toast.error("Erreur", { description: `Impossible d'uploader l'image. ${reason}` });
      return null;
    }
  }

  return { status, busy: status?.state === "sending" || status?.state === "processing", upload };
}
