import { DAYS, type DayOfWeek } from "~/content/schemas";
import type { FieldErrors } from "~/lib/forms";
import { DAY_LABELS, formatDayHours, parseDayHours } from "~/lib/hours-input";
import { SLUG_PATTERN, slugify } from "~/lib/slug";
import { SESSION_TYPE_DEFAULTS, type SessionMode, type SessionVisibility } from "./model";
import {
  bookingQuestionsSchema,
  QUESTION_KINDS,
  type BookableHours,
  type BookingQuestion,
  type QuestionKind,
} from "./session-types";

/*
 * The session type form of /admin/reservations/seances (decision 0116): every setting of a session type as the
 * owner types it, in flat field names (questions as `question-{i}-label`…), so that it posts without
 * JavaScript and comes back whole after a refusal. `sessionTypeFormValues` writes a stored type as fields;
 * `parseSessionTypeForm` reads them back with a French message at each field that does not hold. The same
 * value is what a revision keeps (`content_revisions`, subject `session-type:{id}`).
 */

/** What a session type is, as the form edits it and as its revisions keep it (its link's secret aside). */
export type SessionTypeValue = {
  slug: string;
  name: string;
  description: string;
  photoId: string | null;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  studioIds: string[];
  priceText: string;
  includedText: string;
  minimumNoticeHours: number;
  horizonDays: number;
  stepMinutes: number;
  mode: SessionMode;
  responseDeadlineHours: number;
  /** « Acompte : 30 € à régler au studio »; null: none. */
  depositText: string | null;
  visibility: SessionVisibility;
  questions: BookingQuestion[];
  /** Per weekday, hours replacing the studio's; null: the studio's hours every day. */
  bookableHours: BookableHours | null;
  cancellationCutoffHours: number;
};

/** The admin's list of session types. */
export const SESSION_TYPES_PAGE = "/admin/reservations/seances";

export const MAX_QUESTIONS = 10;

export const DEPOSIT_KINDS = ["acompte", "arrhes"] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];
export const DEPOSIT_LABELS: Record<DepositKind, string> = { acompte: "Acompte", arrhes: "Arrhes" };

export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  text: "Réponse libre",
  choice: "Choix parmi des réponses",
  yes_no: "Oui ou non",
};

export const studioField = (studioId: string) => `studio-${studioId}`;
export const hoursOverrideField = (day: DayOfWeek) => `hours-${day}`;
export const questionField = (
  index: number,
  part: "id" | "kind" | "label" | "required" | "options",
) => `question-${index}-${part}`;

/** The intents of the questions' list buttons (« Ajouter une question », « Monter »…), posted as `intent`. */
export const questionIntent = {
  add: "add-question",
  remove: (index: number) => `remove-question-${index}`,
  up: (index: number) => `up-question-${index}`,
  down: (index: number) => `down-question-${index}`,
};

/** A new session type's fields: `SESSION_TYPE_DEFAULTS`, every studio ticked. */
export function newSessionTypeValues(studioIds: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {
    durationMinutes: "60",
    bufferBeforeMinutes: "0",
    bufferAfterMinutes: "0",
    minimumNoticeHours: String(SESSION_TYPE_DEFAULTS.minimumNoticeHours),
    horizonDays: String(SESSION_TYPE_DEFAULTS.horizonDays),
    stepMinutes: String(SESSION_TYPE_DEFAULTS.stepMinutes),
    mode: "instant",
    responseDeadlineHours: String(SESSION_TYPE_DEFAULTS.responseDeadlineHours),
    visibility: "public",
    cancellationCutoffHours: String(SESSION_TYPE_DEFAULTS.cancellationCutoffHours),
    questionCount: "0",
  };
  for (const id of studioIds) values[studioField(id)] = "on";
  return values;
}

const DEPOSIT_TEXT = /^(Acompte|Arrhes) : ([\s\S]*)$/;

/** A stored session type as the form's fields. */
export function sessionTypeFormValues(value: SessionTypeValue): Record<string, string> {
  const deposit = value.depositText ? DEPOSIT_TEXT.exec(value.depositText) : null;
  const values: Record<string, string> = {
    name: value.name,
    slug: value.slug,
    description: value.description,
    photoId: value.photoId ?? "",
    durationMinutes: String(value.durationMinutes),
    bufferBeforeMinutes: String(value.bufferBeforeMinutes),
    bufferAfterMinutes: String(value.bufferAfterMinutes),
    priceText: value.priceText,
    includedText: value.includedText,
    minimumNoticeHours: String(value.minimumNoticeHours),
    horizonDays: String(value.horizonDays),
    stepMinutes: String(value.stepMinutes),
    mode: value.mode,
    responseDeadlineHours: String(value.responseDeadlineHours),
    depositKind: deposit
      ? deposit[1] === "Arrhes"
        ? "arrhes"
        : "acompte"
      : value.depositText
        ? "acompte"
        : "",
    depositText: deposit ? (deposit[2] ?? "") : (value.depositText ?? ""),
    visibility: value.visibility,
    cancellationCutoffHours: String(value.cancellationCutoffHours),
    questionCount: String(value.questions.length),
  };
  for (const id of value.studioIds) values[studioField(id)] = "on";
  for (const day of DAYS) {
    const override = value.bookableHours?.[day];
    if (override !== undefined) {
      values[hoursOverrideField(day)] = override.length === 0 ? "fermé" : formatDayHours(override);
    }
  }
  value.questions.forEach((question, index) => {
    values[questionField(index, "id")] = question.id;
    values[questionField(index, "kind")] = question.kind;
    values[questionField(index, "label")] = question.label;
    if (question.required) values[questionField(index, "required")] = "on";
    values[questionField(index, "options")] = question.options.join("\n");
  });
  return values;
}

