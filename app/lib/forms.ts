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

/** The sign-in pages' refusal toast (SPEC: 'Erreur de validation' and the first message). */
export function validationToast(error: z.ZodError): ToastMessage {
  return { type: "error", title: "Erreur de validation", description: firstError(error) };
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

/** A form's text fields (or already-read values) without control characters, `omit` left out. */
function inputValues(
  input: FormData | Record<string, string>,
  omit: string[],
): Record<string, string> {
  if (input instanceof FormData) return formValues(input, omit);
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key]) => !omit.includes(key))
      .map(([key, value]) => [key, withoutControlCharacters(value)]),
  );
}

/** A form's fields after validation: the schema's output, or what was typed and what to correct. */
export type ParsedForm<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | { ok: false; values: Record<string, string>; errors: FieldErrors };

/**
 * The one way to read a form (decision 0060): its text fields (control characters dropped, `omit`
 * left out), validated by `schema`. On a refusal, what was typed comes back with the first message of
 * each invalid field, ready for the answer `{ status: "invalid", values, errors }`.
 */
export function parseForm<Schema extends z.ZodType>(
  input: FormData | Record<string, string>,
  schema: Schema,
  { omit = [] }: { omit?: string[] } = {},
): ParsedForm<z.output<Schema>> {
  const values = inputValues(input, omit);
  const parsed = schema.safeParse(values);
  return parsed.success
    ? { ok: true, data: parsed.data, values }
    : { ok: false, values, errors: fieldErrors(parsed.error) };
}

/**
 * What a form's action answers when it does not redirect (decision 0060, one shape for every form:
 * decision 0153): `invalid` (4xx: the fields, or `message`, say what to correct), `failed` (5xx: a
 * toast or `message` says so), `more` (200: the form again with a row added or moved, nothing saved).
 * `values` re-fill the form, so nothing typed is lost. A form adds what only it needs (`Extra`: the next
 * free times of a refused slot, which of a page's forms answered).
 */
export type FormAnswer<Extra extends object = object> = {
  status: "invalid" | "failed" | "more";
  values: Record<string, string>;
  errors?: FieldErrors;
  /** One sentence above the form about the whole of it. */
  message?: string;
  toast?: ToastMessage;
} & Extra;

/** `invalid` below 500, `failed` from 500: what an answer's HTTP status says of it. */
export function answerStatus(httpStatus: number): "invalid" | "failed" {
  return httpStatus >= 500 ? "failed" : "invalid";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID as PostgreSQL writes them (any version): the ids of articles, categories, messages. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * The hidden field of a form that must act once (a booking, a refund, a voucher's amount used): a key the
 * loader draws with the form (a UUID), posted again as it is by a double click or the browser resending it,
 * so that the second post finds what the first one did.
 */
export const FORM_KEY_FIELD = "cle";

/** The key as a page draws it (a UUID), or null for anything else (a page older than keys, a forgery). */
export function formKeyOf(value: unknown): string | null {
  return isUuid(value) ? value : null;
}

/** The key a form posted in FORM_KEY_FIELD; null when it has none (a page drawn before it had one). */
export const postedFormKey = (formData: FormData): string | null =>
  formKeyOf(formData.get(FORM_KEY_FIELD));

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

// --- Nested fields (lists of cards: `tabs.0.cards.3.price`) ----------------------------------------------

/** A nested form's value: texts in objects and lists, as `unflatten` builds them from dotted names. */
export type FormTree = string | FormTree[] | { [key: string]: FormTree };

/** The name of a nested field: its path joined by dots (`["cards", 3, "price"]` → `cards.3.price`). */
export function pathName(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/**
 * The first message of each invalid field, keyed by its whole path (`cards.3.price`), where `fieldErrors`
 * keeps the first element only. A message about a list or an object itself is keyed by that list's name.
 */
export function nestedFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? pathName(issue.path) : "form";
    errors[field] ??= issue.message;
  }
  return errors;
}

// An index of a list: at most 3 digits, so a crafted name cannot make a list of a billion items.
const INDEX = /^\d{1,3}$/;
const SAFE_KEY = /^[A-Za-z][\w-]*$/;

type Node = Map<string, Node | string>;

function toTree(node: Node | string): FormTree {
  if (typeof node === "string") return node;
  const keys = [...node.keys()];
  if (keys.length > 0 && keys.every((key) => INDEX.test(key))) {
    // A list, in index order, without holes: indices are renumbered from 0.
    return keys
      .sort((a, b) => Number(a) - Number(b))
      .map((key) => toTree(node.get(key) as Node | string));
  }
  const tree: { [key: string]: FormTree } = {};
  for (const key of keys) tree[key] = toTree(node.get(key) as Node | string);
  return tree;
}

/**
 * Dotted field names to a tree: `{ "cards.0.title": "A", "cards.1.title": "B" }` →
 * `{ cards: [{ title: "A" }, { title: "B" }] }`. Names that clash with each other (`a` and `a.b`) or hold
 * odd segments are dropped: only a crafted post has them.
 */
export function unflatten(values: Record<string, string>): { [key: string]: FormTree } {
  const root: Node = new Map();
  for (const [name, value] of Object.entries(values)) {
    const segments = name.split(".");
    if (!segments.every((segment) => INDEX.test(segment) || SAFE_KEY.test(segment))) continue;
    let node = root;
    let clash = false;
    for (const segment of segments.slice(0, -1)) {
      const next = node.get(segment) ?? new Map<string, Node | string>();
      if (typeof next === "string") {
        clash = true;
        break;
      }
      node.set(segment, next);
      node = next;
    }
    const last = segments.at(-1) ?? "";
    if (clash || node.get(last) instanceof Map) continue;
    node.set(last, value);
  }
  const tree = toTree(root);
  return typeof tree === "object" && !Array.isArray(tree) ? tree : {};
}

/** A tree back to dotted field names (what a form posts and what an answer re-fills). */
export function flatten(tree: FormTree, prefix = ""): Record<string, string> {
  if (typeof tree === "string") return prefix ? { [prefix]: tree } : {};
  const values: Record<string, string> = {};
  const entries = Array.isArray(tree)
    ? tree.map((item, index) => [String(index), item] as const)
    : Object.entries(tree);
  for (const [key, item] of entries) {
    Object.assign(values, flatten(item, prefix ? `${prefix}.${key}` : key));
  }
  return values;
}

/** How many items the list `name` has among dotted values (`cards` → 3 for `cards.0…cards.2`). */
export function listLength(values: Record<string, string>, name: string): number {
  let length = 0;
  const prefix = `${name}.`;
  for (const key of Object.keys(values)) {
    if (!key.startsWith(prefix)) continue;
    const index = key.slice(prefix.length).split(".")[0] ?? "";
    if (INDEX.test(index)) length = Math.max(length, Number(index) + 1);
  }
  return length;
}

/**
 * A nested form read the one way (parseForm's rules): dotted names become a tree, validated by `schema`;
 * `values` are the tree flattened again (lists renumbered, what the form re-renders), and errors are keyed
 * by whole paths, which are the fields' names.
 */
export function parseNestedForm<Schema extends z.ZodType>(
  input: FormData | Record<string, string>,
  schema: Schema,
  { omit = [] }: { omit?: string[] } = {},
): ParsedForm<z.output<Schema>> {
  const raw = inputValues(input, omit);
  const tree = unflatten(raw);
  const values = flatten(tree);
  const parsed = schema.safeParse(tree);
  return parsed.success
    ? { ok: true, data: parsed.data, values }
    : { ok: false, values, errors: nestedFieldErrors(parsed.error) };
}
