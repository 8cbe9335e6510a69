import { z } from "~/lib/zod";

/** The media library's forms (decision 0070): a photo's alternative text and focal point. */

export const ALT_MAX_LENGTH = 300;

const focal = (axis: string) =>
  z.preprocess(
    (value) => (value === undefined || value === "" ? 50 : Number(value)),
    z
      .number({ error: `La position ${axis} est un nombre entre 0 et 100.` })
      .int(`La position ${axis} est un nombre entier entre 0 et 100.`)
      .min(0, `La position ${axis} est un nombre entre 0 et 100.`)
      .max(100, `La position ${axis} est un nombre entre 0 et 100.`),
  );

export const mediaDetailsSchema = z.object({
  alt: z
    .string({ error: "Décrivez la photo en quelques mots : le texte alternatif est obligatoire." })
    .trim()
    .min(1, "Décrivez la photo en quelques mots : le texte alternatif est obligatoire.")
    .max(ALT_MAX_LENGTH, `Le texte alternatif fait ${ALT_MAX_LENGTH} caractères au plus.`),
  focalX: focal("horizontale"),
  focalY: focal("verticale"),
});
export type MediaDetailsForm = z.output<typeof mediaDetailsSchema>;

/** The upload form's fields besides the file. */
export const UPLOAD_TEXT_FIELDS = ["alt", "focalX", "focalY", "emplacement"] as const;

/** Where the upload form posts without JavaScript (a page that shows the form again on a refusal)… */
export const UPLOAD_PAGE_PATH = "/admin/medias/televerser";
/** …and where the page's script sends it, with its progress (answers JSON). */
export const UPLOAD_XHR_PATH = "/admin/medias/televerser/envoi";

/** What the upload answers to the page's script. */
export type UploadAnswer =
  | { ok: true; location: string; message: string }
  | { ok: false; values: Record<string, string>; errors: Partial<Record<string, string>> };

/** The address of the slot picker for a slot key. */
export function slotPickerPath(slot: string): string {
  return `/admin/medias/emplacements/choisir?emplacement=${encodeURIComponent(slot)}`;
}
