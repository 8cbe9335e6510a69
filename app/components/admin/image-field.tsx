import { ImagePlus, X } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { focalPosition, type FocalPoint } from "~/lib/image-variants";
import { uploadStatusText, useImageUpload } from "./upload";

type ImageFieldProps = {
  /** Form field that carries the image's URL (`cover_image_url`, `seo_image_url`). */
  name: string;
  label: string;
  defaultValue?: string;
  error?: string;
  /** Called when the image or its focal point changes (the form autosaves). */
  onChange?: () => void;
  /** A cover: the owner places its subject, sent as `<names>` in % (x, y). */
  focalPoint?: { names: { x: string; y: string }; defaultValue: FocalPoint };
};

/** Chooses an image, uploads it with its progress, previews it, and keeps its URL in a hidden field. */
export function ImageField({
  name,
  label,
  defaultValue = "",
  error,
  onChange,
  focalPoint,
}: ImageFieldProps) {
  const id = useId();
  const [url, setUrl] = useState(defaultValue);
  const [focal, setFocal] = useState<FocalPoint>(focalPoint?.defaultValue ?? { x: 50, y: 50 });
  const { status, busy, upload } = useImageUpload();

  async function choose(file: File) {
    const uploaded = await upload(file);
    if (uploaded) {
      setUrl(uploaded);
      setFocal({ x: 50, y: 50 });
      onChange?.();
    }
  }

  function moveFocal(next: FocalPoint) {
    const clamp = (value: number) => Math.min(100, Math.max(0, Math.round(value)));
    setFocal({ x: clamp(next.x), y: clamp(next.y) });
    onChange?.();
  }

  const failure = status?.state === "failed" ? uploadStatusText(status) : null;
  const message = failure ?? error;
  const progress = status && status.state !== "failed" ? uploadStatusText(status) : "";
  const lowerLabel = label.toLowerCase();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{label}</legend>
      <input type="hidden" name={name} value={url} />
      {focalPoint && !url ? (
        <>
          <input type="hidden" name={focalPoint.names.x} value={focal.x} />
          <input type="hidden" name={focalPoint.names.y} value={focal.y} />
        </>
      ) : null}
      {url ? (
        <div className="flex flex-wrap items-start gap-4">
          <div className="relative w-fit">
            {focalPoint ? (
              <button
                type="button"
                // The sliders below are the keyboard's way; this is the pointer's shortcut.
                tabIndex={-1}
                aria-label={`Placer le point d'intérêt de l'${lowerLabel} à l'endroit cliqué`}
                className="relative block cursor-crosshair"
                onClick={(event) => {
                  const box = event.currentTarget.getBoundingClientRect();
                  moveFocal({
                    x: ((event.clientX - box.left) / box.width) * 100,
                    y: ((event.clientY - box.top) / box.height) * 100,
                  });
                }}
              >
                <img
                  src={url}
                  alt={`Aperçu : ${lowerLabel}`}
                  className="block max-h-48 rounded-md border border-border object-contain"
                />
                <span
                  aria-hidden="true"
                  data-focal-marker=""
                  className="pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-gold-dark/70 shadow"
                  style={{ left: `${focal.x}%`, top: `${focal.y}%` }}
                />
              </button>
            ) : (
              <img
                src={url}
                alt={`Aperçu : ${lowerLabel}`}
                className="max-h-48 rounded-md border border-border object-contain"
              />
            )}
            <Button
              type="button"
              variant="light"
              size="sm"
              className="absolute top-2 right-2 shadow"
              onClick={() => {
                setUrl("");
                onChange?.();
              }}
            >
              <X aria-hidden="true" />
              Retirer<span className="sr-only"> l'image</span>
            </Button>
          </div>
          {focalPoint ? (
            <div className="min-w-56 flex-1 space-y-3 text-sm">
              <p id={`${id}-point`} className="text-muted-foreground">
                Point d'intérêt : cliquez sur le sujet de la photo, ou réglez-le ci-dessous. Les
                bannières et les vignettes recadrées le gardent visible.
              </p>
              {(["x", "y"] as const).map((axis) => (
                <div key={axis} className="space-y-1">
                  <label htmlFor={`${id}-${axis}`} className="block font-medium">
                    {axis === "x" ? "Position horizontale" : "Position verticale"} ({focal[axis]} %)
                  </label>
                  <input
                    id={`${id}-${axis}`}
                    type="range"
                    name={focalPoint.names[axis]}
                    min={0}
                    max={100}
                    step={1}
                    value={focal[axis]}
                    aria-describedby={`${id}-point`}
                    aria-valuetext={`${focal[axis]} % depuis ${axis === "x" ? "la gauche" : "le haut"}`}
                    onChange={(event) =>
                      moveFocal({ ...focal, [axis]: Number(event.target.value) })
                    }
                    className="w-full accent-gold-dark"
                  />
                </div>
              ))}
              <div>
                <p className="font-medium">Aperçu du recadrage (bannière)</p>
                <img
                  src={url}
                  alt=""
                  className="mt-1 aspect-[1200/630] w-56 rounded-md border border-border object-cover"
                  style={{ objectPosition: focalPosition(focal) }}
                />
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
      <div>
        <label
          htmlFor={id}
          className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-stone-400 px-4 py-2 text-sm font-semibold hover:bg-black/5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-gold-dark"
        >
          <ImagePlus aria-hidden="true" className="size-4" />
          {url ? "Remplacer l'image" : "Choisir une image"}
          <input
            id={id}
            type="file"
            accept="image/*"
            className="sr-only"
            aria-describedby={message ? `${id}-erreur` : undefined}
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) void choose(file);
            }}
          />
        </label>
      </div>
      <p role="status" className="min-h-4 text-xs text-muted-foreground">
        {progress}
      </p>
      {message ? (
        <p id={`${id}-erreur`} role="alert" className="text-sm text-destructive">
          {message}
        </p>
      ) : null}
    </fieldset>
  );
}