/** How many question rows the fields hold (at most MAX_QUESTIONS). */
export function questionCount(values: Readonly<Record<string, string>>): number {
  const count = Number(values.questionCount ?? "0");
  return Number.isInteger(count) && count > 0 ? Math.min(count, MAX_QUESTIONS) : 0;
}

const QUESTION_PARTS = ["id", "kind", "label", "required", "options"] as const;

/**
 * The fields after a questions' list button (add, remove, move): everything typed kept, the rows
 * renumbered. Null when `intent` is not one of them or names no row (a crafted post).
 */
export function applyQuestionIntent(
  values: Readonly<Record<string, string>>,
  intent: string,
): Record<string, string> | null {
  const count = questionCount(values);
  const rows = Array.from({ length: count }, (_, index) =>
    Object.fromEntries(QUESTION_PARTS.map((part) => [part, values[questionField(index, part)]])),
  );
  if (intent === questionIntent.add) {
    if (count >= MAX_QUESTIONS) return { ...values };
    rows.push({ id: undefined, kind: "text", label: "", required: undefined, options: "" });
  } else {
    const match = /^(remove|up|down)-question-(\d{1,2})$/.exec(intent);
    if (!match) return null;
    const index = Number(match[2]);
    if (index >= count) return null;
    if (match[1] === "remove") rows.splice(index, 1);
    else {
      const target = match[1] === "up" ? index - 1 : index + 1;
      if (target >= 0 && target < count) {
        const [row] = rows.splice(index, 1);
        if (row) rows.splice(target, 0, row);
      }
    }
  }
  const next: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!key.startsWith("question-")) next[key] = value;
  }
  rows.forEach((row, index) => {
    for (const part of QUESTION_PARTS) {
      const value = row[part];
      if (value !== undefined) next[questionField(index, part)] = value;
    }
  });
  next.questionCount = String(rows.length);
  return next;
}

type Bounds = { min: number; max: number; unit: string };

/** A whole number typed in a field, within bounds, or the French message to show there. */
function wholeNumber(
  raw: string | undefined,
  { min, max, unit }: Bounds,
): { ok: true; value: number } | { ok: false; error: string } {
  const text = (raw ?? "").trim().replace(/\s/g, "");
  if (text === "") return { ok: false, error: "Indiquez un nombre" };
  if (!/^\d+$/.test(text)) return { ok: false, error: "Un nombre entier, sans virgule" };
  const value = Number(text);
  if (value < min || value > max) {
    return { ok: false, error: `Entre ${min} et ${max} ${unit}` };
  }
  return { ok: true, value };
}

const NUMBERS: Record<string, Bounds> = {
  durationMinutes: { min: 5, max: 1440, unit: "minutes" },
  bufferBeforeMinutes: { min: 0, max: 600, unit: "minutes" },
  bufferAfterMinutes: { min: 0, max: 600, unit: "minutes" },
  minimumNoticeHours: { min: 0, max: 8760, unit: "heures" },
  horizonDays: { min: 1, max: 730, unit: "jours" },
  stepMinutes: { min: 5, max: 720, unit: "minutes" },
  responseDeadlineHours: { min: 1, max: 720, unit: "heures" },
  cancellationCutoffHours: { min: 0, max: 8760, unit: "heures" },
};

type NumberField = keyof typeof NUMBERS;

export type ParsedSessionType =
  { ok: true; value: SessionTypeValue } | { ok: false; errors: FieldErrors };

/**
 * Reads the form's fields. `studioIds` are the studios the form offers (a ticked box of another id is a
 * crafted post, ignored); `photoIds` the library's photos.
 */
