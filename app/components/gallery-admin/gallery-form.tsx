import { Save } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { ADMIN_FORM_ID, TableRows } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { ErrorSummary, fieldMeta, FormAlert, focusFirstInvalid } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/forms";
import {
  GALLERY_ACCESS_FIELDS,
  GALLERY_FIELD_ORDER,
  GALLERY_LABELS,
  GALLERY_SALE_FIELDS,
  GALLERY_SESSION_FIELDS,
} from "~/lib/gallery-schemas";
import type { ToastMessage } from "~/lib/toast";

type GalleryFormProps = {
  creating: boolean;
  /** Said next to the number of included photos, before its hint (photos already paid for). */
  includedPhotosWarning?: string;
  values: Record<string, string>;
  errors: FieldErrors | undefined;
  alert: ToastMessage | undefined;
  studios: { id: string; name: string }[];
};

/** A gallery's fields: who it is for, until when, what the client may do. */
export function GalleryForm({
  creating,
  includedPhotosWarning,
  values,
  errors = {},
  alert,
  studios,
}: GalleryFormProps) {
  const included = GALLERY_SALE_FIELDS.fields.includedPhotos;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const form = useRef<HTMLFormElement>(null);
  const order: readonly string[] = GALLERY_FIELD_ORDER;
  const studioChoices = [
    { value: "", label: "Aucun (adresse du site)" },
    ...studios.map((studio) => ({ value: studio.id, label: studio.name })),
  ];

  useEffect(() => {
    focusFirstInvalid(form.current, order, errors);
    // Only when an answer arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [errors]);

  const summaryItems = Object.keys(errors)
    .sort((a, b) => order.indexOf(a) - order.indexOf(b))
    .map((name) => ({
      field: fieldMeta(ADMIN_FORM_ID, name, errors[name]),
      label: GALLERY_LABELS[name] ?? name,
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
        <TableRows
          table={GALLERY_SESSION_FIELDS}
          values={values}
          errors={errors}
          fieldProps={{ studioId: { choices: studioChoices } }}
        />
      </fieldset>
      <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
        <legend className="px-1 font-sans text-lg font-semibold">Accès du client</legend>
        <TableRows
          table={GALLERY_ACCESS_FIELDS}
          values={values}
          errors={errors}
          editing={!creating}
        />
      </fieldset>
      {creating ? null : (
        <fieldset className="space-y-4 rounded-xl border border-border bg-white p-6">
          <legend className="px-1 font-sans text-lg font-semibold">Photos supplémentaires</legend>
          <TableRows
            table={GALLERY_SALE_FIELDS}
            values={values}
            errors={errors}
            fieldProps={
              includedPhotosWarning
                ? {
                    includedPhotos: {
                      spec: { ...included, hint: `${includedPhotosWarning} ${included.hint}` },
                    },
                  }
                : {}
            }
          />
        </fieldset>
      )}
      <Button type="submit" name="intent" value="save" disabled={busy}>
        <Save aria-hidden="true" />
        {creating ? "Créer la galerie" : "Enregistrer les réglages"}
      </Button>
    </Form>
  );
}
