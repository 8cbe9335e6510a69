import type { z } from "zod";
import type { ToastMessage } from "./toast";

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

/** A form's fields after validation: the schema's output, or what was typed and what to correct. */
export type ParsedForm<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | { ok: false; values: Record<string, string>; errors: FieldErrors };

/**
 * The one way to read a form (issue 11, item 0): its text fields (control characters dropped, `omit`
 * left out), validated by `schema`. On a refusal, what was typed comes back with the first message of
 * each invalid field, ready for the answer `{ status: "invalid", values, errors }`.
 */
export function parseForm<Schema extends z.ZodType>(
  input: FormData | Record<string, string>,
  schema: Schema,
  { omit = [] }: { omit?: string[] } = {},
): ParsedForm<z.output<Schema>> {
  const values =
    input instanceof FormData
      ? formValues(input, omit)
      : Object.fromEntries(
          Object.entries(input)
            .filter(([key]) => !omit.includes(key))
            .map(([key, value]) => [key, withoutControlCharacters(value)]),
        );
  const parsed = schema.safeParse(values);
  return parsed.success
    ? { ok: true, data: parsed.data, values }
    : { ok: false, values, errors: fieldErrors(parsed.error) };
}

/**
 * What a form's action answers when it does not redirect: 'invalid' (400, the fields say what to
 * correct), 'failed' (5xx, a toast says so); `values` re-fill the form, so nothing typed is lost.
 */
export type FormAnswer = {
  status: "invalid" | "failed";
  values: Record<string, string>;
  errors?: FieldErrors;
  toast?: ToastMessage;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID as PostgreSQL writes them (any version): the ids of articles, categories, messages. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** An admin list's button form read: which action, on which row. */
export type ParsedIntent<Intent extends string> =
  { ok: true; intent: Intent; id: string } | { ok: false; reason: "intent" | "id" };

/**
 * The one way to read an admin intent form (a button `name="intent"` and a hidden `id`): the intent must
 * be one of `intents`, the id a UUID. Anything else is refused (the action answers 400), never guessed.
 */
export function parseIntent<const Intent extends string>(
  formData: FormData,
  intents: readonly Intent[],
): ParsedIntent<Intent> {
  const intent = formData.get("intent");
  const id = formData.get("id");
  const known = intents.find((candidate) => candidate === intent);
  if (known === undefined) return { ok: false, reason: "intent" };
  if (!isUuid(id)) return { ok: false, reason: "id" };
  return { ok: true, intent: known, id };
}
