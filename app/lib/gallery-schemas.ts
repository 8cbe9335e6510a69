import type { z } from "~/lib/zod";
import { isIsoDay } from "~/lib/dates";
import { defineFields, tableSchema, tableValues } from "~/lib/field-table";
import { isUuid } from "./forms";

/*
 * The client galleries' admin form (decision 0103): its rules and French messages, read by the actions as the
 * authority. Lengths are the columns' (db/schema.ts `galleries`). Dates are days of the studios' calendar
 * (Europe/Paris), as `<input type="date">` posts them.
 */

export const GALLERY_LIMITS = {
  title: 200,
  clientName: 200,
  clientEmail: 255,
} as const;

/** A new gallery is open this long by default. */
export const DEFAULT_EXPIRY_DAYS = 60;
/** At most this far ahead (the personal-data rule of SPEC §9 counts 18 months from the last activity). */
export const MAX_EXPIRY_MONTHS = 18;
/** Files and rows are deleted this many days after the expiry by default. */
export const DEFAULT_PURGE_AFTER_DAYS = 30;
export const MAX_PURGE_AFTER_DAYS = 365;
/** How much « Prolonger » (the settings page) adds to the expiry. */
export const GALLERY_EXTENSION_DAYS = 30;

/** A real calendar day written YYYY-MM-DD (no 31/02; the product's one reader, decision 0122). */
export { isIsoDay };

/** `day` (YYYY-MM-DD) moved by whole days or months, as YYYY-MM-DD. */
export function addToIsoDay(
  day: string,
  { days = 0, months = 0 }: { days?: number; months?: number },
) {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1 + months, date + days));
  // 31 August + 6 months is the last day of February, not 3 March.
  if (months !== 0 && moved.getUTCDate() !== date && days === 0) moved.setUTCDate(0);
  return moved.toISOString().slice(0, 10);
}

/**
 * Where the cover stays centred when its box (4:5 on a phone, 5:2 wider) crops it, named as the owner
 * chooses it, with its point in % of the photo's width and height (decision 0134).
 */
export const COVER_FOCUS = {
  "haut-gauche": { label: "En haut à gauche", x: 0, y: 0 },
  haut: { label: "En haut", x: 50, y: 0 },
  "haut-droite": { label: "En haut à droite", x: 100, y: 0 },
  gauche: { label: "À gauche", x: 0, y: 50 },
  centre: { label: "Au centre", x: 50, y: 50 },
  droite: { label: "À droite", x: 100, y: 50 },
  "bas-gauche": { label: "En bas à gauche", x: 0, y: 100 },
  bas: { label: "En bas", x: 50, y: 100 },
  "bas-droite": { label: "En bas à droite", x: 100, y: 100 },
} as const;
export type CoverFocus = keyof typeof COVER_FOCUS;

/** The choice nearest a stored point. */
export function coverFocusOf(x: number, y: number): CoverFocus {
  const entries = Object.entries(COVER_FOCUS) as [CoverFocus, { x: number; y: number }][];
  const distance = (point: { x: number; y: number }) => (point.x - x) ** 2 + (point.y - y) ** 2;
  return entries.reduce((best, entry) =>
    distance(entry[1]) < distance(best[1]) ? entry : best,
  )[0];
}

/** What the gallery form's checks need: the Paris day of the request, the studios, the stored expiry. */
type GalleryFormContext = {
  /** parisToday(), as YYYY-MM-DD. */
  today: string;
  /** The current (not retired) studios. */
  studioIds: readonly string[];
  /** The stored expiry day when editing: kept as is, a past one is accepted. */
  currentExpiry: string | null;
};

/** Who the gallery is for (« La séance »). */
export const GALLERY_SESSION_FIELDS = defineFields({
  title: {
    kind: "text",
    label: "Titre de la galerie",
    max: GALLERY_LIMITS.title,
    required: "Le titre est obligatoire",
    tooLong: `Le titre doit contenir au plus ${GALLERY_LIMITS.title} caractères`,
    placeholder: "Séance en famille au bord du lac",
    hint: "Le client le lit en haut de sa galerie et dans l'e-mail.",
  },
  clientName: {
    kind: "text",
    label: "Nom du client",
    max: GALLERY_LIMITS.clientName,
    required: "Le nom du client est obligatoire",
    tooLong: `Le nom du client doit contenir au plus ${GALLERY_LIMITS.clientName} caractères`,
    row: "client",
  },
  clientEmail: {
    kind: "email",
    label: "E-mail du client",
    max: GALLERY_LIMITS.clientEmail,
    required: "L'e-mail du client est obligatoire",
    tooLong: "E-mail trop long",
    invalid: "E-mail invalide",
    hint: "Le lien et le code y sont envoyés.",
    row: "client",
  },
  studioId: {
    kind: "choice",
    label: "Studio",
    // The current studios, known when the form loads: checked against the context's.
    choices: [],
    message: "Choisissez un studio de la liste",
    checks: [
      {
        holds: (value: string, { studioIds }: GalleryFormContext) =>
          value === "" || (isUuid(value) && studioIds.includes(value)),
        message: "Choisissez un studio de la liste",
      },
    ],
    emptyIsNull: true,
    hint: "Ses coordonnées figurent dans l'e-mail ; les réponses du client lui arrivent.",
    row: "session",
  },
  sessionDate: {
    kind: "date",
    label: "Date de la séance",
    inputLabel: "Date de la séance (facultative)",
    invalid: "Date de la séance invalide",
    emptyIsNull: true,
    row: "session",
  },
});

