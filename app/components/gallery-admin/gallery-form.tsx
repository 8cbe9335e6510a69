import { Save } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { ADMIN_FORM_ID, Field, Input, Select } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { ErrorSummary, fieldMeta, FormAlert, focusFirstInvalid } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/forms";
import {
  COVER_FOCUS,
  GALLERY_FIELD_ORDER,
  GALLERY_LIMITS,
  MAX_EXPIRY_MONTHS,
  MAX_PURGE_AFTER_DAYS,
} from "~/lib/gallery-schemas";
import type { ToastMessage } from "~/lib/toast";

const LABELS: Record<string, string> = {
  title: "Titre de la galerie",
  clientName: "Nom du client",
  clientEmail: "E-mail du client",
  studioId: "Studio",
  sessionDate: "Date de la séance",
  expiresOn: "Ouverte jusqu'au",
  purgeAfterDays: "Suppression après l'expiration",
  downloadsAllowed: "Téléchargement",
  watermark: "Filigrane",
  coverFocus: "Cadrage de la couverture",
  form: "Galerie",
};

type GalleryFormProps = {
  creating: boolean;
  values: Record<string, string>;
  errors: FieldErrors | undefined;
  alert: ToastMessage | undefined;
  studios: { id: string; name: string }[];
};

/** A gallery's fields: who it is for, until when, what the client may do. */
export function GalleryForm({ creating, values, errors = {}, alert, studios }: GalleryFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const form = useRef<HTMLFormElement>(null);
  const order = [...GALLERY_FIELD_ORDER] as string[];

  useEffect(() => {
    focusFirstInvalid(form.current, order, errors);
    // Only when an answer arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [errors]);

  const text = (name: string) => values[name] ?? "";
  const summaryItems = Object.keys(errors)
    .sort((a, b) => order.indexOf(a) - order.indexOf(b))
    .map((name) => ({
      field: fieldMeta(ADMIN_FORM_ID, name, errors[name]),
      label: LABELS[name] ?? name,
    }));

  return (
    <Form method="post" noValidate ref={form} className="space-y-6">
      <FormAlert message={alert} />
      <ErrorSummary
        id="galerie-erreurs"
        items={summaryItems}
        title={(count) =>
          count === 1
            ? "La galerie n'est pas enregistrée : un champ est à corriger."
            : `La galerie n'est pas enregistrée : ${count} champs sont à corriger.`
        }
      />
      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">La séance</legend>
        <Field
          name="title"
          label={LABELS.title}
          error={errors.title}
          hint="Le client le lit en haut de sa galerie et dans l'e-mail."
        >
          {(props) => (
            <Input
              {...props}
              required
              maxLength={GALLERY_LIMITS.title}
              defaultValue={text("title")}
              placeholder="Séance en famille au bord du lac"
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field name="clientName" label={LABELS.clientName} error={errors.clientName}>
            {(props) => (
              <Input
                {...props}
                required
                maxLength={GALLERY_LIMITS.clientName}
                autoComplete="off"
                defaultValue={text("clientName")}
              />
            )}
          </Field>
          <Field
            name="clientEmail"
            label={LABELS.clientEmail}
            error={errors.clientEmail}
            hint="Le lien et le code y sont envoyés."
          >
            {(props) => (
              <Input
                {...props}
                required
                type="email"
                maxLength={GALLERY_LIMITS.clientEmail}
                autoComplete="off"
                defaultValue={text("clientEmail")}
              />
            )}
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="studioId"
            label={LABELS.studioId}
            error={errors.studioId}
            hint="Ses coordonnées figurent dans l'e-mail ; les réponses du client lui arrivent."
          >
            {(props) => (
              <Select {...props} defaultValue={text("studioId")}>
                <option value="">Aucun (adresse du site)</option>
                {studios.map((studio) => (
                  <option key={studio.id} value={studio.id}>
                    {studio.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field
            name="sessionDate"
            label={`${LABELS.sessionDate} (facultative)`}
            error={errors.sessionDate}
          >
            {(props) => <Input {...props} type="date" defaultValue={text("sessionDate")} />}
          </Field>
        </div>
      </fieldset>
      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Accès du client</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="expiresOn"
            label={LABELS.expiresOn}
            error={errors.expiresOn}
            hint={`Inclus. ${MAX_EXPIRY_MONTHS} mois au plus.`}
          >
            {(props) => <Input {...props} required type="date" defaultValue={text("expiresOn")} />}
          </Field>
          <Field
            name="purgeAfterDays"
            label={`${LABELS.purgeAfterDays} (jours)`}
            error={errors.purgeAfterDays}
            hint={`Les photos et la galerie sont effacées ce nombre de jours après l'expiration (0 à ${MAX_PURGE_AFTER_DAYS}).`}
          >
            {(props) => (
              <Input
                {...props}
                required
                inputMode="numeric"
                maxLength={3}
                defaultValue={text("purgeAfterDays")}
              />
            )}
          </Field>
        </div>
        <div className="space-y-2">
          <label className="flex min-h-11 items-center gap-3 text-sm">
            <input
              type="checkbox"
              name="downloadsAllowed"
              id={`${ADMIN_FORM_ID}-downloadsAllowed`}
              defaultChecked={text("downloadsAllowed") === "on"}
              className="size-4"
            />
            Le client peut télécharger les photos (une à une ou toutes dans un ZIP)
          </label>
          <label className="flex min-h-11 items-center gap-3 text-sm">
            <input
              type="checkbox"
              name="watermark"
              id={`${ADMIN_FORM_ID}-watermark`}
              defaultChecked={text("watermark") === "on"}
              aria-describedby={`${ADMIN_FORM_ID}-watermark-aide`}
              className="size-4"
            />
            Filigrane (le nom du studio) sur les photos affichées
          </label>
          <p id={`${ADMIN_FORM_ID}-watermark-aide`} className="text-sm text-muted-foreground">
            À choisir avant d'envoyer l'invitation : un changement prépare de nouveau toutes les
            photos (quelques minutes pour des centaines), et chacune reste affichée comme avant
            jusque-là.
          </p>
        </div>
        {creating ? null : (
          <Field
            name="coverFocus"
            label={LABELS.coverFocus ?? "Cadrage de la couverture"}
            error={errors.coverFocus}
            hint="Ce qui reste visible de la photo de couverture quand son cadre la rogne (en haut d'une galerie : 4:5 sur un téléphone, 5:2 sur un écran large)."
          >
            {(props) => (
              <Select {...props} defaultValue={text("coverFocus") || "centre"}>
                {Object.entries(COVER_FOCUS).map(([value, { label }]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
      </fieldset>
      <Button type="submit" name="intent" value="save" disabled={busy}>
        <Save aria-hidden="true" />
        {creating ? "Créer la galerie" : "Enregistrer les réglages"}
      </Button>
    </Form>
  );
}
