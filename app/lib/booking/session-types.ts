import { weeklyHoursSchema, type WeeklyHours } from "~/content/schemas";
import { z } from "~/lib/zod";

/*
 * The JSON parts of a session type (`session_types.questions`, `session_types.bookable_hours`) and the
 * answers a visitor gives. Stored JSON only grows, with defaults (docs/architecture.md, « Tables »): a question written before a new
 * field was added still parses.
 */

const text = (max: number) => z.string().trim().max(max);
const requiredText = (max: number) => text(max).min(1);

export const QUESTION_KINDS = ["text", "choice", "yes_no"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** One question of the owner's, asked at booking: free text, one choice among options, or yes/no. */
export const bookingQuestionSchema = z
  .object({
    /** Stable key of the answer (« prenom-enfant »), kept when the label is reworded. */
    id: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      .max(50),
    kind: z.enum(QUESTION_KINDS),
    label: requiredText(200),
    required: z.boolean().default(false),
    /** The answers offered by a `choice` question (ignored by the other kinds). */
    options: z.array(requiredText(100)).max(20).default([]),
  })
  .refine(
    (question) => question.kind !== "choice" || question.options.length >= 2,
    "une question à choix propose au moins deux réponses",
  );
export type BookingQuestion = z.infer<typeof bookingQuestionSchema>;

export const bookingQuestionsSchema = z
  .array(bookingQuestionSchema)
  .max(10)
  .refine(
    (questions) => new Set(questions.map((question) => question.id)).size === questions.length,
    "deux questions ont la même clé",
  );

/**
 * The hours a session type can be booked in, per weekday, when they differ from its studio's opening hours:
 * a day present here replaces the studio's hours of that day (an empty list: not bookable that day), a day
 * absent keeps them. The studio's closures always apply.
 */
export const bookableHoursSchema = weeklyHoursSchema;
export type BookableHours = WeeklyHours;

/** The hours of one weekday for a session type: its override when it has one for that day, else the studio's. */
export function effectiveHours(
  studioHours: WeeklyHours,
  override: BookableHours | null,
): WeeklyHours {
  return override ? { ...studioHours, ...override } : studioHours;
}

/** An answer as stored: text, the chosen option, or « oui » / « non » for a yes/no question. */
export type BookingAnswers = Record<string, string>;

export const ANSWER_MAX_LENGTH = 1000;

/**
 * The visitor's answers checked against the questions: only known questions are kept, each answer trimmed;
 * `errors` (French, by question id) is empty when every answer is acceptable.
 */
export function checkAnswers(
  questions: readonly BookingQuestion[],
  submitted: Readonly<Record<string, unknown>>,
): { answers: BookingAnswers; errors: Record<string, string> } {
  const answers: BookingAnswers = {};
  const errors: Record<string, string> = {};
  for (const question of questions) {
    const raw = submitted[question.id];
    const value =
      typeof raw === "string" ? raw.trim() : typeof raw === "boolean" ? (raw ? "oui" : "non") : "";
    if (value === "") {
      if (question.required) errors[question.id] = "Veuillez répondre à cette question.";
      continue;
    }
    if (question.kind === "choice" && !question.options.includes(value)) {
      errors[question.id] = "Choisissez l'une des réponses proposées.";
    } else if (question.kind === "yes_no" && value !== "oui" && value !== "non") {
      errors[question.id] = "Répondez par oui ou par non.";
    } else if (value.length > ANSWER_MAX_LENGTH) {
      errors[question.id] =
        `Votre réponse est trop longue (${ANSWER_MAX_LENGTH} caractères au plus).`;
    } else {
      answers[question.id] = value;
    }
  }
  return { answers, errors };
}

/**
 * A single-line field as one line: a line break (or tab) posted in it becomes a space, so that nothing a
 * visitor types forges a line of the studio's plain-text e-mail (« Téléphone : … » under her name).
 */
const oneLine = (value: string) => value.replace(/[\r\n\t\u2028\u2029\u0085]+/g, " ");

/** Who books: the client's details, checked on the page and again by the server. */
export const bookingClientSchema = z.object({
  name: z
    .string()
    .transform(oneLine)
    .pipe(
      z.string().trim().min(1, "Veuillez indiquer votre nom.").max(200, "Ce nom est trop long."),
    ),
  email: z
    .string()
    .trim()
    .max(255, "Cette adresse e-mail est trop longue.")
    .email("Veuillez indiquer une adresse e-mail valide."),
  phone: z
    .string()
    .default("")
    .transform(oneLine)
    .pipe(z.string().trim().max(30, "Ce numéro de téléphone est trop long.")),
});
export type BookingClient = z.input<typeof bookingClientSchema>;

/**
 * The client of a booking the owner takes by phone (decision 0138): the e-mail may be left empty (stored
 * empty, and then no e-mail goes to the client); one typed must be an address.
 */
export const ownerBookingClientSchema = bookingClientSchema.extend({
  email: z
    .string()
    .trim()
    .max(255, "Cette adresse e-mail est trop longue.")
    .refine(
      (email) => email === "" || z.email().safeParse(email).success,
      "Indiquez une adresse e-mail valide, ou laissez le champ vide.",
    ),
});

/** The owner's internal note on a booking, at most this long (decision 0138). */
export const INTERNAL_NOTE_MAX = 2000;
