import { ImagePlus, X } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "~/components/ui/toaster";
import { Button } from "~/components/ui/button";
import { UploadError, uploadImage } from "./upload";

type ImageFieldProps = {
  /** Form field that carries the image's URL (`cover_image_url`, `seo_image_url`). */
  name: string;
  label: string;
  defaultValue?: string;
  error?: string;
};

/** Chooses an image, uploads it with a progress bar, previews it, and keeps its URL in a hidden field. */
export function ImageField({ name, label, defaultValue = "", error }: ImageFieldProps) {
  const id = useId();
  const [url, setUrl] = useState(defaultValue);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function upload(file: File) {
    setFailure(null);
    setProgress(0);
    try {
      setUrl(await uploadImage(file, setProgress));
    } catch (uploadError) {
      const reason =
        uploadError instanceof UploadError ? uploadError.message : "Erreur inattendue.";
      setFailure(reason);
      toast.error("Erreur", { description: `Impossible d'uploader l'image. ${reason}` });
    } finally {
      setProgress(null);
    }
  }

  const message = failure ? `Impossible d'uploader l'image : ${failure}` : error;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{label}</legend>
      <input type="hidden" name={name} value={url} />
      {url ? (
        <div className="relative w-fit">
          <img
            src={url}
            alt={`Aperçu : ${label.toLowerCase()}`}
            className="max-h-48 rounded-md border border-border object-contain"
          />
          <Button
            type="button"
            variant="light"
            size="sm"
            className="absolute top-2 right-2 shadow"
            onClick={() => setUrl("")}
          >
            <X aria-hidden="true" />
            Retirer<span className="sr-only"> l'image</span>
          </Button>
        </div>
      ) : null}
      <div>
        <label
          htmlFor={id}
          className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-stone-400 px-4 py-2 text-sm font-semibold hover:bg-black/5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-gold-dark"
        >
          <ImagePlus aria-hidden="true" className="size-4" />
          {url ? "Remplacer l'image" : "Choisir une image"}
          <input
            id={id}
            type="file"
            accept="image/*"
            className="sr-only"
            aria-describedby={message ? `${id}-erreur` : undefined}
            disabled={progress !== null}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) void upload(file);
            }}
          />
        </label>
      </div>
      {progress !== null ? (
        <div className="max-w-sm space-y-1">
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-gold-dark"
            max={100}
            value={Math.round(progress * 100)}
            aria-label={`Envoi de l'image : ${label.toLowerCase()}`}
          />
          <p className="text-xs text-muted-foreground" aria-live="polite">
            Envoi… {Math.round(progress * 100)} %
          </p>
        </div>
      ) : null}
      {message ? (
        <p id={`${id}-erreur`} role="alert" className="text-sm text-destructive">
          {message}
        </p>
      ) : null}
    </fieldset>
  );
}
