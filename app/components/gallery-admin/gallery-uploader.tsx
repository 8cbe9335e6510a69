import { Upload } from "lucide-react";
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { Button } from "~/components/ui/button";
import { MAX_GALLERY_PHOTO_BYTES, UPLOADS_PATH, uploadPath } from "~/lib/gallery-urls";
import { formatSize } from "~/lib/sizes";
import { useHydrated } from "~/lib/use-hydrated";
import type { InterruptedUpload } from "~/server/uploads/resumable.server";
import {
  batchText,
  percentOf,
  timeLeftText,
  RefusedError,
  TransientError,
  UploadQueue,
  type ChunkAnswer,
  type Environment,
  type QueueFile,
  type QueueSnapshot,
  type StartAnswer,
  type Transport,
} from "./gallery-upload-queue";

/** What the file picker offers (the server checks the bytes anyway). */
export const ACCEPTED_PHOTOS =
  "image/jpeg,image/png,image/heic,image/heif,.jpg,.jpeg,.png,.heic,.heif";
/** Files sent at the same time: enough to fill a line, few enough that each shows progress. */
const CONCURRENCY = 3;

type ErrorBody = { error?: string; received?: number; duplicate?: boolean };

/** The resumable protocol over XMLHttpRequest (upload progress events, which fetch() lacks). */
export function xhrTransport(galleryId: string): Transport {
  const query = `galerie=${encodeURIComponent(galleryId)}`;
  function request<T>(
    method: "GET" | "POST",
    url: string,
    body: Blob | string | null,
    contentType: string | null,
    onProgress?: (loaded: number) => void,
  ): Promise<{ status: number; body: T }> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.responseType = "json";
      xhr.setRequestHeader("Accept", "application/json");
      if (contentType) xhr.setRequestHeader("Content-Type", contentType);
      if (onProgress) xhr.upload.addEventListener("progress", (event) => onProgress(event.loaded));
      xhr.addEventListener("load", () => {
        // Server errors and time-outs are worth another try; the refusals (4xx) say why.
        if (xhr.status >= 500 || xhr.status === 408 || xhr.status === 0 || xhr.status === 429)
          reject(new TransientError(`HTTP ${xhr.status}`));
        else resolve({ status: xhr.status, body: (xhr.response ?? {}) as T });
      });
      xhr.addEventListener("error", () => reject(new TransientError("network")));
      xhr.addEventListener("abort", () => reject(new TransientError("abort")));
      xhr.addEventListener("timeout", () => reject(new TransientError("timeout")));
      xhr.send(body);
    });
  }
  const refusal = (status: number, body: ErrorBody) =>
    body.error ?? `L'envoi a été refusé (erreur ${status}).`;

  return {
    async start(file: QueueFile): Promise<StartAnswer> {
      const { status, body } = await request<
        ErrorBody & { uploadId?: string; chunkSize?: number; received?: number }
      >(
        "POST",
        UPLOADS_PATH,
        JSON.stringify({
          galleryId,
          name: file.name,
          size: file.size,
          type: file.type,
          lastModified: file.lastModified,
        }),
        "application/json",
      );
      if ((status === 200 || status === 201) && body.uploadId && body.chunkSize)
        return {
          kind: "started",
          uploadId: body.uploadId,
          chunkSize: body.chunkSize,
          received: body.received ?? 0,
        };
      if (status === 409 && body.duplicate)
        return { kind: "duplicate", message: body.error ?? "Déjà dans la galerie" };
      return { kind: "refused", message: refusal(status, body) };
    },
    async offset(uploadId) {
      const { status, body } = await request<{
        received?: number;
        size?: number;
        photoId?: string | null;
      }>("GET", `${uploadPath(uploadId)}?${query}`, null, null);
      if (status === 404) throw new RefusedError((body as ErrorBody).error ?? "Envoi introuvable.");
      if (status !== 200 || typeof body.received !== "number")
        throw new TransientError(`HTTP ${status}`);
      return { received: body.received, size: body.size ?? 0, photoId: body.photoId ?? null };
    },
    async send(uploadId, offset, piece, onProgress): Promise<ChunkAnswer> {
      const { status, body } = await request<ErrorBody & { photoId?: string }>(
        "POST",
        `${uploadPath(uploadId)}?${query}&offset=${offset}`,
        piece,
        "application/octet-stream",
        onProgress,
      );
      if (status === 201 && body.photoId) return { kind: "completed", photoId: body.photoId };
      if (status === 200 && typeof body.received === "number")
        return { kind: "received", received: body.received };
      if (status === 409 && typeof body.received === "number")
        return { kind: "conflict", received: body.received };
      // A piece cut short (400 from the server's side of a dropped connection) is sent again.
      if (status === 400) throw new TransientError(refusal(status, body));
      return { kind: "refused", message: refusal(status, body) };
    },
  };
}

