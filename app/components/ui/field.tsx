import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from "react";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { cn } from "~/lib/utils";

/*
 * The public forms' field primitives (one protocol for forms, docs/decisions/0060-form-protocol.md).
 *
 * A form's answer is { values, errors } keyed by field name; each field is described by a FieldMeta whose
 * names follow Conform's field metadata (`id`, `name`, `errorId`, `descriptionId`, `errors`, `required`), so
 * that moving to Conform later replaces `fieldMeta()` by `useForm()`'s fields without touching the markup.
 */

/** What a field needs to render: its ids, its errors and whether it is required. */
export type FieldMeta = {
  name: string;
  id: string;
  errorId: string;
  descriptionId: string;
  /** The messages to show under the field; none when valid. */
  errors: string[] | undefined;
  required: boolean;
};

/** One error or several, as a list (what a schema's field errors hold). */
function asList(errors: string | string[] | null | undefined): string[] | undefined {
  if (!errors) return undefined;
  const list = Array.isArray(errors) ? errors.filter(Boolean) : [errors];
  return list.length > 0 ? list : undefined;
}

/** A field's metadata within the form `formId` (ids are unique per form on the page). */
export function fieldMeta(
  formId: string,
  name: string,
  errors: string | string[] | null | undefined,
  required = false,
): FieldMeta {
  const id = `${formId}-${name}`;
  return {
    name,
    id,
    errorId: `${id}-erreur`,
    descriptionId: `${id}-aide`,
    errors: asList(errors),
    required,
  };
}

