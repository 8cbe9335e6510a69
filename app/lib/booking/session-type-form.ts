import { DAYS, type DayOfWeek } from "~/content/schemas";
import type { FieldErrors } from "~/lib/forms";
import { defineFields, readFields, tableValues } from "~/lib/field-table";
import { DAY_LABELS, formatDayHours, parseDayHours } from "~/lib/hours-input";
import { SLUG_PATTERN, slugify } from "~/lib/slug";
import { PAYMENT_METHODS } from "~/lib/payments/model";
import { DEPOSIT_NATURES, type DepositRule } from "./deposit";
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
  /**
   * The deposit paid online when booking (decision 0186); null: nothing to pay online. Revisions saved
   * before it have no such key: read as null.
   */
  deposit?: DepositRule | null;
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

/** The session type itself, in the form's order (the studios offering it follow). */
export const SESSION_TYPE_FIELDS = defineFields({
  name: { kind: "text", label: "Nom de la séance", max: 150 },
  slug: {
    kind: "text",
    label: "Adresse",
    max: 100,
    pattern: {
      regex: SLUG_PATTERN,
      message: "Lettres minuscules, chiffres et tirets seulement (exemple : portrait-famille)",
    },
    hint: "Lettres minuscules, chiffres et tirets. Laissez vide : elle se déduit du nom.",
  },
  description: {
    kind: "textarea",
    label: "Description",
    max: 3000,
    rows: 4,
    hint: "Ce que les visiteurs lisent avant de choisir.",
  },
  photoId: {
    kind: "choice",
    label: "Photo",
    inputLabel: "Photo (facultative)",
    // The media library's photos, known when the form loads: checked by `parseSessionTypeForm`.
    choices: [],
    message: "Cette photo n'est plus dans la médiathèque : choisissez-en une autre",
    hint: "Une photo de la médiathèque, décrite par son texte alternatif. Pour en ajouter une : Photos › Téléverser.",
  },
  priceText: {
    kind: "text",
    label: "Prix",
    max: 200,
    hint: "Par exemple 129 € ou à partir de 90 €.",
  },
  includedText: {
    kind: "textarea",
    label: "Ce qui est compris",
    max: 3000,
    hint: "Par exemple : 10 photos retouchées, galerie en ligne.",
  },
});

/** Its length and when it can be booked (the weekdays' hours follow). */
export const SESSION_TYPE_TIMING_FIELDS = defineFields({
  durationMinutes: {
    kind: "number",
    label: "Durée",
    min: 5,
    max: 1440,
    unit: "minutes",
    initial: 60,
  },
  bufferBeforeMinutes: {
    kind: "number",
    label: "Préparation avant",
    min: 0,
    max: 600,
    unit: "minutes",
    initial: 0,
    hint: "Le studio est pris avant la séance.",
  },
  bufferAfterMinutes: {
    kind: "number",
    label: "Rangement après",
    min: 0,
    max: 600,
    unit: "minutes",
    initial: 0,
    hint: "Le studio est pris après la séance.",
  },
  stepMinutes: {
    kind: "number",
    label: "Intervalle des horaires",
    min: 5,
    max: 720,
    unit: "minutes",
    initial: SESSION_TYPE_DEFAULTS.stepMinutes,
    hint: "30 : des débuts à 9h, 9h30, 10h…",
  },
  minimumNoticeHours: {
    kind: "number",
    label: "Délai minimum",
    min: 0,
    max: 8760,
    unit: "heures",
    initial: SESSION_TYPE_DEFAULTS.minimumNoticeHours,
    hint: "Pas de réservation moins de … heures à l'avance (24 par défaut).",
  },
  horizonDays: {
    kind: "number",
    label: "Réservable jusqu'à",
    min: 1,
    max: 730,
    unit: "jours",
    initial: SESSION_TYPE_DEFAULTS.horizonDays,
    hint: "À l'avance (90 par défaut).",
  },
});