/** Until when and what the client may do (« Accès du client »). */
export const GALLERY_ACCESS_FIELDS = defineFields({
  expiresOn: {
    kind: "date",
    label: "Ouverte jusqu'au",
    required: "La date d'expiration est obligatoire",
    invalid: "Date d'expiration invalide",
    checks: [
      {
        holds: (value: string, { today, currentExpiry }: GalleryFormContext) =>
          value >= today || value === currentExpiry,
        message: "La date d'expiration ne peut pas être passée",
      },
      {
        holds: (value: string, { today, currentExpiry }: GalleryFormContext) =>
          value <= addToIsoDay(today, { months: MAX_EXPIRY_MONTHS }) || value === currentExpiry,
        message: `La date d'expiration doit être dans ${MAX_EXPIRY_MONTHS} mois au plus`,
      },
    ],
    hint: `Inclus. ${MAX_EXPIRY_MONTHS} mois au plus.`,
    row: "dates",
  },
  purgeAfterDays: {
    kind: "number",
    label: "Suppression après l'expiration",
    inputLabel: "Suppression après l'expiration (jours)",
    min: 0,
    max: MAX_PURGE_AFTER_DAYS,
    unit: "jours",
    // The label says it.
    suffix: "",
    initial: DEFAULT_PURGE_AFTER_DAYS,
    message: `Indiquez un nombre de jours entre 0 et ${MAX_PURGE_AFTER_DAYS}`,
    hint: `Les photos et la galerie sont effacées ce nombre de jours après l'expiration (0 à ${MAX_PURGE_AFTER_DAYS}).`,
    row: "dates",
  },
  downloadsAllowed: {
    kind: "boolean",
    label: "Téléchargement",
    inputLabel: "Le client peut télécharger les photos (une à une ou toutes dans un ZIP)",
  },
  watermark: {
    kind: "boolean",
    label: "Filigrane",
    inputLabel: "Filigrane (le nom du studio) sur les photos affichées",
    hint: "À choisir avant d'envoyer l'invitation : un changement prépare de nouveau toutes les photos (quelques minutes pour des centaines), et chacune reste affichée comme avant jusque-là.",
  },
  // Not posted (an older form) or empty: the stored point is kept.
  coverFocus: {
    kind: "choice",
    label: "Cadrage de la couverture",
    choices: Object.entries(COVER_FOCUS).map(([value, { label }]) => ({
      value: value as CoverFocus,
      label,
    })),
    message: "Choisissez un cadrage de la liste",
    initial: "centre",
    emptyIsNull: true,
    editingOnly: true,
    hint: "Ce qui reste visible de la photo de couverture quand son cadre la rogne (en haut d'une galerie : 4:5 sur un téléphone, 5:2 sur un écran large).",
  },
});

/** Euros as the owner types them: « 5 », « 4,50 », « 1 200 » (read into cents by `eurosToCents`). */
const EUROS = /^\d{1,5}(?:[,.]\d{1,2})?$/;
const euros = (text: string) => text.replace(/[\s\u00a0\u202f€]/g, "");

/**
 * Extra photos sold from the client's gallery (« Photos supplémentaires », decision 0184): empty
 * included number, every photo is included as before.
 */
