import { ArrowDown, ArrowUp, Eye, Plus, Trash2 } from "lucide-react";
import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { useNavigation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import {
  type ControlProps,
  Field,
  fieldMeta,
  FormAlert,
  Input,
  Select,
  Textarea,
} from "~/components/ui/field";
import { ICON_LABELS, listIntent } from "~/lib/document-forms";
import { FieldRows } from "~/components/admin/field";
import { inputLabel, tableRows, type FieldSpecs } from "~/lib/field-table";
import { ICON_NAMES } from "~/content/schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

/*
 * The admin's document forms (identity, legal details, prices, gendarmerie offer…): fields named by path
 * (`tabs.0.cards.3.price`), drawn from the values the loader or the last answer gives, and buttons for
 * lists that work without JavaScript (each posts its `intent`, the server answers the form changed).
 */

type FormState = { formId: string; values: Record<string, string>; errors: FieldErrors };
const FormContext = createContext<FormState>({ formId: "", values: {}, errors: {} });

/** The surrounding form's id, values and errors. */
export function useDocumentForm(): FormState {
  return useContext(FormContext);
}

/** The value and the metadata of the field `name` in the surrounding form. */
export function useFormField(name: string, required = false) {
  const { formId, values, errors } = useContext(FormContext);
  return { value: values[name] ?? "", field: fieldMeta(formId, name, errors[name], required) };
}

export type PreviewTarget = { path: string; label: string };

type DocumentFormProps = {
  formId: string;
  /** Which document this form saves (pages with two forms tell them apart). */
  document: string;
  values: Record<string, string>;
  errors: FieldErrors;
  /** Changes with each answer: the fields are drawn again from `values`. */
  nonce: string;
  message?: ToastMessage | undefined;
  previews: readonly PreviewTarget[];
  saveLabel?: string;
  title?: string;
  children: ReactNode;
};

export function DocumentForm({
  formId,
  document,
  values,
  errors,
  nonce,
  message,
  previews,
  saveLabel = "Enregistrer",
  title,
  children,
}: DocumentFormProps) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("document") === document;
  const form = useRef<HTMLFormElement>(null);

  // After a refusal, the cursor goes to the first field to correct.
  useEffect(() => {
    const first = Object.keys(errors)[0];
    if (!first || !form.current) return;
    const control = form.current.elements.namedItem(first);
    if (control instanceof HTMLElement) control.focus();
  }, [errors, nonce]);

  return (
    <FormContext.Provider value={{ formId, values, errors }}>
      <form
        key={nonce}
        ref={form}
        method="post"
        noValidate
        aria-label={title}
        className="space-y-6"
        onSubmit={(event) => {
          const submitter = (event.nativeEvent as SubmitEvent).submitter;
          // « Prévisualiser » opens the page in a new tab: the browser posts it there itself.
          if (submitter?.getAttribute("formtarget") === "_blank") return;
          event.preventDefault();
          void submit(submitter instanceof HTMLButtonElement ? submitter : event.currentTarget, {
            method: "post",
            preventScrollReset: true,
          });
        }}
      >
        {/* The Enter key saves (the first submit button of a form is the one it presses). */}
        <button
          type="submit"
          name="intent"
          value="save"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        />
        <input type="hidden" name="document" value={document} />
        <FormAlert message={message} />
        {children}
        <div className="sticky bottom-0 z-10 flex flex-wrap items-center justify-end gap-2 rounded-xl border border-border bg-white/95 p-3 shadow-sm">
          {previews.map((preview) => (
            <Button
              key={preview.path}
              type="submit"
              name="intent"
              value={`preview:${preview.path}`}
              formTarget="_blank"
              variant="outline"
            >
              <Eye aria-hidden="true" />
              {preview.label}
              <span className="sr-only"> (nouvel onglet)</span>
            </Button>
          ))}
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {busy ? "Enregistrement..." : saveLabel}
          </Button>
        </div>
      </form>
    </FormContext.Provider>
  );
}

