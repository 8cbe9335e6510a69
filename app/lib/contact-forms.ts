import type { StudioId } from "~/content/studios";

/**
 * The three studio contact forms (SPEC §3, §5): their fields, required rules and option lists. Their zod
 * schemas are in ./contact-schema: the server imports them, the browser loads them when a visitor starts
 * on a form (zod is ~22 KB that the page does not need to show itself).
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

/** The label of an option value, for e-mails and the admin; the value itself when unknown. */
export function optionLabel(options: Option[], value: string | null | undefined): string {
  if (!value) return "";
  return options.find((option) => option.value === value)?.label ?? value;
}
