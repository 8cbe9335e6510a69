import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/media";
import { DeleteForm } from "~/components/admin/delete-form";
import { Field, Input } from "~/components/admin/field";
import { MediaThumbnail } from "~/components/admin/media-thumbnail";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import { ALT_MAX_LENGTH } from "~/lib/media-forms";

export { action, loader } from "./media.server";

export const meta: Route.MetaFunction = () => [{ title: "Photo - Administration" }];

export default function MediaEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { photo, usage } = loaderData;
  const answer = actionData && "status" in actionData ? actionData : undefined;
  useServerToast(answer?.toast);
  const errors = answer?.errors ?? {};
  const initial = {
    x: Number(answer?.values.focalX ?? photo.focal.x),
    y: Number(answer?.values.focalY ?? photo.focal.y),
  };
  const [focal, setFocal] = useState(initial);
  const navigation = useNavigation();
  const clamp = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/admin/medias" className="underline-offset-4 hover:underline">
            ← Photos
          </Link>
        </p>
        <h1 className="mt-1 text-3xl font-bold">Photo</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          {photo.demo
            ? "Photo de démonstration"
            : `${photo.width} × ${photo.height} px${photo.originalName ? ` · ${photo.originalName}` : ""}`}
        </p>
      </div>
      <FormAlert message={answer?.toast} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="space-y-2">
          <div className="relative w-full">
            <MediaThumbnail
              picture={photo.picture}
              alt={photo.alt}
              colour={photo.colour}
              sizes="(min-width: 1024px) 40vw, 100vw"
              className="aspect-auto"
            />
            <button
              type="button"
              // The sliders are the keyboard's way; clicking the photo is the pointer's shortcut.
              tabIndex={-1}
              aria-label="Placer le point d'intérêt à l'endroit cliqué"
              className="absolute inset-0 cursor-crosshair"
              onClick={(event) => {
                const box = event.currentTarget.getBoundingClientRect();
                setFocal({
                  x: clamp(((event.clientX - box.left) / box.width) * 100),
                  y: clamp(((event.clientY - box.top) / box.height) * 100),
                });
              }}
            >
              <span
                aria-hidden="true"
                className="pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-gold-dark/70 shadow"
                style={{ left: `${focal.x}%`, top: `${focal.y}%` }}
              />
            </button>
          </div>
          <section aria-labelledby="utilisation" className="text-sm">
            <h2 id="utilisation" className="font-sans font-semibold">
              Où elle est utilisée
            </h2>
            {usage.length > 0 ? (
              <ul className="mt-1 list-disc pl-5">
                {usage.map((label) => (
                  <li key={label}>{label}</li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-muted-foreground">Nulle part pour le moment.</p>
            )}
          </section>
        </div>
        <Form
          method="post"
          noValidate
          className="space-y-4 rounded-xl border border-border bg-white p-6"
        >
          <Field
            name="alt"
            label="Texte alternatif (obligatoire)"
            error={errors.alt}
            hint="Ce que montre la photo, en une phrase : il est lu aux personnes aveugles et aux moteurs de recherche."
          >
            {(props) => (
              <Input
                {...props}
                defaultValue={answer?.values.alt ?? photo.alt}
                maxLength={ALT_MAX_LENGTH}
                required
                aria-required="true"
              />
            )}
          </Field>
          <fieldset className="space-y-3">
            <legend className="text-sm font-semibold">Point d'intérêt</legend>
            <p id="point-aide" className="text-sm text-muted-foreground">
              Cliquez sur le sujet de la photo, ou réglez-le ci-dessous : les pages qui recadrent la
              photo le gardent visible.
            </p>
            {(["x", "y"] as const).map((axis) => {
              const name = axis === "x" ? "focalX" : "focalY";
              return (
                <Field
                  key={axis}
                  name={name}
                  label={`${axis === "x" ? "Position horizontale" : "Position verticale"} (${focal[axis]} %)`}
                  error={errors[name]}
                >
                  {(props) => (
                    <input
                      {...props}
                      type="range"
                      min={0}
                      max={100}
                      step={1}
                      value={focal[axis]}
                      aria-valuetext={`${focal[axis]} % depuis ${axis === "x" ? "la gauche" : "le haut"}`}
                      onChange={(event) =>
                        setFocal({ ...focal, [axis]: Number(event.target.value) })
                      }
                      className="w-full accent-gold-dark"
                    />
                  )}
                </Field>
              );
            })}
          </fieldset>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="submit" disabled={navigation.state === "submitting"}>
              Enregistrer
            </Button>
          </div>
        </Form>
      </div>
      <div>
        {usage.length > 0 ? (
          <p className="text-sm">
            Utilisée : {usage.join(", ")}. Remplacez-la dans ces emplacements pour pouvoir la
            supprimer.
          </p>
        ) : (
          <DeleteForm
            id={photo.id}
            confirmation="Supprimer cette photo de la médiathèque ?"
            itemLabel={photo.alt}
          />
        )}
      </div>
    </div>
  );
}
