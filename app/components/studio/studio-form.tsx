import { Plus } from "lucide-react";
import { useState } from "react";
import { ADMIN_FORM_ID, Field, Input, Select, Textarea } from "~/components/admin/field";
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
  STUDIO_SLUG_MAX,
  studioFieldOrder,
  TELEPHONE_CHOICES,
} from "~/lib/studio-form";
import type { ToastMessage } from "~/lib/toast";

/** What each field is called in the error summary. */
function fieldLabel(name: string): string {
  const labels: Record<string, string> = {
    name: "Nom du studio",
    city: "Ville",
    slug: "Adresse des pages",
    description: "Courte description",
    longDescription: "Description détaillée",
    street: "Rue",
    postalCode: "Code postal",
    addressCity: "Commune",
    phone: "Téléphone",
    email: "E-mail",
    bookingUrl: "Lien de réservation",
    onlineBooking: "Réservation en ligne",
    giftVoucherUrl: "Lien des bons cadeaux",
    latitude: "Latitude",
    longitude: "Longitude",
    shootingTypes: "Types de séance",
    sources: "Sources",
    telephone: "Téléphone dans le formulaire",
    sourceRequired: "Source obligatoire",
    form: "Studio",
  };
  const day = DAYS.find((candidate) => hoursField(candidate) === name);
  if (day) return `Horaires du ${DAY_LABELS[day].toLowerCase()}`;
  const closure = /^closure-(from|to|label)-(\d+)$/.exec(name);
  if (closure) {
    const part = { from: "du", to: "au", label: "motif" }[closure[1] as "from" | "to" | "label"];
    return `Fermeture ${Number(closure[2]) + 1} (${part})`;
  }
  return labels[name] ?? name;
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
  const field = (
    name: string,
    label: string,
    options: {
      hint?: string;
      className?: string;
      multiline?: number;
      maxLength?: number;
      type?: string;
      inputMode?: "numeric" | "decimal" | "tel";
      autoComplete?: string;
    } = {},
  ) => (
    <Field
      name={name}
      label={label}
      error={errors[name]}
      hint={options.hint}
      className={options.className}
    >
      {(props) =>
        options.multiline ? (
          <Textarea
            {...props}
            rows={options.multiline}
            maxLength={options.maxLength}
            defaultValue={text(name)}
          />
        ) : (
          <Input
            {...props}
            type={options.type ?? "text"}
            inputMode={options.inputMode}
            autoComplete={options.autoComplete ?? "off"}
            maxLength={options.maxLength}
            defaultValue={text(name)}
          />
        )
      }
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
        <div className="grid gap-4 sm:grid-cols-2">
          <Field name="name" label="Nom du studio" error={errors.name}>
            {(props) => (
              <Input
                {...props}
                required
                maxLength={100}
                defaultValue={text("name")}
                placeholder="Studio de Tulle"
              />
            )}
          </Field>
          <Field
            name="city"
            label="Ville"
            error={errors.city}
            hint="Le nom du studio dans les menus et les titres."
          >
            {(props) => (
              <Input
                {...props}
                required
                maxLength={100}
                defaultValue={text("city")}
                onChange={(event) => {
                  if (creating && !slugEdited) {
                    setSlug(
                      slugify(event.target.value).slice(0, STUDIO_SLUG_MAX).replace(/-+$/, ""),
                    );
                  }
                }}
              />
            )}
          </Field>
        </div>
        <Field
          name="slug"
          label="Adresse des pages"
          error={errors.slug}
          hint={`Les pages du studio seront /studio-${slug || "…"} et /contact-studio-${slug || "…"}. Lettres minuscules, chiffres et tirets, ${STUDIO_SLUG_MAX} caractères au plus.${creating ? "" : " Si vous la changez, les anciennes adresses mèneront aux nouvelles."}`}
        >
          {(props) => (
            <Input
              {...props}
              required
              maxLength={STUDIO_SLUG_MAX}
              value={slug}
              autoComplete="off"
              onChange={(event) => {
                setSlug(event.target.value);
                setSlugEdited(true);
              }}
            />
          )}
        </Field>
        {field("description", "Courte description", {
          multiline: 3,
          maxLength: 500,
          hint: "Sur la carte du studio et dans les résultats de recherche.",
        })}
        {field("longDescription", "Description détaillée (facultative)", {
          multiline: 6,
          maxLength: 3000,
          hint: "Sur la page du studio.",
        })}
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
        {field("street", "Rue", { maxLength: 200, autoComplete: "off" })}
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          {field("postalCode", "Code postal", { maxLength: 10, inputMode: "numeric" })}
          {field("addressCity", "Commune", {
            maxLength: 100,
            hint: "Celle de l'adresse postale (par exemple Ambazac pour le studio de Limoges).",
          })}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {field("phone", "Téléphone", { maxLength: 30, type: "tel", inputMode: "tel" })}
          {field("email", "E-mail", {
            maxLength: 255,
            type: "email",
            hint: "Les messages du formulaire de contact du studio y sont envoyés.",
          })}
        </div>
        {field("bookingUrl", "Lien de réservation (facultatif)", {
          maxLength: 500,
          type: "url",
          hint: "Adresse complète commençant par https://",
        })}
        <div className="flex items-start gap-3">
          <input
            id={`${ADMIN_FORM_ID}-onlineBooking`}
            type="checkbox"
            name="onlineBooking"
            aria-describedby={
              errors.onlineBooking
                ? `${ADMIN_FORM_ID}-onlineBooking-erreur ${ADMIN_FORM_ID}-onlineBooking-aide`
                : `${ADMIN_FORM_ID}-onlineBooking-aide`
            }
            aria-invalid={errors.onlineBooking ? true : undefined}
            className="mt-0.5 size-5 accent-stone-800"
            defaultChecked={text("onlineBooking") === "on"}
          />
          <div>
            <label htmlFor={`${ADMIN_FORM_ID}-onlineBooking`} className="text-sm font-semibold">
              Réservation en ligne
            </label>
            <p id={`${ADMIN_FORM_ID}-onlineBooking-aide`} className="text-sm text-muted-foreground">
              Les visiteurs choisissent leur séance et leur créneau directement sur le site ; sinon,
              le bouton « Réserver » du studio mène au lien de réservation ci-dessus. Il faut
              d'abord une séance proposée dans ce studio et un photographe qui y travaille.
            </p>
            {errors.onlineBooking ? (
              <p
                id={`${ADMIN_FORM_ID}-onlineBooking-erreur`}
                className="mt-1 text-sm font-medium text-red-700"
              >
                {errors.onlineBooking}
              </p>
            ) : null}
          </div>
        </div>
        {field("giftVoucherUrl", "Lien des bons cadeaux (facultatif)", {
          maxLength: 500,
          type: "url",
          hint: "Adresse complète commençant par https://",
        })}
        <div className="grid gap-4 sm:grid-cols-2">
          {field("latitude", "Latitude (facultative)", {
            maxLength: 20,
            inputMode: "decimal",
            hint: "Pour la carte, par exemple 45,5477.",
          })}
          {field("longitude", "Longitude (facultative)", {
            maxLength: 20,
            inputMode: "decimal",
            hint: "Par exemple 2,3094.",
          })}
        </div>
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
              {field(closureField("from", index), "Du", { type: "date" })}
              {field(closureField("to", index), "Au", { type: "date" })}
              {field(closureField("label", index), "Motif", { maxLength: 100 })}
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
        <div className="grid gap-4 sm:grid-cols-2">
          {field("shootingTypes", "Types de séance", {
            multiline: 8,
            hint: "Un type par ligne, dans l'ordre de la liste.",
          })}
          {field("sources", "Sources (« Comment nous avez-vous connus ? »)", {
            multiline: 8,
            hint: "Une source par ligne. Laissez vide pour ne pas poser la question.",
          })}
        </div>
        <Field name="telephone" label="Téléphone dans le formulaire" error={errors.telephone}>
          {(props) => (
            <Select {...props} defaultValue={text("telephone") || "required"}>
              {Object.entries(TELEPHONE_CHOICES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="flex items-center gap-3">
          <input
            id={`${ADMIN_FORM_ID}-sourceRequired`}
            type="checkbox"
            name="sourceRequired"
            className="size-5 accent-stone-800"
            defaultChecked={text("sourceRequired") === "on"}
          />
          <label htmlFor={`${ADMIN_FORM_ID}-sourceRequired`} className="text-sm font-semibold">
            La source est obligatoire
          </label>
        </div>
      </fieldset>
    </RecordForm>
  );
}