const browserEnvironment: Environment = {
  wait: (ms, wake) =>
    new Promise<void>((resolve) => {
      const timer = window.setTimeout(resolve, ms);
      void wake.then(() => {
        window.clearTimeout(timer);
        resolve();
      });
    }),
  isOnline: () => navigator.onLine,
  now: () => performance.now(),
};

/** The same file as an interrupted upload: its name, size and date (what the server matches it by). */
const sameFile = (file: QueueFile, upload: InterruptedUpload) =>
  file.name === upload.name &&
  file.size === upload.size &&
  (upload.lastModified === null || file.lastModified === upload.lastModified);

const STATUS_TEXT: Record<QueueSnapshot["files"][number]["status"], string> = {
  waiting: "En attente",
  sending: "Envoi…",
  paused: "En pause",
  done: "Envoyée",
  duplicate: "Déjà dans la galerie",
  refused: "Refusée",
};

/**
 * The drop zone and file picker of a gallery's page: every photo dropped or chosen is sent by pieces (3
 * files at a time) with a progress bar each and one for the batch; an interrupted file pauses and goes on
 * by itself, and the same files dropped after a reload go on where they were. Without JavaScript, the same
 * zone is a plain form that sends one photo (`formAction`).
 */
export function GalleryUploader({
  galleryId,
  formAction,
  formMessage,
  interrupted = [],
  onBusyChange,
}: {
  galleryId: string;
  formAction: string;
  /** What became of the photo sent by the plain form (without JavaScript), if one was. */
  formMessage?: { ok: boolean; text: string } | null;
  /** The gallery's uploads that stopped before their last byte (named until chosen again). */
  interrupted?: InterruptedUpload[];
  /** Told when sending starts and ends (the page polls the photos' states meanwhile). */
  onBusyChange?: (busy: boolean) => void;
}) {
  const [snapshot, setSnapshot] = useState<QueueSnapshot | null>(null);
  const hydrated = useHydrated();
  const [dragging, setDragging] = useState(false);
  const queue = useRef<UploadQueue | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const busy = snapshot?.busy ?? false;

  useEffect(() => {
    // Progress events come many times a second per file: the list is drawn at most once a frame.
    let frame = 0;
    let latest: QueueSnapshot | null = null;
    const created = new UploadQueue(xhrTransport(galleryId), browserEnvironment, {
      concurrency: CONCURRENCY,
      onChange(next) {
        latest = next;
        frame ||= window.requestAnimationFrame(() => {
          frame = 0;
          setSnapshot(latest);
        });
      },
    });
    queue.current = created;
    const online = () => created.online();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      window.cancelAnimationFrame(frame);
    };
  }, [galleryId]);

  useEffect(() => {
    onBusyChange?.(busy);
    if (!busy) return;
    // Leaving the page stops the uploads: the browser asks first.
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy, onBusyChange]);

  const addFiles = (files: FileList | null) => {
    if (!files || files.length === 0 || !queue.current) return;
    // A file the server holds in part starts its bar where its upload will go on.
    queue.current.add(
      [...files],
      (file) => interrupted.find((upload) => sameFile(file, upload))?.received ?? 0,
    );
  };
  // Interrupted uploads not chosen again on this page yet.
  const waiting = interrupted.filter(
    (upload) =>
      !snapshot?.files.some((file) => file.name === upload.name && file.size === upload.size),
  );

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  return (
    <section
      aria-labelledby="envoi-titre"
      className="space-y-4 rounded-xl border border-border bg-white p-5"
    >
      <h2 id="envoi-titre" className="font-sans text-lg font-semibold">
        Ajouter des photos
      </h2>
      {waiting.length > 0 ? (
        <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
          <h3 className="font-semibold">Envois interrompus</h3>
          <p>
            {waiting.length > 1
              ? `${waiting.length} photos n'ont pas fini d'arriver.`
              : "Une photo n'a pas fini d'arriver."}{" "}
            Choisissez-les à nouveau (ou tout le dossier) : chacune reprend où elle s'était arrêtée,
            les photos déjà dans la galerie ne sont pas renvoyées.
          </p>
          <ul aria-label="Envois interrompus" className="space-y-1">
            {waiting.map((upload) => (
              <li key={`${upload.name}-${upload.size}`} className="flex justify-between gap-3">
                <span className="truncate">{upload.name}</span>
                <span className="shrink-0 tabular-nums">
                  {`${percentOf(upload.received, upload.size)} % reçus (${formatSize(upload.received)} sur ${formatSize(upload.size)})`}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {hydrated ? (
        // Dropping files is a pointer shortcut: the « Choisir des photos » button inside does the same
        // from the keyboard.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
        <div
          role="group"
          aria-label="Zone de dépôt des photos"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-8 text-center ${
            dragging ? "border-gold-dark bg-amber-50" : "border-stone-300"
          }`}
        >
          <p>
            Déposez vos photos ici (JPEG, HEIC ou PNG, {formatSize(MAX_GALLERY_PHOTO_BYTES)} au plus
            chacune)
          </p>
          <input
            ref={input}
            id={inputId}
            type="file"
            multiple
            accept={ACCEPTED_PHOTOS}
            className="sr-only"
            tabIndex={-1}
            onChange={(event) => {
              addFiles(event.currentTarget.files);
              event.currentTarget.value = "";
            }}
          />
          <Button type="button" variant="outline" onClick={() => input.current?.click()}>
            <Upload aria-hidden="true" />
            Choisir des photos
          </Button>
          <label htmlFor={inputId} className="sr-only">
            Photos à ajouter à la galerie
          </label>
        </div>
      ) : (
        // Without JavaScript: one photo at a time through a plain form.
        <form
          method="post"
          action={formAction}
          encType="multipart/form-data"
          className="flex flex-wrap items-end gap-3"
        >
          <div className="space-y-1">
            <label htmlFor={`${inputId}-formulaire`} className="block text-sm font-semibold">
              Photo à ajouter (JPEG, HEIC ou PNG, {formatSize(MAX_GALLERY_PHOTO_BYTES)} au plus)
            </label>
            <input
              id={`${inputId}-formulaire`}
              type="file"
              name="photo"
              accept={ACCEPTED_PHOTOS}
              required
            />
          </div>
          <Button type="submit">
            <Upload aria-hidden="true" />
            Envoyer la photo
          </Button>
          {formMessage ? (
            <p
              role={formMessage.ok ? "status" : "alert"}
              className={`w-full text-sm font-semibold ${formMessage.ok ? "text-green-800" : "text-red-800"}`}
            >
              {formMessage.text}
            </p>
          ) : null}
        </form>
      )}

      {snapshot && snapshot.files.length > 0 ? (
        <div className="space-y-3">
          <div className="space-y-1">
            <p id={`${inputId}-lot`} className="text-sm font-semibold tabular-nums">
              {batchText(snapshot)}
            </p>
            {snapshot.secondsLeft !== null ? (
              <p className="text-sm text-stone-700 tabular-nums">
                {timeLeftText(snapshot.secondsLeft)}
              </p>
            ) : null}
            {/* Announced once per photo sent, not at every percent. */}
            <p className="sr-only" role="status">
              {`${snapshot.sentFiles} ${snapshot.sentFiles > 1 ? "photos envoyées" : "photo envoyée"} sur ${snapshot.totalFiles}`}
            </p>
            <progress
              aria-labelledby={`${inputId}-lot`}
              aria-valuenow={snapshot.percent}
              max={100}
              value={snapshot.percent}
              className="block h-3 w-full overflow-hidden rounded-full accent-gold-dark"
            >
              {snapshot.percent} %
            </progress>
          </div>
          <ul className="space-y-2" aria-label="Photos envoyées">
            {snapshot.files.map((file) => {
              const percent =
                file.status === "done" || file.status === "duplicate"
                  ? 100
                  : percentOf(file.sent, file.size);
              return (
                <li key={file.id} className="grid gap-1 text-sm">
                  <div className="flex justify-between gap-3">
                    <span className="truncate">{file.name}</span>
                    <span
                      className={`shrink-0 tabular-nums ${file.status === "refused" ? "text-red-800" : ""}`}
                    >
                      {file.status === "sending" ? `${percent} %` : STATUS_TEXT[file.status]}
                    </span>
                  </div>
                  <progress
                    aria-label={file.name}
                    aria-valuenow={percent}
                    max={100}
                    value={percent}
                    className="block h-1.5 w-full overflow-hidden rounded-full accent-gold-dark"
                  >
                    {percent} %
                  </progress>
                  {file.message && file.status !== "duplicate" ? (
                    <p className={file.status === "refused" ? "text-red-800" : "text-stone-700"}>
                      {file.message}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