/** The attributes that tie a control to its label, description and errors. */
export type ControlProps = {
  id: string;
  name: string;
  required: boolean | undefined;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

/**
 * The control's wiring. `required` stays on the control (assistive technologies announce it); the form
 * itself has `noValidate`, so the browser's own bubbles, in its own language, never replace our messages.
 */
export function controlProps(field: FieldMeta, hasDescription = false): ControlProps {
  const describedBy = [
    hasDescription ? field.descriptionId : null,
    field.errors ? field.errorId : null,
  ]
    .filter(Boolean)
    .join(" ");
  return {
    id: field.id,
    name: field.name,
    required: field.required || undefined,
    "aria-invalid": field.errors ? true : undefined,
    "aria-describedby": describedBy || undefined,
  };
}

/** Where the form sits: the error colour must stay readable on it (WCAG contrast). */
export type Surface = "light" | "dark";

const errorColour: Record<Surface, string> = {
  light: "text-destructive",
  dark: "text-red-200",
};

/** A field's messages, under it; `id` is what the control's `aria-describedby` points to. */
export function ErrorList({
  id,
  errors,
  surface = "light",
  className,
}: {
  id: string;
  errors: string[] | undefined;
  surface?: Surface;
  className?: string;
}) {
  if (!errors?.length) return null;
  if (errors.length === 1) {
    return (
      <p id={id} className={cn("mt-1.5 text-sm font-medium", errorColour[surface], className)}>
        {errors[0]}
      </p>
    );
  }
  return (
    <ul
      id={id}
      className={cn("mt-1.5 space-y-1 text-sm font-medium", errorColour[surface], className)}
    >
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

type FieldProps = {
  field: FieldMeta;
  label: ReactNode;
  description?: ReactNode;
  /** The label's look when it differs (e.g. `sr-only` beside a placeholder). */
  labelClassName?: string;
  surface?: Surface;
  className?: string;
  /** Renders the control with the wiring it must carry. */
  children: (props: ControlProps) => ReactNode;
};

/** A labelled control with its description and error messages wired for assistive technologies. */
export function Field({
  field,
  label,
  description,
  labelClassName,
  surface = "light",
  className,
  children,
}: FieldProps) {
  return (
    <div className={className}>
      <label htmlFor={field.id} className={labelClassName ?? "mb-1.5 block text-sm font-semibold"}>
        {label}
        {field.required ? (
          <span aria-hidden="true" className={errorColour[surface]}>
            {" "}
            *
          </span>
        ) : null}
      </label>
      {description ? (
        <p id={field.descriptionId} className="mb-1.5 text-sm text-muted-foreground">
          {description}
        </p>
      ) : null}
      {children(controlProps(field, Boolean(description)))}
      <ErrorList id={field.errorId} errors={field.errors} surface={surface} />
    </div>
  );
}

export type SummaryItem = { field: FieldMeta; label: string };

/** The summary's heading for `count` fields to correct. */
function defaultSummaryTitle(count: number): string {
  return count === 1 ? "Un champ est à corriger :" : `${count} champs sont à corriger :`;
}

/**
 * What to correct, above a refused form: a `role=alert` region (announced at once) whose links lead to each
 * invalid field (and focus it). Focus itself goes to the first invalid field (see `focusFirstInvalid`).
 */
export function ErrorSummary({
  id,
  items,
  title = defaultSummaryTitle,
  className,
}: {
  id: string;
  items: SummaryItem[];
  /** The heading, for the number of fields to correct (e.g. 'L'article n'est pas enregistré : …'). */
  title?: (count: number) => string;
  className?: string;
}) {
  const invalid = items.filter((item) => item.field.errors);
  return (
    <div id={id} role="alert" className={className}>
      {invalid.length > 0 ? (
        <div className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">{title(invalid.length)}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {invalid.map(({ field, label }) => (
              <li key={field.name}>
                <a
                  href={`#${field.id}`}
                  className="inline-flex min-h-6 items-center underline underline-offset-2"
                  onClick={(event) => {
                    // The link leads to the field and puts the cursor in it (a jump alone would not).
                    const control = document.getElementById(field.id);
                    if (!control) return;
                    event.preventDefault();
                    control.focus();
                  }}
                >
                  {`${label} : ${field.errors?.[0] ?? ""}`}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/**
 * A form's outcome written in the page (a toast needs JavaScript; this does not): an error is announced at
 * once (`role=alert`), a success politely (`role=status`).
 */
export function FormAlert({
  message,
  className,
}: {
  message: ToastMessage | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <div
      role={message.type === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border px-4 py-3 text-sm",
        message.type === "error"
          ? "border-red-200 bg-red-50 text-red-900"
          : "border-emerald-200 bg-emerald-50 text-emerald-900",
        className,
      )}
    >
      <p className="font-semibold">{message.title}</p>
      {message.description ? <p className="mt-0.5">{message.description}</p> : null}
    </div>
  );
}

/** Moves focus to the first field, in `order`, that has an error; returns whether one was found. */
export function focusFirstInvalid(
  form: HTMLFormElement | null,
  order: readonly string[],
  errors: Partial<Record<string, unknown>>,
): boolean {
  const name = order.find((field) => errors[field]);
  if (!form || !name) return false;
  const element = form.elements.namedItem(name);
  if (!(element instanceof HTMLElement)) return false;
  element.focus();
  return true;
}

/** The one look of a form control (for a control built by hand, such as a fallback `<textarea>`). */
export const controlLook =
  "block w-full rounded-lg border border-stone-300 bg-white px-3 text-base text-foreground shadow-sm focus-visible:border-gold-dark focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-gold-dark aria-invalid:border-destructive";

/** A one-line text control. */
export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(controlLook, "h-11", className)} {...props} />;
}

/** A list of choices, one line high. */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(controlLook, "h-11", className)} {...props} />;
}

/** A multi-line text, as high as its rows. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(controlLook, "py-2", className)} {...props} />;
}

/**
 * A form's errors as shown: the browser's own check (`setClientErrors` on submit) or else the server's
 * answer. Whenever they change, the focus goes to the first field in error, so that its message is read
 * and it can be corrected at once.
 */
export function useFormErrors(serverErrors: FieldErrors | undefined) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const shown = clientErrors ?? serverErrors;
  useEffect(() => {
    if (shown) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [shown]);
  return { errors: shown ?? {}, clientErrors, setClientErrors, formRef };
}
