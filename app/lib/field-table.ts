import { isIsoDay } from "~/lib/dates";
import type { FieldErrors } from "~/lib/forms";
import { z } from "~/lib/zod";

/*
 * One table per record form (decision 0152): each field is described once, by its name (the table's key),
 * its label, its kind, its limits and messages, and its hint. The form's zod schema, its first values, its
 * order, its labels (error summary and visible label) and the revision history's labels are derived from
 * that description, so that adding a field is one line here and its mapping to the stored record.
 */

/**
 * A single-line or multi-line text; `url` takes an https address, `email` an e-mail address, `date` a
 * calendar day as `<input type="date">` posts it (YYYY-MM-DD).
 */
type TextKind = "text" | "textarea" | "tel" | "url" | "email" | "decimal" | "date";

/**
 * A rule the field's value must also hold that needs what the form knows when it is read (today's date,
 * the studios of the list), given to `tableSchema`: its message when it does not.
 */
export type FieldCheck = {
  // `never`: each table states the value and the context its checks read.
  holds: (value: never, context: never) => boolean;
  message: string;
};

type Common = {
  /** What the form and its error summary call the field. */
  label: string;
  /** The control's label when it says more (« Latitude (facultative) »); the label otherwise. */
  inputLabel?: string;
  hint?: string;
  /**
   * Where the stored record keeps the field when it is not at its name (`address.city`), or false when
   * it keeps it in another shape (a kind of deposit folded into its text): the history's label follows.
   */
  stored?: string | false;
  /** What the revision history calls the stored field, when not its label. */
  historyLabel?: string;
  /** Rules that need the form's context, checked after the field's own (see `tableSchema`). */
  checks?: readonly FieldCheck[];
  /**
   * Fields side by side on a wide screen: consecutive fields with the same row name are drawn in one
   * grid (`tableRows`), of two equal columns unless the row's first field says otherwise (`columns`).
   */
  row?: string;
  /** The row's columns on a wide screen, as a grid class (`sm:grid-cols-[10rem_1fr]`). */
  columns?: string;
  /** Shown only when editing a record, not when creating one. */
  editingOnly?: boolean;
};

export type TextField = Common & {
  kind: TextKind;
  /** The longest text taken; no limit of its own without it (a pattern says how long it is). */
  max?: number;
  /** The message when empty; the field is optional without it. */
  required?: string;
  /** The message past `max`; « {max} caractères au plus » otherwise. */
  tooLong?: string;
  /** A shape the text must have when not empty (a slug), with its message. */
  pattern?: { regex: RegExp; message: string };
  /** The message of a malformed e-mail, link or date. */
  invalid?: string;
  /** A link to another site may also start with http:// (the document forms' rule, decision 0070). */
  webAddress?: boolean;
  /** Transforms the trimmed text before its checks (spaces taken out of a postal code). */
  normalize?: (text: string) => string;
  rows?: number;
  placeholder?: string;
  inputMode?: "numeric" | "decimal" | "tel";
  /** The browser's own length cap, when not `max` (a postal code typed with spaces). */
  maxLength?: number;
  /** Left to the form's own code (the table keeps its label and place): read as typed. */
  free?: boolean;
  /** Read as null when left empty (a record keeps « none » as null). */
  emptyIsNull?: boolean;
};

export type NumberField = Common & {
  kind: "number";
  min: number;
  max: number;
  /** « minutes », « heures »: in the message and after the input. */
  unit: string;
  /** After the input when it differs from the unit (« heures avant »); empty when the label says it. */
  suffix?: string;
  initial: number;
  /** One message for every refusal, instead of the one for each (« Indiquez un nombre »…). */
  message?: string;
};

export type BooleanField = Common & { kind: "boolean" };

export type ChoiceField<Value extends string = string> = Common & {
  kind: "choice";
  /** The values and what the form shows for each; empty for choices known only when the form loads. */
  choices: readonly { value: Value; label: string }[];
  /** The message when the value is not one of them. */
  message: string;
  initial?: Value;
  /** Read as null when left empty or not posted (nothing chosen, or an older form without it). */
  emptyIsNull?: boolean;
};

export type FieldSpec = TextField | NumberField | BooleanField | ChoiceField;
export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

/** What a field reads as once valid. */
type Output<Spec> = Spec extends { emptyIsNull: true } ? Value<Spec> | null : Value<Spec>;
type Value<Spec> = Spec extends NumberField
  ? number
  : Spec extends BooleanField
    ? boolean
    : Spec extends ChoiceField<infer Choice>
      ? Spec["choices"] extends readonly []
        ? string
        : Choice
      : string;

export type TableOutput<Specs extends FieldSpecs> = { [Name in keyof Specs]: Output<Specs[Name]> };

