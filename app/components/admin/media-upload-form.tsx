import { ImagePlus } from "lucide-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Field, Input } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import type { FieldErrors } from "~/lib/forms";
import { formatSize } from "~/lib/sizes";
import {
  ALT_MAX_LENGTH,
  mediaDetailsSchema,
  UPLOAD_PAGE_PATH,
  UPLOAD_XHR_PATH,
  type UploadAnswer,
} from "~/lib/media-forms";
import { MAX_IMAGE_BYTES, TOO_LARGE_IMAGE } from "./upload";

type Progress = { state: "sending"; percent: number } | { state: "processing" };

/** Sends the form with XMLHttpRequest, whose upload events give the progress that fetch() cannot. */
function send(form: FormData, onProgress: (progress: Progress) => void): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", UPLOAD_XHR_PATH);
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable) return;
      onProgress(
        event.loaded >= event.total
          ? { state: "processing" }
          : { state: "sending", percent: Math.round((event.loaded / event.total) * 100) },
      );
    });
    request.upload.addEventListener("load", () => onProgress({ state: "processing" }));
    request.addEventListener("load", () => {
      const body = request.response as UploadAnswer | null;
      if (body && typeof body === "object" && "ok" in body) resolve(body);
      else reject(new Error(`Erreur du serveur (${request.status}).`));
    });
    request.addEventListener("error", () => reject(new Error("La connexion a été interrompue.")));
    request.send(form);
  });
}

/**
 * The media library's upload: a photo and its alternative text (required). Without JavaScript it is a plain
 * multipart form posted to the upload page; with it, the photo is sent with a progress bar and the page moves
 * on once the server has stored it (the photo's page to place its focal point, or back to the slot).
 */
export function MediaUploadForm({
  slot,
  answer,
  headingId,
}: {
  /** Upload for this slot: the new photo fills it at once. */
  slot?: string;
  answer?: { values: Record<string, string>; errors?: FieldErrors };
  headingId?: string;
}) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [clientAnswer, setClientAnswer] = useState<typeof answer | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const current = clientAnswer ?? answer;
  const errors = current?.errors ?? {};
  const busy = progress !== null;

  async function submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const file = data.get("file");
    const values = { alt: String(data.get("alt") ?? "") };
    const found: FieldErrors = {};
    const parsed = mediaDetailsSchema.safeParse({ alt: values.alt });
    if (!parsed.success) found.alt = parsed.error.issues[0]?.message;
    if (!(file instanceof File) || file.size === 0)
      found.file = "Choisissez une photo à téléverser.";
    else if (file.size > MAX_IMAGE_BYTES) found.file = TOO_LARGE_IMAGE;
    if (Object.keys(found).length > 0) {
      setClientAnswer({ values, errors: found });
      form.querySelector<HTMLElement>(found.file ? "[name=file]" : "[name=alt]")?.focus();
      return;
    }
    setClientAnswer(null);
    setProgress({ state: "sending", percent: 0 });
    try {
      const result = await send(data, setProgress);
      if (result.ok) {
        toast.success(result.message);
        form.reset();
        await navigate(result.location);
      } else {
        setClientAnswer({ values: result.values, errors: result.errors });
        form.querySelector<HTMLElement>(result.errors.file ? "[name=file]" : "[name=alt]")?.focus();
      }
    } catch (error) {
      setClientAnswer({
        values,
        errors: { file: error instanceof Error ? error.message : "Erreur inattendue." },
      });
    } finally {
      setProgress(null);
    }
  }

  return (
    <form
      ref={formRef}
      method="post"
      action={UPLOAD_PAGE_PATH}
      encType="multipart/form-data"
      noValidate
      aria-labelledby={headingId}
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) void submit(event.currentTarget);
      }}
    >
      {slot ? <input type="hidden" name="emplacement" value={slot} /> : null}
      <Field
        name="file"
        label="Photo"
        error={errors.file}
        hint={`JPEG, PNG, WebP, AVIF ou GIF, ${formatSize(MAX_IMAGE_BYTES)} au plus. La photo est redimensionnée et ses données de localisation (GPS) sont retirées.`}
      >
        {(props) => (
          <input
            {...props}
            type="file"
            accept="image/*"
            disabled={busy}
            className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-full file:border file:border-stone-400 file:bg-white file:px-4 file:font-semibold"
          />
        )}
      </Field>
      <Field
        name="alt"
        label="Texte alternatif (obligatoire)"
        error={errors.alt}
        hint="Ce que montre la photo, en une phrase : il est lu aux personnes aveugles et aux moteurs de recherche."
      >
        {(props) => (
          <Input
            {...props}
            key={current?.values.alt ?? ""}
            defaultValue={current?.values.alt ?? ""}
            maxLength={ALT_MAX_LENGTH}
            required
            aria-required="true"
          />
        )}
      </Field>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={busy}>
          <ImagePlus aria-hidden="true" />
          {busy ? "Envoi en cours…" : "Téléverser la photo"}
        </Button>
        {progress ? (
          <div className="min-w-56 flex-1">
            <label htmlFor="televersement-progression" className="block text-sm font-medium">
              {progress.state === "sending"
                ? `Envoi de la photo… ${progress.percent} %`
                : "Photo reçue, préparation des différentes tailles…"}
            </label>
            <progress
              id="televersement-progression"
              className="mt-1 h-2 w-full accent-gold-dark"
              max={100}
              value={progress.state === "sending" ? progress.percent : undefined}
            />
          </div>
        ) : null}
      </div>
    </form>
  );
}