/** How it is booked (the questions asked follow). */
export const SESSION_TYPE_BOOKING_FIELDS = defineFields({
  mode: {
    kind: "choice",
    label: "Réservation",
    choices: [
      { value: "instant", label: "Immédiate : le créneau est réservé aussitôt" },
      { value: "request", label: "Sur demande : vous acceptez ou refusez" },
    ],
    message: "Choisissez comment on réserve",
    initial: "instant",
  },
  responseDeadlineHours: {
    kind: "number",
    label: "Délai de réponse",
    inputLabel: "Délai de réponse (sur demande)",
    min: 1,
    max: 720,
    unit: "heures",
    initial: SESSION_TYPE_DEFAULTS.responseDeadlineHours,
    hint: "Le créneau reste bloqué pendant ce délai ; sans réponse, il se libère.",
  },
  visibility: {
    kind: "choice",
    label: "Visibilité",
    choices: [
      { value: "public", label: "Publique : proposée sur la page Réserver" },
      { value: "private", label: "Privée : seulement par son lien" },
    ],
    message: "Choisissez qui peut réserver",
    initial: "public",
  },
  cancellationCutoffHours: {
    kind: "number",
    label: "Annulation en ligne",
    min: 0,
    max: 8760,
    unit: "heures",
    suffix: "heures avant",
    initial: SESSION_TYPE_DEFAULTS.cancellationCutoffHours,
    hint: "Jusqu'à quand le client peut annuler ou déplacer lui-même (48 par défaut).",
  },
  depositKind: {
    kind: "choice",
    label: "Acompte ou arrhes",
    choices: [
      { value: "", label: "Aucun" },
      ...DEPOSIT_KINDS.map((kind) => ({ value: kind, label: DEPOSIT_LABELS[kind] })),
    ],
    message: "Choisissez acompte, arrhes ou aucun",
    hint: "Des arrhes se perdent si le client annule ; un acompte engage les deux parties.",
    // Kept in the deposit's text (« Arrhes : 30 € au studio »).
    stored: false,
  },
  depositText: {
    kind: "text",
    label: "Montant et règlement",
    historyLabel: "Acompte ou arrhes",
    max: 500,
    hint: "Par exemple : 30 € à régler au studio ou par virement.",
  },
});

/** The deposit paid online when booking (decision 0186); its nature is `depositKind` above. */
export const SESSION_TYPE_DEPOSIT_FIELDS = defineFields({
  depositAmount: {
    kind: "choice",
    label: "Paiement en ligne à la réservation",
    choices: [
      { value: "", label: "Aucun : rien à payer en ligne" },
      { value: "fixed", label: "Un montant fixe" },
      { value: "percent", label: "Un pourcentage du prix" },
      { value: "full", label: "Le prix entier" },
    ],
    message: "Choisissez ce qui se paie en ligne",
    initial: "",
    stored: false,
  },
  depositEuros: {
    kind: "number",
    label: "Montant fixe",
    min: 0,
    max: 10000,
    unit: "€",
    initial: 0,
    stored: false,
  },
  depositPercent: {
    kind: "number",
    label: "Pourcentage du prix",
    min: 0,
    max: 100,
    unit: "%",
    initial: 30,
    stored: false,
  },
  sessionPriceEuros: {
    kind: "number",
    label: "Prix de la séance",
    min: 0,
    max: 100000,
    unit: "€",
    initial: 0,
    hint: "Pour un pourcentage ou le prix entier.",
    stored: false,
  },
  depositCard: { kind: "boolean", label: "Carte bancaire", stored: false },
  depositTransfer: { kind: "boolean", label: "Virement", stored: false },
  depositStudio: { kind: "boolean", label: "Au studio", stored: false },
  depositTransferHours: {
    kind: "number",
    label: "Délai du virement",
    min: 1,
    max: 720,
    unit: "heures",
    initial: 48,
    hint: "Le créneau reste bloqué pendant ce délai ; sans virement reçu, il se libère.",
    stored: false,
  },
  depositRefundAtOnce: {
    kind: "boolean",
    label: "Rembourser aussitôt une annulation faite à temps",
    hint: "Le site rembourse lui-même une carte ; un virement ou un paiement au studio, vous le rendez (la commande l'indique « à rembourser par vous »). Sinon, le remboursement vous est proposé sur la page de la réservation.",
    stored: false,
  },
});

