import type { z } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

// C0 controls but tab, line feed and carriage return; DEL; C1 controls. Nobody types them, a crafted post
// carries them, and PostgreSQL refuses NUL in text outright.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** `text` without the control characters a form field never legitimately holds (tab and newlines stay). */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}

/** The first message of each invalid field, keyed by field name (what forms show under each input). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The first validation message, for a toast. */
export function firstError(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Données invalides";
}

/**
 * Form fields as strings (files and repeated fields aside), to validate and to re-fill a form after a
 * refusal; control characters are dropped (the HTTP layer already removes them from form posts: this
 * keeps the rule for any other caller).
 */
export function formValues(formData: FormData, omit: string[] = []): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (typeof value === "string" && !omit.includes(key)) {
      values[key] = withoutControlCharacters(value);
    }
  }
  return values;
}
