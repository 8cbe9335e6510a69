import { z } from "~/lib/zod";
import type { StudioId } from "~/content/studios";
import {
  contactForms,
  MESSAGE_MAX_LENGTH,
  type ContactMessageInput,
  type Option,
} from "./contact-forms";

/**
 * One zod schema per studio's contact form (SPEC §5): used by the browser for instant messages and by the
 * action as the authority. Kept apart from ./contact-forms so that pages load zod only when needed.
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
  telephone: z
    .string({ error: "Le téléphone est requis" })
    .trim()
    .min(1, "Le téléphone est requis")
    .max(30, "Numéro de téléphone invalide")
    .regex(/^\+?[\d\s.()-]+$/, "Numéro de téléphone invalide")
    .refine((phone) => phone.replace(/\D/g, "").length >= 9, "Numéro de téléphone invalide"),
  message: requiredText("Le message", MESSAGE_MAX_LENGTH),
  requiredSource: (options: Option[]) =>
    z.enum(values(options), { error: "Veuillez indiquer comment vous nous avez connus" }),
  optionalSource: (options: Option[]) =>
    z.preprocess(
      emptyToUndefined,
      z.enum(values(options), { error: "Veuillez choisir une réponse de la liste" }).optional(),
    ),
};

const ussel = contactForms.ussel;
const brive = contactForms.brive;
const limoges = contactForms.limoges;

/** Ussel: everything required but the source. */
export const usselContactSchema = z.object({
  shootingType: fields.shootingType(ussel.shootingTypes),
  prenom: fields.prenom,
  nom: fields.nom,
  email: fields.email,
  telephone: fields.telephone,
  message: fields.message,
  source: fields.optionalSource(ussel.sources),
});

/** Brive: every field required, the source included. */
export const briveContactSchema = z.object({
  shootingType: fields.shootingType(brive.shootingTypes),
  prenom: fields.prenom,
  nom: fields.nom,
  email: fields.email,
  telephone: fields.telephone,
  message: fields.message,
  source: fields.requiredSource(brive.sources),
});

/** Limoges: no phone field; the source is optional. */
export const limogesContactSchema = z.object({
  shootingType: fields.shootingType(limoges.shootingTypes),
  prenom: fields.prenom,
  nom: fields.nom,
  email: fields.email,
  message: fields.message,
  source: fields.optionalSource(limoges.sources),
});

export const contactSchemas = {
  ussel: usselContactSchema,
  brive: briveContactSchema,
  limoges: limogesContactSchema,
} as const;

/** Validates one studio's form values (strings from the form) with that studio's schema. */
export function parseContactForm(studio: StudioId, input: Record<string, unknown>) {
  return contactSchemas[studio].safeParse(input) as
    { success: true; data: ContactMessageInput } | { success: false; error: z.ZodError };
}