type TextFieldProps = {
  name: string;
  label: string;
  hint?: ReactNode;
  required?: boolean;
  maxLength?: number;
  type?: "text" | "email" | "tel" | "url" | "date";
  inputMode?: "text" | "decimal";
  list?: string;
  className?: string;
  placeholder?: string;
};

export function TextField({
  name,
  label,
  hint,
  required = false,
  type = "text",
  className,
  ...rest
}: TextFieldProps) {
  const { value, field } = useFormField(name, required);
  return (
    <Field field={field} label={label} description={hint} className={className}>
      {(props) => <Input {...props} {...rest} type={type} defaultValue={value} />}
    </Field>
  );
}

export function TextAreaField({
  name,
  label,
  hint,
  required = false,
  rows = 3,
  className,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  required?: boolean;
  rows?: number;
  className?: string;
}) {
  const { value, field } = useFormField(name, required);
  return (
    <Field field={field} label={label} description={hint} className={className}>
      {(props) => <Textarea {...props} rows={rows} defaultValue={value} />}
    </Field>
  );
}

export function PriceField({
  name,
  label = "Prix",
  className,
}: {
  name: string;
  label?: string;
  className?: string;
}) {
  return (
    <TextField
      name={name}
      label={label}
      required
      className={className}
      hint="Par exemple 129 €, à partir de 990 € ou Sur devis."
    />
  );
}

export function FeaturesField({ name, label = "Points forts" }: { name: string; label?: string }) {
  return (
    <TextAreaField name={name} label={label} rows={4} hint="Un point par ligne (12 au plus)." />
  );
}

