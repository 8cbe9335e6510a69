import type { ComponentProps, ReactNode } from "react";
import {
  type ControlProps,
  Field as SharedField,
  fieldMeta,
  Input,
  Select,
  Textarea,
} from "~/components/ui/field";
import {
  inputLabel,
  tableRows,
  type FieldSpec,
  type FieldSpecs,
  type TableRow,
} from "~/lib/field-table";
import type { FieldErrors } from "~/lib/forms";

/*
 * The admin's fields are the shared ones (components/ui/field, one protocol for forms): this keeps the
 * admin's short form `<Field name label error hint>` and its ids (`champ-{name}`, `champ-{name}-erreur`,
 * `champ-{name}-aide`), which the pages and their tests name.
 */

/** The admin forms' ids: `champ-{name}`. */
export const ADMIN_FORM_ID = "champ";

type FieldProps = {
  /** The form field's name; also the base of the ids. */
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  /** Renders the control; `required` is left to the page (it sets it on the control itself). */
  children: (props: Omit<ControlProps, "required">) => ReactNode;
};

/** A labelled control with its hint and error message wired for assistive technologies. */
export function Field({ name, label, error, hint, className, children }: FieldProps) {
  return (
    <SharedField
      field={fieldMeta(ADMIN_FORM_ID, name, error)}
      label={label}
      description={hint}
      className={className}
    >
      {({ required: _required, ...props }) => children(props)}
    </SharedField>
  );
}

const INPUT_TYPES = {
  text: "text",
  textarea: "text",
  tel: "tel",
  url: "url",
  email: "email",
  date: "date",
};

type TableFieldProps = {
  name: string;
  /** The field's description in its form's table (app/lib/field-table.ts). */
  spec: FieldSpec;
  values: Readonly<Record<string, string>>;
  error: string | undefined;
  className?: string;
  /** The choices of a list known only when the form loads (the media library's photos). */
  choices?: readonly { value: string; label: string }[];
  /** What the page adds to the control (a value it keeps in step, an `onChange`). */
  control?: ComponentProps<"input">;
};

/** A field drawn from its table's description: its label, hint, control and limits. */
export function TableField({
  name,
  spec,
  values,
  error,
  className,
  choices,
  control,
}: TableFieldProps) {
  const value = values[name] ?? "";
  if (spec.kind === "boolean") {
    const id = `${ADMIN_FORM_ID}-${name}`;
    const described = spec.hint ? (error ? `${id}-erreur ${id}-aide` : `${id}-aide`) : undefined;
    return (
      <div className={spec.hint ? "flex items-start gap-3" : "flex items-center gap-3"}>
        <input
          id={id}
          type="checkbox"
          name={name}
          aria-describedby={described}
          aria-invalid={error ? true : undefined}
          className={spec.hint ? "mt-0.5 size-5 accent-stone-800" : "size-5 accent-stone-800"}
          defaultChecked={value === "on"}
        />
        <div>
          <label htmlFor={id} className="text-sm font-semibold">
            {inputLabel(spec)}
          </label>
          {spec.hint ? (
            <p id={`${id}-aide`} className="text-sm text-muted-foreground">
              {spec.hint}
            </p>
          ) : null}
          {error ? (
            <p id={`${id}-erreur`} className="mt-1 text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      </div>
    );
  }
  return (
    <Field
      name={name}
      label={inputLabel(spec)}
      error={error}
      hint={spec.hint}
      className={className}
    >
      {(props) => {
        if (spec.kind === "choice") {
          return (
            <Select {...props} defaultValue={value || (spec.initial ?? "")}>
              {(choices ?? spec.choices).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          );
        }
        if (spec.kind === "number") {
          return (
            <div className="flex items-center gap-2">
              <Input
                {...props}
                inputMode="numeric"
                autoComplete="off"
                className="w-28"
                defaultValue={value}
              />
              {(spec.suffix ?? spec.unit) ? (
                <span className="text-sm">{spec.suffix ?? spec.unit}</span>
              ) : null}
            </div>
          );
        }
        const required = spec.required ? true : undefined;
        if (spec.kind === "textarea") {
          return (
            <Textarea
              {...props}
              required={required}
              rows={spec.rows ?? 3}
              maxLength={spec.maxLength ?? spec.max}
              defaultValue={value}
            />
          );
        }
        return (
          <Input
            {...props}
            required={required}
            type={spec.kind === "decimal" ? "text" : INPUT_TYPES[spec.kind]}
            inputMode={spec.inputMode}
            autoComplete="off"
            maxLength={spec.maxLength ?? spec.max}
            placeholder={spec.placeholder}
            {...(control?.value === undefined ? { defaultValue: value } : {})}
            {...control}
          />
        );
      }}
    </Field>
  );
}

type TableRowsProps<Specs extends FieldSpecs> = {
  table: { fields: Specs; names: readonly (keyof Specs & string)[] };
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
  /** False on a new record's form: the fields shown only when editing are left out. */
  editing?: boolean;
  /** What the page adds to a field: a description that changes as one types, a control kept in step. */
  fieldProps?: {
    [Name in keyof Specs]?: Partial<Pick<TableFieldProps, "spec" | "control" | "choices">>;
  };
};

/** A section's fields drawn from their table, in its order, side by side where the table says so. */
export function TableRows<Specs extends FieldSpecs>({
  table,
  values,
  errors,
  editing = true,
  fieldProps = {},
}: TableRowsProps<Specs>) {
  const field = (name: keyof Specs & string) => (
    <TableField
      key={name}
      name={name}
      spec={table.fields[name] as FieldSpec}
      values={values}
      error={errors[name]}
      {...fieldProps[name]}
    />
  );
  return <FieldRows rows={tableRows(table, { editing })} field={field} />;
}

/** A section's lines: a field alone, or the fields of one row side by side in a grid. */
export function FieldRows<Name extends string>({
  rows,
  field,
}: {
  rows: readonly TableRow[];
  field: (name: Name) => ReactNode;
}) {
  return rows.map((row) =>
    row.grid ? (
      <div key={row.names[0]} className={`grid gap-4 ${row.columns}`}>
        {row.names.map((name) => field(name as Name))}
      </div>
    ) : (
      field(row.names[0] as Name)
    ),
  );
}

export { Input, Select, Textarea };
