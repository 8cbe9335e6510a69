import { Plus } from "lucide-react";
import { type ComponentProps, useState } from "react";
import { Field, Input, TableRows } from "~/components/admin/field";
import { RecordForm } from "~/components/admin/record-form";
import { Button } from "~/components/ui/button";
import { DAYS } from "~/content/schemas";
import type { FieldErrors } from "~/lib/forms";
import { DAY_LABELS } from "~/lib/hours-input";
import { slugify } from "~/lib/slug";
import {
  closureField,
  closureRowCount,
  hoursField,
  STUDIO_ADDRESS_FIELDS,
  STUDIO_CONTACT_FORM_FIELDS,
  STUDIO_FIELDS,
  STUDIO_SLUG_MAX,
  studioFieldOrder,
} from "~/lib/studio-form";
import type { ToastMessage } from "~/lib/toast";

const LABELS: Record<string, string> = {
  ...STUDIO_FIELDS.labels,
  ...STUDIO_ADDRESS_FIELDS.labels,
  ...STUDIO_CONTACT_FORM_FIELDS.labels,
};

/** What each field is called in the error summary. */
function fieldLabel(name: string): string {
  const day = DAYS.find((candidate) => hoursField(candidate) === name);
  if (day) return `Horaires du ${DAY_LABELS[day].toLowerCase()}`;
  const closure = /^closure-(from|to|label)-(\d+)$/.exec(name);
  if (closure) {
    const part = { from: "du", to: "au", label: "motif" }[closure[1] as "from" | "to" | "label"];
    return `Fermeture ${Number(closure[2]) + 1} (${part})`;
  }
  return LABELS[name] ?? (name === "form" ? "Studio" : name);
}

type StudioFormProps = {
  creating: boolean;
  values: Record<string, string>;
  errors: FieldErrors | undefined;
  alert: ToastMessage | undefined;
};

/** The studio's form: every field of a studio but its photo (the media library's). */
export function StudioForm({ creating, values, errors = {}, alert }: StudioFormProps) {
  const [slug, setSlug] = useState(values.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(!creating || Boolean(values.slug));
  const closureRows = closureRowCount(values);
  const order = studioFieldOrder(closureRows);

  const text = (name: string) => values[name] ?? "";
  const closureInput = (name: string, label: string, control: ComponentProps<"input">) => (
    <Field name={name} label={label} error={errors[name]}>
      {(props) => (
        <Input {...props} type="text" autoComplete="off" defaultValue={text(name)} {...control} />
      )}
    </Field>
  );

  return (
    <RecordForm
      summaryId="studio-erreurs"
      notSaved="Le studio n'est pas enregistré"
      order={order}
      errors={errors}
      labelOf={fieldLabel}
      alert={alert}
      saveLabel={creating ? "Créer le studio" : "Enregistrer"}
    >
      <input type="hidden" name="closureCount" value={closureRows} />

      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Le studio</legend>
        <TableRows
          table={STUDIO_FIELDS}
          values={values}
          errors={errors}
          fieldProps={{
            city: {
              control: {
                onChange: (event) => {
                  if (creating && !slugEdited) {
                    setSlug(
                      slugify(event.target.value).slice(0, STUDIO_SLUG_MAX).replace(/-+$/, ""),
                    );
                  }
                },
              },
            },
            slug: {
              spec: {
                ...STUDIO_FIELDS.fields.slug,
                hint: `Les pages du studio seront /studio-${slug || "…"} et /contact-studio-${slug || "…"}. Lettres minuscules, chiffres et tirets, ${STUDIO_SLUG_MAX} caractères au plus.${creating ? "" : " Si vous la changez, les anciennes adresses mèneront aux nouvelles."}`,
              },
              control: {
                value: slug,
                onChange: (event) => {
                  setSlug(event.target.value);
                  setSlugEdited(true);
                },
              },
            },
          }}
        />
        {creating ? (
          <p className="text-sm text-muted-foreground">
            Photo : un nouveau studio prend la photo du premier studio, jusqu'à ce que vous la
            remplaciez dans la médiathèque.
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">
            Photo : elle se remplace dans la médiathèque.
          </p>
        )}
      </fieldset>

      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Coordonnées</legend>
        <TableRows table={STUDIO_ADDRESS_FIELDS} values={values} errors={errors} />
      </fieldset>

      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Horaires d'ouverture</legend>
        <p className="text-sm text-muted-foreground">
          Écrivez les horaires comme d'habitude : « 9h–12h, 14h–18h » ou « 9h30-18h ». Une précision
          entre parenthèses après une plage : « 9h–12h (sans rendez-vous) ». Laissez vide ou écrivez
          « fermé » pour un jour de fermeture.
        </p>
        <div className="space-y-3">
          {DAYS.map((day) => (
            <Field
              key={day}
              name={hoursField(day)}
              label={DAY_LABELS[day]}
              error={errors[hoursField(day)]}
              className="sm:grid sm:grid-cols-[8rem_1fr] sm:items-baseline sm:gap-x-3 [&>label]:sm:mb-0"
            >
              {(props) => <Input {...props} maxLength={300} defaultValue={text(hoursField(day))} />}
            </Field>
          ))}
        </div>
      </fieldset>

      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Fermetures exceptionnelles</legend>
        <p className="text-sm text-muted-foreground">
          Vacances, jours fériés : du premier au dernier jour inclus (un seul jour : laissez « Au »
          vide). Videz une ligne pour la retirer.
        </p>
        <div className="space-y-4">
          {Array.from({ length: closureRows }, (_, index) => (
            <div
              key={index}
              role="group"
              aria-label={`Fermeture ${index + 1}`}
              className="grid gap-3 sm:grid-cols-[11rem_11rem_1fr]"
            >
              {closureInput(closureField("from", index), "Du", { type: "date" })}
              {closureInput(closureField("to", index), "Au", { type: "date" })}
              {closureInput(closureField("label", index), "Motif", { maxLength: 100 })}
            </div>
          ))}
        </div>
        <Button type="submit" name="intent" value="add-closure" variant="outline" size="sm">
          <Plus aria-hidden="true" />
          Ajouter une fermeture
        </Button>
      </fieldset>

      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Formulaire de contact</legend>
        <TableRows table={STUDIO_CONTACT_FORM_FIELDS} values={values} errors={errors} />
      </fieldset>
    </RecordForm>
  );
}
