import type { ReactNode } from "react";
import {
  type ControlProps,
  Field as SharedField,
  fieldMeta,
  Input,
  Select,
  Textarea,
} from "~/components/ui/field";

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

export { Input, Select, Textarea };
