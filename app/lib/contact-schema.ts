import { z } from "~/lib/zod";
import {
  MESSAGE_MAX_LENGTH,
  type ContactFormSettings,
  type ContactMessageInput,
  type Option,
} from "./contact-forms";

/**
 * The zod schema of a studio's contact form (SPEC §5), built from the studio's settings: used by the
 * browser for instant messages and by the action as the authority. Kept apart from ./contact-forms so
 * that pages load zod only when needed. Ussel: everything required but the source; Brive: every field
 * required; Limoges: no phone field — each is only its settings (`telephone`, `sourceRequired`).
 */

function values(options: Option[]) {
  return options.map((option) => option.value) as [string, ...string[]];
}

function requiredText(label: string, max: number) {
  return z
    .string({ error: `${label} est requis` })
    .trim()
    .min(1, `${label} est requis`)
    .max(max, `${label} est trop long`);
}

const emptyToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const phoneNumber = z
  .string()
  .max(30, "Numéro de téléphone invalide")
  .regex(/^\+?[\d\s.()-]+$/, "Numéro de téléphone invalide")
  .refine((phone) => phone.replace(/\D/g, "").length >= 9, "Numéro de téléphone invalide");

const fields = {
  shootingType: (options: Option[]) =>
    z.enum(values(options), { error: "Veuillez choisir un type de séance" }),
  prenom: requiredText("Le prénom", 100),
  nom: requiredText("Le nom", 100),
  email: z
    .string({ error: "L'email est requis" })
    .trim()
    .min(1, "L'email est requis")
    .max(255, "Email trop long")
    .pipe(z.email("Email invalide")),
  requiredTelephone: z
    .string({ error: "Le téléphone est requis" })
    .trim()
    .min(1, "Le téléphone est requis")
    .pipe(phoneNumber),
  optionalTelephone: z.preprocess(
    (value) => (typeof value === "string" ? emptyToUndefined(value.trim()) : value),
    phoneNumber.optional(),
  ),
  message: requiredText("Le message", MESSAGE_MAX_LENGTH),
  requiredSource: (options: Option[]) =>
    z.enum(values(options), { error: "Veuillez indiquer comment vous nous avez connus" }),
  optionalSource: (options: Option[]) =>
    z.preprocess(
      emptyToUndefined,
      z.enum(values(options), { error: "Veuillez choisir une réponse de la liste" }).optional(),
    ),
};

/** The schema of the form a studio's settings describe. */
export function contactSchemaFor(settings: ContactFormSettings) {
  const telephone =
    settings.telephone === "required"
      ? { telephone: fields.requiredTelephone }
      : settings.telephone === "optional"
        ? { telephone: fields.optionalTelephone }
        : {};
  // A studio without sources asks nothing about them (an empty list cannot be chosen from).
  const source =
    settings.sources.length === 0
      ? {}
      : {
          source: settings.sourceRequired
            ? fields.requiredSource(settings.sources)
            : fields.optionalSource(settings.sources),
        };
  return z.object({
    shootingType: fields.shootingType(settings.shootingTypes),
    prenom: fields.prenom,
    nom: fields.nom,
    email: fields.email,
    ...telephone,
    message: fields.message,
    ...source,
  }) as z.ZodType<ContactMessageInput, Record<string, unknown>>;
}

/** Validates one studio's form values (strings from the form) with that studio's schema. */
export function parseContactForm(settings: ContactFormSettings, input: Record<string, unknown>) {
  return contactSchemaFor(settings).safeParse(input) as
    { success: true; data: ContactMessageInput } | { success: false; error: z.ZodError };
}