/** « 3 000 » as the messages write thousands (a plain space, as the product's messages always had). */
function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

const HTTPS_LINK = /^https:\/\/[^\s/]+\.[^\s]+$/i;
const WEB_ADDRESS = /^https?:\/\/[^\s/]+\.[^\s]+$/;
const LINK_MESSAGE = "Le lien doit être une adresse complète commençant par https://";

function textSchema(spec: TextField): z.ZodType<string> {
  if (spec.free) return z.string();
  const trimmed = z.string().trim();
  if (spec.normalize) return trimmed.transform(spec.normalize).pipe(textChecks(z.string(), spec));
  return textChecks(trimmed, spec);
}

function textChecks(text: z.ZodString, spec: TextField): z.ZodType<string, string> {
  let checked = text;
  const withMax = (schema: z.ZodString) =>
    spec.max === undefined
      ? schema
      : schema.max(spec.max, spec.tooLong ?? `${thousands(spec.max)} caractères au plus`);
  if (spec.kind === "email") {
    if (spec.required) checked = checked.min(1, spec.required);
    return withMax(checked).pipe(z.email(spec.invalid));
  }
  checked = withMax(checked);
  if (spec.required) checked = checked.min(1, spec.required);
  if (spec.pattern) {
    const { regex, message } = spec.pattern;
    checked = spec.required
      ? checked.regex(regex, message)
      : (checked.refine((value) => value === "" || regex.test(value), message) as z.ZodString);
  }
  if (spec.kind === "date") {
    checked = checked.refine(
      (value) => value === "" || isIsoDay(value),
      spec.invalid ?? "Date invalide",
    ) as z.ZodString;
  }
  if (spec.kind === "url") {
    checked = checked.refine(
      (value) =>
        value === "" ||
        ((spec.webAddress ? WEB_ADDRESS : HTTPS_LINK).test(value) && URL.canParse(value)),
      spec.invalid ?? LINK_MESSAGE,
    ) as z.ZodString;
  }
  return checked;
}

/** A whole number within the field's bounds, as typed (« 1 440 » too). */
function numberSchema(spec: NumberField): z.ZodType<number> {
  return z.string().transform((raw, context) => {
    const text = raw.trim().replace(/\s/g, "");
    const refuse = (message: string) => {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (text === "") return refuse(spec.message ?? "Indiquez un nombre");
    if (!/^\d+$/.test(text)) return refuse(spec.message ?? "Un nombre entier, sans virgule");
    const value = Number(text);
    if (value < spec.min || value > spec.max) {
      return refuse(spec.message ?? `Entre ${spec.min} et ${spec.max} ${spec.unit}`);
    }
    return value;
  });
}

function choiceSchema(spec: ChoiceField): z.ZodType<string> {
  return z
    .string()
    .trim()
    .refine(
      (value) =>
        spec.choices.length === 0 ||
        (value === "" && spec.emptyIsNull === true) ||
        spec.choices.some((choice) => choice.value === value),
      spec.message,
    );
}

/** A field's own schema, before the checks that need the form's context. */
function ownSchema(spec: FieldSpec): z.ZodType {
  switch (spec.kind) {
    case "number":
      return numberSchema(spec);
    case "boolean":
      // A box not ticked is not posted.
      return z.string().transform((value) => value === "on");
    case "choice":
      return choiceSchema(spec);
    default:
      return textSchema(spec);
  }
}

/**
 * A field's schema: what it reads as from the posted text, with its French messages; with `context`,
 * its checks that need it too (in their order, after its own: the first message that applies is shown).
 */
export function fieldSchema(spec: FieldSpec, context?: unknown): z.ZodType {
  let schema = ownSchema(spec);
  if (context !== undefined) {
    for (const check of spec.checks ?? []) {
      schema = schema.refine(
        (value) => check.holds(value as never, context as never),
        check.message,
      );
    }
  }
  if ("emptyIsNull" in spec && spec.emptyIsNull) {
    schema = schema.transform((value) => (value === "" ? null : value));
  }
  return schema;
}

export type FieldTable<Specs extends FieldSpecs> = {
  fields: Specs;
  /** The fields' names in the form's order. */
  names: (keyof Specs & string)[];
  /** The form's schema, over every field's text. */
  schema: z.ZodType<TableOutput<Specs>>;
  fieldSchemas: Record<keyof Specs, z.ZodType>;
  /** The fields of a new record. */
  initialValues: Record<string, string>;
  /** What the error summary calls each field. */
  labels: Record<string, string>;
  /** What the revision history calls each stored field (`address.city` for one under `address`). */
  historyLabels: Record<string, string>;
};

/** A record form's table; the keys are the fields' names, in the form's order. */
export function defineFields<const Specs extends FieldSpecs>(fields: Specs): FieldTable<Specs> {
  const entries = Object.entries(fields);
  const shape = Object.fromEntries(entries.map(([name, spec]) => [name, fieldSchema(spec)]));
  const historyLabels: Record<string, string> = {};
  for (const [name, spec] of entries) {
    if (spec.stored === false) continue;
    historyLabels[spec.stored ?? name] = spec.historyLabel ?? spec.label;
  }
  return {
    fields,
    names: Object.keys(fields),
    schema: z.object(shape) as unknown as z.ZodType<TableOutput<Specs>>,
    fieldSchemas: shape as Record<keyof Specs, z.ZodType>,
    initialValues: Object.fromEntries(entries.map(([name, spec]) => [name, initialText(spec)])),
    labels: Object.fromEntries(entries.map(([name, spec]) => [name, spec.label])),
    historyLabels,
  };
}

function initialText(spec: FieldSpec): string {
  if (spec.kind === "number") return String(spec.initial);
  if (spec.kind === "choice") return spec.initial ?? "";
  return "";
}

/** A stored value as the field's text: numbers as typed, a ticked box as « on ». */
function asText(value: unknown): string {
  if (typeof value === "boolean") return value ? "on" : "";
  if (value === null || value === undefined) return "";
  return String(value);
}

/** A record's values (those under the table's names) as the form's fields. */
export function tableValues(
  table: { names: readonly string[] },
  record: Readonly<Record<string, unknown>>,
): Record<string, string> {
  return Object.fromEntries(table.names.map((name) => [name, asText(record[name])]));
}

export type ReadFields<Output> =
  | { ok: true; data: Output; errors: FieldErrors }
  | { ok: false; data: Partial<Output>; errors: FieldErrors };

/**
 * The table's fields read from the posted values, each by its schema (a field not posted reads as empty,
 * as a box not ticked): the data of every field that holds, and the first message of each that does not,
 * so that a form's own checks of several fields together still run beside them.
 */
export function readFields<Specs extends FieldSpecs>(
  table: FieldTable<Specs>,
  values: Readonly<Record<string, string>>,
): ReadFields<TableOutput<Specs>> {
  const data: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const name of table.names) {
    const parsed = table.fieldSchemas[name].safeParse(values[name] ?? "");
    if (parsed.success) data[name] = parsed.data;
    else errors[name] = parsed.error.issues[0]?.message;
  }
  return Object.keys(errors).length === 0
    ? { ok: true, data: data as TableOutput<Specs>, errors }
    : { ok: false, data: data as Partial<TableOutput<Specs>>, errors };
}