export function SelectField({
  name,
  label,
  options,
  required = false,
  hint,
  className,
}: {
  name: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  required?: boolean;
  hint?: ReactNode;
  className?: string;
}) {
  const { value, field } = useFormField(name, required);
  const known = options.some((option) => option.value === value);
  return (
    <Field field={field} label={label} description={hint} className={className}>
      {(props: ControlProps) => (
        <Select {...props} defaultValue={known ? value : ""}>
          {known ? null : <option value="">Choisissez…</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

const ICON_OPTIONS = ICON_NAMES.map((name) => ({ value: name, label: ICON_LABELS[name] })).sort(
  (a, b) => a.label.localeCompare(b.label, "fr"),
);

export function IconField({ name, className }: { name: string; className?: string }) {
  return (
    <SelectField name={name} label="Icône" options={ICON_OPTIONS} required className={className} />
  );
}

/** A photo of the library as a list entry: its id and its alternative text. */
export type PhotoOption = { value: string; label: string };

/** The library's photos as a select's options, described by their alternative text. */
export function photoOptions(
  photos: ReadonlyArray<{ id: string; alt: string; demo: boolean }>,
): PhotoOption[] {
  return photos.map((photo) => ({
    value: photo.id,
    label: photo.demo ? `${photo.alt} (démonstration)` : photo.alt,
  }));
}

/** The photo of a list's item, chosen among the library's photos (a new item starts without one). */
export function PhotoField({
  name,
  photos,
  className,
}: {
  name: string;
  photos: readonly PhotoOption[];
  className?: string;
}) {
  return (
    <SelectField
      name={name}
      label="Photo"
      required
      options={photos}
      className={className}
      hint="Une photo de la médiathèque, décrite par son texte alternatif. Pour en ajouter une : Photos › Téléverser."
    />
  );
}

export function CheckboxField({
  name,
  label,
  hint,
}: {
  name: string;
  label: string;
  hint?: string;
}) {
  const { value, field } = useFormField(name);
  return (
    <div>
      <div className="flex items-center gap-2">
        <input
          type="checkbox"
          id={field.id}
          name={name}
          defaultChecked={value === "on"}
          aria-describedby={hint ? field.descriptionId : undefined}
          className="size-5 accent-stone-800"
        />
        <label htmlFor={field.id} className="text-sm font-semibold">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={field.descriptionId} className="mt-1 text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** An item of a list the owner edits: its heading, and buttons to move it or remove it. */
/** The intents of an item's buttons: a document list's by its path, or a form's own. */
type ItemIntents = { up: string; down: string; remove: string };

export function ListItem({
  index,
  length,
  heading,
  legend = heading,
  removable = true,
  children,
  ...list
}: {
  index: number;
  length: number;
  /** What the item is called (the buttons' names for a screen reader: « Monter « Séance Naissance » »). */
  heading: string;
  /** The fieldset's visible title, when it is not the heading (« Question 2 »). */
  legend?: string;
  removable?: boolean;
  children: ReactNode;
} & (
  | {
      /** The list's path (`tabs.0.cards`). */
      path: string;
    }
  | { intents: ItemIntents }
)) {
  const intents: ItemIntents =
    "intents" in list
      ? list.intents
      : {
          up: listIntent.up(`${list.path}.${index}`),
          down: listIntent.down(`${list.path}.${index}`),
          remove: listIntent.remove(`${list.path}.${index}`),
        };
  return (
    <fieldset className="rounded-lg border border-border p-4">
      <legend className="px-1 font-sans text-base font-semibold">{legend}</legend>
      <div className="space-y-4">{children}</div>
      <div className="mt-4 flex flex-wrap gap-2 border-t border-border pt-3">
        <Button
          type="submit"
          name="intent"
          value={intents.up}
          variant="ghost"
          size="sm"
          disabled={index === 0}
        >
          <ArrowUp aria-hidden="true" />
          Monter<span className="sr-only"> « {heading} »</span>
        </Button>
        <Button
          type="submit"
          name="intent"
          value={intents.down}
          variant="ghost"
          size="sm"
          disabled={index === length - 1}
        >
          <ArrowDown aria-hidden="true" />
          Descendre<span className="sr-only"> « {heading} »</span>
        </Button>
        {removable ? (
          <Button
            type="submit"
            name="intent"
            value={intents.remove}
            variant="ghost-destructive"
            size="sm"
          >
            <Trash2 aria-hidden="true" />
            Retirer<span className="sr-only"> « {heading} »</span>
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}

const TEXT_TYPES = { text: "text", tel: "tel", url: "url", email: "email", date: "date" } as const;

/**
 * A document form's fields drawn from their table (decision 0152): each field's label, hint, limit and
 * whether it is required come from its description, and the fields of one row sit side by side.
 */
export function DocumentTableRows({
  table,
}: {
  table: { fields: FieldSpecs; names: readonly string[] };
}) {
  const field = (name: string) => {
    const spec = table.fields[name];
    if (spec?.kind === "number" || spec?.kind === "choice" || spec?.kind === "boolean") {
      throw new Error(`DocumentTableRows: no control for a ${spec.kind} field yet (${name})`);
    }
    if (!spec) return null;
    const common = {
      name,
      label: inputLabel(spec),
      hint: spec.hint,
      required: Boolean(spec.required),
    };
    return spec.kind === "textarea" ? (
      <TextAreaField key={name} {...common} rows={spec.rows} />
    ) : (
      <TextField
        key={name}
        {...common}
        maxLength={spec.maxLength ?? spec.max}
        type={spec.kind === "decimal" ? "text" : TEXT_TYPES[spec.kind]}
        placeholder={spec.placeholder}
      />
    );
  };
  return <FieldRows rows={tableRows(table)} field={field} />;
}

/** « Ajouter une carte »: the form comes back with one more empty item at the end of the list. */
export function AddItemButton({
  label,
  ...list
}: { label: string } & ({ path: string } | { intent: string })) {
  return (
    <Button
      type="submit"
      name="intent"
      value={"intent" in list ? list.intent : listIntent.add(list.path)}
      variant="outline"
      size="sm"
    >
      <Plus aria-hidden="true" />
      {label}
    </Button>
  );
}

/**
 * Where a list's items are not saved until « Enregistrer »: a reminder for the owner. « Retirer » asks no
 * confirmation: nothing changes before the save, and the history brings a saved removal back.
 */
export const LIST_HINT =
  "Ajouter, retirer ou déplacer un élément ne change le site qu'après « Enregistrer ». Un élément retiré par erreur se retrouve dans l'historique, en bas de la page (« Restaurer cette version »).";
