import type { ReactNode } from "react";
import { ErrorList, Field, fieldMeta, Input } from "./field";

/** The names a form posts its three fields under (the booking's `name`, the shop's `acheteurNom`…). */
export type ContactNames = { name: string; email: string; phone: string };

/**
 * Who books or buys: the name and the e-mail required, the phone optional, each with its autofill hint and
 * filled again with what was posted after a refusal. One component for the booking form and the voucher
 * shop, so that a client meets the same fields, limits and words in both.
 */
export function ContactFields({
  formId,
  names,
  values,
  errors,
  emailDescription,
  nameMaxLength = 200,
}: {
  formId: string;
  names: ContactNames;
  values: Readonly<Record<string, string | undefined>>;
  errors: Readonly<Record<string, string | undefined>>;
  /** What the address is for, under its label. */
  emailDescription: string;
  nameMaxLength?: number;
}) {
  const meta = (name: string, required = false) => fieldMeta(formId, name, errors[name], required);
  return (
    <>
      <Field field={meta(names.name, true)} label="Nom et prénom">
        {(props) => (
          <Input
            {...props}
            type="text"
            autoComplete="name"
            maxLength={nameMaxLength}
            defaultValue={values[names.name] ?? ""}
          />
        )}
      </Field>
      <Field field={meta(names.email, true)} label="E-mail" description={emailDescription}>
        {(props) => (
          <Input
            {...props}
            type="email"
            autoComplete="email"
            maxLength={255}
            defaultValue={values[names.email] ?? ""}
          />
        )}
      </Field>
      <Field field={meta(names.phone)} label="Téléphone (facultatif)">
        {(props) => (
          <Input
            {...props}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            maxLength={30}
            defaultValue={values[names.phone] ?? ""}
          />
        )}
      </Field>
    </>
  );
}

/** The required box that accepts the terms, its label (with its links) beside it, its message under it. */
export function ConsentCheckbox({
  formId,
  name,
  checked,
  error,
  children,
}: {
  formId: string;
  name: string;
  checked: boolean;
  error: string | undefined;
  children: ReactNode;
}) {
  const consent = fieldMeta(formId, name, error, true);
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={consent.id}
          name={name}
          type="checkbox"
          required
          aria-invalid={consent.errors ? true : undefined}
          aria-describedby={consent.errors ? consent.errorId : undefined}
          defaultChecked={checked}
          className="mt-0.5 size-6 shrink-0 accent-stone-800"
        />
        <label htmlFor={consent.id} className="text-sm">
          {children}
        </label>
      </div>
      <ErrorList id={consent.errorId} errors={consent.errors} />
    </div>
  );
}
