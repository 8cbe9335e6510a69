import { z } from "~/lib/zod";
import type { StudioId } from "~/content/studios";

/**
 * The three studio contact forms (SPEC §3, §5): their fields, required rules and option lists, and one zod
 * schema per studio, used by the browser for instant messages and by the action as the authority.
 */

export type Option = { value: string; label: string };

const commonSources = {
  first: [
    { value: "bouche-oreille", label: "Bouche-à-oreille" },
    { value: "google", label: "Google" },
    { value: "facebook", label: "Facebook" },
    { value: "instagram", label: "Instagram" },
    { value: "evenement", label: "Lors d'un événement" },
  ],
  last: [{ value: "autre", label: "Autre" }],
} satisfies Record<string, Option[]>;

/** Common sources, then the studio's own, then « Autre » last. */
function sources(extra: Option[]): Option[] {
  return [...commonSources.first, ...extra, ...commonSources.last];
}

export type ContactFormDefinition = {
  studio: StudioId;
  shootingTypes: Option[];
  sources: Option[];
  /** Ussel and Brive ask for a phone number; Limoges does not. */
  hasTelephone: boolean;
  /** Brive requires the source; the others leave it optional. */
  sourceRequired: boolean;
};

export const contactForms: Record<StudioId, ContactFormDefinition> = {
  ussel: {
    studio: "ussel",
    shootingTypes: [
      { value: "portrait-signature", label: "Portrait signature" },
      { value: "portrait-famille", label: "Portrait & famille" },
      { value: "naissance", label: "Naissance" },
      { value: "grossesse-naissance", label: "Grossesse & naissance" },
      { value: "mariage", label: "Mariage" },
      { value: "boudoir", label: "Boudoir" },
      { value: "video", label: "Vidéo" },
      { value: "corporate", label: "Corporate & entreprise" },
      { value: "location", label: "Location du studio" },
      { value: "stage", label: "Stage photo" },
    ],
    sources: sources([
      { value: "parrainage", label: "Parrainage" },
      { value: "partenariat", label: "Partenariat" },
      { value: "concours", label: "Concours" },
      { value: "tirage", label: "Tirage au sort" },
    ]),
    hasTelephone: true,
    sourceRequired: false,
  },
  brive: {
    studio: "brive",
    shootingTypes: [
      { value: "famille", label: "Famille" },
      { value: "grossesse", label: "Grossesse" },
      { value: "naissance", label: "Naissance" },
      { value: "mariage", label: "Mariage" },
      { value: "identite", label: "Photo d'identité" },
      { value: "grand-bebe", label: "Grand bébé" },
      { value: "autre", label: "Autre" },
    ],
    sources: sources([{ value: "salon", label: "Salon" }]),
    hasTelephone: true,
    sourceRequired: true,
  },
  limoges: {
    studio: "limoges",
    shootingTypes: [
      { value: "portrait-famille", label: "Portrait & famille" },
      { value: "naissance", label: "Naissance" },
      { value: "grossesse-naissance", label: "Grossesse & naissance" },
      { value: "portrait-cv-pro", label: "Portrait CV & professionnel" },
      { value: "corporate", label: "Corporate & entreprise" },
      { value: "mariage", label: "Mariage" },
      { value: "mini-seance", label: "Mini-séance" },
      { value: "boudoir", label: "Boudoir" },
    ],
    sources: sources([
      { value: "carte-cadeau", label: "Carte cadeau" },
      { value: "bni", label: "Réseau BNI" },
      { value: "de-brive", label: "Par le studio de Brive" },
      { value: "toyota", label: "Toyota" },
      { value: "vitrine", label: "Vitrine du studio" },
      { value: "connaissance", label: "Une connaissance" },
      { value: "famille", label: "Famille" },
      { value: "amis", label: "Amis" },
      { value: "recommandation", label: "Recommandation" },
      { value: "sigma", label: "Sigma" },
    ]),
    hasTelephone: false,
    sourceRequired: false,
  },
};

export const MESSAGE_MAX_LENGTH = 5000;

/** Form field name of the spam trap: invisible to people, filled in by bots. */
export const HONEYPOT_FIELD = "site_web";

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

/** A valid message of any studio's form. */
export type ContactMessageInput = {
  shootingType: string;
  prenom: string;
  nom: string;
  email: string;
  telephone?: string;
  message: string;
  source?: string;
};

/** Validates one studio's form values (strings from the form) with that studio's schema. */
export function parseContactForm(studio: StudioId, input: Record<string, unknown>) {
  return contactSchemas[studio].safeParse(input) as
    { success: true; data: ContactMessageInput } | { success: false; error: z.ZodError };
}

/** The label of an option value, for e-mails and the admin; the value itself when unknown. */
export function optionLabel(options: Option[], value: string | null | undefined): string {
  if (!value) return "";
  return options.find((option) => option.value === value)?.label ?? value;
}