type Outputs<Tables> = Tables extends readonly [
  { fields: infer Specs extends FieldSpecs },
  ...infer Rest,
]
  ? TableOutput<Specs> & Outputs<Rest>
  : unknown;

/**
 * The schema of a form made of `tables` (one per section), with the checks that need `context` (what
 * the form knows when it is read: today, the studios of the list). A field not posted reads as empty,
 * as in `readFields`: a box not ticked, or a field an older form did not have.
 */
export function tableSchema<
  const Tables extends readonly { fields: FieldSpecs; names: readonly string[] }[],
>(tables: Tables, context: object): z.ZodType<Outputs<Tables>> {
  const shape: Record<string, z.ZodType> = {};
  for (const table of tables) {
    for (const name of table.names) {
      const spec = table.fields[name];
      if (spec) shape[name] = z.preprocess((value) => value ?? "", fieldSchema(spec, context));
    }
  }
  return z.object(shape) as unknown as z.ZodType<Outputs<Tables>>;
}

/** A line of a form's section: one field, or fields side by side in a grid of `columns`. */
export type TableRow = { names: string[]; grid: boolean; columns: string };

/**
 * A table's fields as the lines of its section, in its order: consecutive fields with the same `row`
 * share one grid (of two equal columns unless the row's first field says otherwise); `editing` leaves
 * out the fields shown only when editing a record.
 */
export function tableRows(
  table: { fields: FieldSpecs; names: readonly string[] },
  { editing = true }: { editing?: boolean } = {},
): TableRow[] {
  const rows: (TableRow & { row?: string })[] = [];
  for (const name of table.names) {
    const spec = table.fields[name];
    if (!spec || (spec.editingOnly && !editing)) continue;
    const last = rows.at(-1);
    if (spec.row !== undefined && last?.row === spec.row) last.names.push(name);
    else {
      rows.push({
        names: [name],
        grid: spec.row !== undefined,
        columns: spec.columns ?? "sm:grid-cols-2",
        row: spec.row,
      });
    }
  }
  return rows.map(({ names, grid, columns }) => ({ names, grid, columns }));
}

/** What the control's label says. */
export function inputLabel(spec: FieldSpec): string {
  return spec.inputLabel ?? spec.label;
}
