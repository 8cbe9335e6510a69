/** Largest image the server accepts (checked here first to spare a slow connection). */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;

export class UploadError extends Error {
  override name = "UploadError";
}

/**
 * Sends one image to the upload route with XMLHttpRequest, whose upload events give the progress that
 * fetch() cannot (photos are large and rural connections slow). Resolves with the image's public URL.
 */
export function uploadImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) {
    return Promise.reject(new UploadError("L'image dépasse la taille maximale de 15 Mo."));
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
      else reject(new UploadError(body?.reason ?? `Erreur ${request.status}`));
    });
    request.addEventListener("error", () =>
      reject(new UploadError("La connexion a été interrompue.")),
    );
    const body = new FormData();
    body.append("file", file);
    request.send(body);
  });
}