export function parseSessionTypeForm(
  values: Readonly<Record<string, string>>,
  options: { studioIds: readonly string[]; photoIds: readonly string[] },
): ParsedSessionType {
  const errors: FieldErrors = {};
  const text = (name: string) => (values[name] ?? "").trim();

  const name = text("name");
  if (name === "") errors.name = "Indiquez le nom de la séance";
  else if (name.length > 150) errors.name = "150 caractères au plus";
  const slug = text("slug") === "" ? slugify(name).slice(0, 100).replace(/-+$/, "") : text("slug");
  if (slug === "" && !errors.name) errors.slug = "Indiquez l'adresse de la séance";
  else if (slug.length > 100) errors.slug = "100 caractères au plus";
  else if (slug !== "" && !SLUG_PATTERN.test(slug)) {
    errors.slug = "Lettres minuscules, chiffres et tirets seulement (exemple : portrait-famille)";
  }
  const description = text("description");
  if (description.length > 3000) errors.description = "3 000 caractères au plus";
  const photoId = text("photoId");
  if (photoId !== "" && !options.photoIds.includes(photoId)) {
    errors.photoId = "Cette photo n'est plus dans la médiathèque : choisissez-en une autre";
  }

  const numbers = {} as Record<NumberField, number>;
  for (const [field, bounds] of Object.entries(NUMBERS)) {
    const read = wholeNumber(values[field], bounds);
    if (read.ok) numbers[field] = read.value;
    else errors[field] = read.error;
  }

  const studioIds = options.studioIds.filter((id) => values[studioField(id)] === "on");
  if (studioIds.length === 0) errors.studios = "Cochez au moins un studio";

  const priceText = text("priceText");
  if (priceText.length > 200) errors.priceText = "200 caractères au plus";
  const includedText = text("includedText");
  if (includedText.length > 3000) errors.includedText = "3 000 caractères au plus";

  const mode = text("mode");
  if (mode !== "instant" && mode !== "request") errors.mode = "Choisissez comment on réserve";
  const visibility = text("visibility");
  if (visibility !== "public" && visibility !== "private") {
    errors.visibility = "Choisissez qui peut réserver";
  }

  const depositKind = text("depositKind");
  const depositDetail = text("depositText");
  let depositText: string | null = null;
  if (depositKind === "acompte" || depositKind === "arrhes") {
    if (depositDetail === "") {
      errors.depositText = "Indiquez le montant et comment le régler (exemple : 30 € au studio)";
    } else if (depositDetail.length > 500) errors.depositText = "500 caractères au plus";
    else depositText = `${DEPOSIT_LABELS[depositKind]} : ${depositDetail}`;
  } else if (depositKind !== "") errors.depositKind = "Choisissez acompte, arrhes ou aucun";

  const bookableHours: BookableHours = {};
  for (const day of DAYS) {
    const line = values[hoursOverrideField(day)] ?? "";
    if (line.trim() === "") continue;
    const result = parseDayHours(day, line);
    if (result.ok) bookableHours[day] = result.ranges;
    else errors[hoursOverrideField(day)] = result.error;
  }

  const questions: BookingQuestion[] = [];
  const usedIds = new Set<string>();
  for (let index = 0; index < questionCount(values); index += 1) {
    const label = text(questionField(index, "label"));
    const kind = text(questionField(index, "kind")) as QuestionKind;
    const optionList = (values[questionField(index, "options")] ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    if (label === "") {
      errors[questionField(index, "label")] = "Écrivez la question";
      continue;
    }
    if (label.length > 200) {
      errors[questionField(index, "label")] = "200 caractères au plus";
      continue;
    }
    if (!QUESTION_KINDS.includes(kind)) {
      errors[questionField(index, "kind")] = "Choisissez le type de réponse";
      continue;
    }
    if (kind === "choice" && optionList.length < 2) {
      errors[questionField(index, "options")] = "Au moins deux réponses, une par ligne";
      continue;
    }
    if (optionList.length > 20 || optionList.some((option) => option.length > 100)) {
      errors[questionField(index, "options")] = "20 réponses au plus, de 100 caractères au plus";
      continue;
    }
    // The answer's key stays when the question is reworded; a new question takes one from its words.
    const given = text(questionField(index, "id"));
    let id = SLUG_PATTERN.test(given) && given.length <= 50 ? given : "";
    if (id === "" || usedIds.has(id)) {
      // Cut to 40 characters, a key may end on a hyphen, which no key may: trimmed.
      const base = slugify(label).slice(0, 40).replace(/-+$/, "") || "question";
      id = base;
      for (let suffix = 2; usedIds.has(id); suffix += 1) id = `${base}-${suffix}`;
    }
    usedIds.add(id);
    questions.push({
      id,
      kind,
      label,
      required: values[questionField(index, "required")] === "on",
      options: kind === "choice" ? optionList : [],
    });
  }
  if (!bookingQuestionsSchema.safeParse(questions).success && !errors.questions) {
    errors.questions = "Vérifiez les questions";
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      slug,
      name,
      description,
      photoId: photoId === "" ? null : photoId,
      ...numbers,
      studioIds,
      priceText,
      includedText,
      mode: mode as SessionMode,
      depositText,
      visibility: visibility as SessionVisibility,
      questions,
      bookableHours: Object.keys(bookableHours).length > 0 ? bookableHours : null,
    } as SessionTypeValue,
  };
}

/** The weekdays' names for the hours' fields. */
export const WEEKDAYS = DAYS.map((day) => ({ day, label: DAY_LABELS[day] }));