export const GALLERY_SALE_FIELDS = defineFields({
  includedPhotos: {
    kind: "text",
    label: "Photos incluses",
    inputLabel: "Nombre de photos incluses (facultatif)",
    inputMode: "numeric",
    normalize: (text) => text.replace(/\s/g, ""),
    pattern: { regex: /^\d{1,4}$/, message: "Indiquez un nombre entier de photos (0 à 9999)" },
    emptyIsNull: true,
    hint: "Vide : toutes les photos sont incluses. Sinon, le client télécharge ce nombre de photos de sa sélection validée et achète les autres.",
    editingOnly: true,
    row: "sale",
    columns: "sm:grid-cols-3",
  },
  extraPhotoPrice: {
    kind: "text",
    label: "Prix d'une photo supplémentaire",
    inputLabel: "Prix d'une photo supplémentaire (€)",
    inputMode: "decimal",
    normalize: euros,
    pattern: { regex: EUROS, message: "Indiquez un prix en euros, par exemple 12 ou 12,50" },
    emptyIsNull: true,
    stored: "extraPhotoPriceCents",
    editingOnly: true,
    row: "sale",
  },
  allPhotosPrice: {
    kind: "text",
    label: "Prix de toutes les photos",
    inputLabel: "Prix de toutes les photos (€, facultatif)",
    inputMode: "decimal",
    normalize: euros,
    pattern: { regex: EUROS, message: "Indiquez un prix en euros, par exemple 150 ou 149,90" },
    emptyIsNull: true,
    stored: "allPhotosPriceCents",
    hint: "Le client paie le moins cher des deux : ses photos en plus, ou toutes les photos.",
    editingOnly: true,
    row: "sale",
  },
});

/** « 12,50 » as cents (1250); null for an empty price. */
export function eurosToCents(text: string | null): number | null {
  if (text === null || text === "") return null;
  const [whole = "0", decimals = ""] = text.replace(",", ".").split(".");
  return Number(whole) * 100 + Number(decimals.padEnd(2, "0"));
}

/** Cents as the form writes them back: 1250 → « 12,50 », 1200 → « 12 ». */
export function centsToEuros(cents: number | null): string {
  if (cents === null) return "";
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(whole) : `${whole},${String(rest).padStart(2, "0")}`;
}

/**
 * The checks of the sale's fields together (after each field's own): a package needs a price for the
 * photos beyond it, and downloads allowed; a price needs a package. French messages at the field.
 */
export function gallerySaleErrors(form: {
  includedPhotos: string | null;
  extraPhotoPrice: string | null;
  allPhotosPrice: string | null;
  downloadsAllowed: boolean;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  const cents = [eurosToCents(form.extraPhotoPrice), eurosToCents(form.allPhotosPrice)];
  if (cents[0] === 0) errors.extraPhotoPrice = "Le prix d'une photo doit être supérieur à 0 €";
  if (cents[1] === 0)
    errors.allPhotosPrice = "Le prix de toutes les photos doit être supérieur à 0 €";
  if (form.includedPhotos === null) {
    if (cents[0] !== null || cents[1] !== null) {
      errors.includedPhotos =
        "Indiquez le nombre de photos incluses pour vendre les autres (0 si aucune n'est incluse)";
    }
    return errors;
  }
  if (cents[0] === null && cents[1] === null) {
    errors.extraPhotoPrice =
      "Indiquez le prix d'une photo supplémentaire (ou celui de toutes les photos)";
  }
  if (!form.downloadsAllowed) {
    errors.includedPhotos =
      "Autorisez le téléchargement pour vendre des photos : le client télécharge celles qu'il achète";
  }
  return errors;
}

const GALLERY_TABLES = [
  GALLERY_SESSION_FIELDS,
  GALLERY_ACCESS_FIELDS,
  GALLERY_SALE_FIELDS,
] as const;

/**
 * The gallery form. `today` is the Paris day of the request (parisToday()); `studioIds` the current
 * (not retired) studios; `currentExpiry` the stored expiry day when editing: a past expiry kept as is is
 * accepted (the owner edits the title of an expired gallery), any new one must not be in the past.
 */
export function galleryFormSchema({
  today,
  studioIds,
  currentExpiry = null,
}: {
  today: string;
  studioIds: readonly string[];
  currentExpiry?: string | null;
}) {
  const context: GalleryFormContext = { today, studioIds, currentExpiry };
  return tableSchema(GALLERY_TABLES, context);
}

export type GalleryForm = z.output<ReturnType<typeof galleryFormSchema>>;

/** The fields in the order of the page (the error summary and the first invalid field follow it). */
export const GALLERY_FIELD_ORDER = GALLERY_TABLES.flatMap((table) => table.names);

/** What the error summary calls each field. */
export const GALLERY_LABELS: Record<string, string> = Object.assign(
  { form: "Galerie" },
  ...GALLERY_TABLES.map((table) => table.labels),
);

/** A gallery's values (a stored one, with its expiry day, its days before deletion and its cover's framing) as the form's fields. */
export function galleryFormValues(
  gallery: Readonly<Record<string, unknown>>,
): Record<string, string> {
  return Object.assign({}, ...GALLERY_TABLES.map((table) => tableValues(table, gallery)));
}

/** What a new gallery's form starts with. */
export function newGalleryValues(today: string): Record<string, string> {
  return {
    ...Object.assign({}, ...GALLERY_TABLES.map((table) => table.initialValues)),
    expiresOn: addToIsoDay(today, { days: DEFAULT_EXPIRY_DAYS }),
    downloadsAllowed: "on",
  };
}
