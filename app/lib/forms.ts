import type { z } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

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

/** Form fields as strings (files and repeated fields aside), to re-fill a form after a refusal. */
export function formValues(formData: FormData, omit: string[] = []): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (typeof value === "string" && !omit.includes(key)) values[key] = value;
  }
  return values;
}