const DEPOSIT_METHOD_FIELDS = {
  card: "depositCard",
  transfer: "depositTransfer",
  studio: "depositStudio",
} as const;

const FORM_TABLES = [
  SESSION_TYPE_FIELDS,
  SESSION_TYPE_TIMING_FIELDS,
  SESSION_TYPE_BOOKING_FIELDS,
  SESSION_TYPE_DEPOSIT_FIELDS,
] as const;

/** What the session type's history calls each stored field. */
export const SESSION_TYPE_HISTORY_LABELS: Record<string, string> = Object.assign(
  {},
  ...FORM_TABLES.map((table) => table.historyLabels),
  {
    studioIds: "Studios",
    bookableHours: "Horaires réservables",
    questions: "Questions",
    deposit: "Paiement en ligne à la réservation",
  },
);

/** A new session type's fields: `SESSION_TYPE_DEFAULTS`, every studio ticked. */
export function newSessionTypeValues(studioIds: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {
    ...Object.assign({}, ...FORM_TABLES.map((table) => table.initialValues)),
    questionCount: "0",
  };
  for (const id of studioIds) values[studioField(id)] = "on";
  return values;
}

const DEPOSIT_TEXT = /^(Acompte|Arrhes) : ([\s\S]*)$/;

/** A stored session type as the form's fields. */
export function sessionTypeFormValues(value: SessionTypeValue): Record<string, string> {
  const deposit = value.depositText ? DEPOSIT_TEXT.exec(value.depositText) : null;
  const fields = {
    ...value,
    depositKind: deposit
      ? deposit[1] === "Arrhes"
        ? "arrhes"
        : "acompte"
      : value.depositText
        ? "acompte"
        : (value.deposit?.nature ?? ""),
    depositText: deposit ? (deposit[2] ?? "") : (value.depositText ?? ""),
    ...depositFormFields(value.deposit ?? null),
  };
  const values: Record<string, string> = {
    ...Object.assign({}, ...FORM_TABLES.map((table) => tableValues(table, fields))),
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

/** A stored deposit rule as the form's fields (a type without one: the fields' first values). */
function depositFormFields(rule: DepositRule | null): Record<string, unknown> {
  if (!rule) return {};
  return {
    depositAmount: rule.amount,
    depositEuros: rule.amount === "fixed" ? rule.value / 100 : 0,
    depositPercent: rule.amount === "percent" ? rule.value : 30,
    sessionPriceEuros: rule.priceCents === null ? 0 : rule.priceCents / 100,
    depositCard: rule.methods.includes("card"),
    depositTransfer: rule.methods.includes("transfer"),
    depositStudio: rule.methods.includes("studio"),
    depositTransferHours: rule.transferHours,
    depositRefundAtOnce: rule.refundAtOnce,
  };
}

/**
 * The deposit the fields describe, or the fields' errors: an amount above zero, a price for a
 * percentage or the whole price, arrhes or acompte named, at least one method.
 */
function readDeposit(
  data: Record<string, unknown>,
  nature: string | undefined,
  errors: FieldErrors,
): DepositRule | null {
  const amount = data.depositAmount;
  if (amount !== "fixed" && amount !== "percent" && amount !== "full") return null;
  if (!DEPOSIT_NATURES.includes(nature as never)) {
    errors.depositKind = "Dites s'il s'agit d'arrhes ou d'un acompte";
  }
  const euros = Number(data.depositEuros ?? 0);
  const percent = Number(data.depositPercent ?? 0);
  const price = Number(data.sessionPriceEuros ?? 0);
  if (amount === "fixed" && !(euros > 0) && !errors.depositEuros) {
    errors.depositEuros = "Indiquez un montant d'au moins 1 €";
  }
  if (amount === "percent" && !(percent > 0) && !errors.depositPercent) {
    errors.depositPercent = "Indiquez un pourcentage entre 1 et 100";
  }
  if (amount !== "fixed" && !(price > 0) && !errors.sessionPriceEuros) {
    errors.sessionPriceEuros = "Indiquez le prix de la séance pour calculer ce qui se paie";
  }
  const methods = PAYMENT_METHODS.filter((method) => data[DEPOSIT_METHOD_FIELDS[method]] === true);
  if (methods.length === 0) errors.depositCard = "Cochez au moins un moyen de paiement";
  return {
    amount,
    value: amount === "fixed" ? euros * 100 : amount === "percent" ? percent : 0,
    priceCents: amount === "fixed" ? null : price * 100,
    nature: nature === "arrhes" ? "arrhes" : "acompte",
    methods,
    transferHours: Number(data.depositTransferHours ?? 48),
    refundAtOnce: data.depositRefundAtOnce === true,
  };
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
  const text = (name: string) => (values[name] ?? "").trim();
  const type = readFields(SESSION_TYPE_FIELDS, values);
  const timing = readFields(SESSION_TYPE_TIMING_FIELDS, values);
  const booking = readFields(SESSION_TYPE_BOOKING_FIELDS, values);
  const depositFields = readFields(SESSION_TYPE_DEPOSIT_FIELDS, values);
  const errors: FieldErrors = { ...type.errors, ...timing.errors, ...booking.errors };
  const online = ["fixed", "percent", "full"].includes(depositFields.data.depositAmount ?? "");
  // The deposit's figures are read only when something is paid online.
  if (online) Object.assign(errors, depositFields.errors);
  const deposit = online ? readDeposit(depositFields.data, booking.data.depositKind, errors) : null;

  // The name is required unless the address is typed; an address left empty comes from the name.
  const name = type.data.name ?? "";
  if (name === "" && !errors.name) errors.name = "Indiquez le nom de la séance";
  const typedSlug = type.data.slug ?? "";
  const slug = typedSlug === "" ? slugify(name).slice(0, 100).replace(/-+$/, "") : typedSlug;
  if (slug === "" && !errors.name && !errors.slug) errors.slug = "Indiquez l'adresse de la séance";
  const photoId = type.data.photoId ?? "";
  if (photoId !== "" && !options.photoIds.includes(photoId)) {
    errors.photoId = SESSION_TYPE_FIELDS.fields.photoId.message;
  }

  const studioIds = options.studioIds.filter((id) => values[studioField(id)] === "on");
  if (studioIds.length === 0) errors.studios = "Cochez au moins un studio";

  const depositKind = booking.data.depositKind;
  const depositDetail = booking.data.depositText ?? "";
  let depositText: string | null = null;
  if (depositKind === "acompte" || depositKind === "arrhes") {
    // Paid online, the page says the amount itself: the owner's sentence is optional then.
    if (deposit && depositDetail === "") depositText = null;
    else if (depositDetail === "" && !errors.depositText) {
      errors.depositText = "Indiquez le montant et comment le régler (exemple : 30 € au studio)";
    } else if (!errors.depositText)
      depositText = `${DEPOSIT_LABELS[depositKind]} : ${depositDetail}`;
  } else {
    // Without a deposit its text is not read.
    delete errors.depositText;
  }

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
  const { depositKind: _kind, depositText: _detail, ...settings } = booking.data;
  return {
    ok: true,
    value: {
      ...type.data,
      slug,
      photoId: photoId === "" ? null : photoId,
      ...timing.data,
      studioIds,
      ...settings,
      depositText,
      deposit,
      questions,
      bookableHours: Object.keys(bookableHours).length > 0 ? bookableHours : null,
    } as SessionTypeValue,
  };
}

/** The weekdays' names for the hours' fields. */
export const WEEKDAYS = DAYS.map((day) => ({ day, label: DAY_LABELS[day] }));
