import { z } from "~/lib/zod";
import { isUuid } from "./forms";
import { isIsoDay } from "~/lib/dates";

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

const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "true" || value === "1");

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
  const latest = addToIsoDay(today, { months: MAX_EXPIRY_MONTHS });
  return z.object({
    title: z
      .string()
      .trim()
      .min(1, "Le titre est obligatoire")
      .max(
        GALLERY_LIMITS.title,
        `Le titre doit contenir au plus ${GALLERY_LIMITS.title} caractères`,
      ),
    clientName: z
      .string()
      .trim()
      .min(1, "Le nom du client est obligatoire")
      .max(
        GALLERY_LIMITS.clientName,
        `Le nom du client doit contenir au plus ${GALLERY_LIMITS.clientName} caractères`,
      ),
    clientEmail: z
      .string()
      .trim()
      .min(1, "L'e-mail du client est obligatoire")
      .max(GALLERY_LIMITS.clientEmail, "E-mail trop long")
      .pipe(z.email("E-mail invalide")),
    studioId: z
      .string()
      .optional()
      .transform((value) => (value ? value : null))
      .refine(
        (value) => value === null || (isUuid(value) && studioIds.includes(value)),
        "Choisissez un studio de la liste",
      ),
    sessionDate: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value ? value : null))
      .refine((value) => value === null || isIsoDay(value), "Date de la séance invalide"),
    expiresOn: z
      .string()
      .trim()
      .min(1, "La date d'expiration est obligatoire")
      .refine(isIsoDay, "Date d'expiration invalide")
      .refine(
        (value) => value >= today || value === currentExpiry,
        "La date d'expiration ne peut pas être passée",
      )
      .refine(
        (value) => value <= latest || value === currentExpiry,
        `La date d'expiration doit être dans ${MAX_EXPIRY_MONTHS} mois au plus`,
      ),
    purgeAfterDays: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, `Indiquez un nombre de jours entre 0 et ${MAX_PURGE_AFTER_DAYS}`)
      .transform(Number)
      .refine(
        (value) => value <= MAX_PURGE_AFTER_DAYS,
        `Indiquez un nombre de jours entre 0 et ${MAX_PURGE_AFTER_DAYS}`,
      ),
    downloadsAllowed: checkbox,
    watermark: checkbox,
    // Absent (an older form): the stored point is kept.
    coverFocus: z
      .string()
      .optional()
      .refine(
        (value) => value === undefined || value === "" || value in COVER_FOCUS,
        "Choisissez un cadrage de la liste",
      )
      .transform((value) => (value ? (value as CoverFocus) : undefined)),
  });
}

export type GalleryForm = z.output<ReturnType<typeof galleryFormSchema>>;

/** The fields in the order of the page (the error summary and the first invalid field follow it). */
export const GALLERY_FIELD_ORDER = [
  "title",
  "clientName",
  "clientEmail",
  "studioId",
  "sessionDate",
  "expiresOn",
  "purgeAfterDays",
  "downloadsAllowed",
  "watermark",
  "coverFocus",
] as const;

/** What a new gallery's form starts with. */
export function newGalleryValues(today: string): Record<string, string> {
  return {
    expiresOn: addToIsoDay(today, { days: DEFAULT_EXPIRY_DAYS }),
    purgeAfterDays: String(DEFAULT_PURGE_AFTER_DAYS),
    downloadsAllowed: "on",
  };
}
