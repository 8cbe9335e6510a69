import {
  DAYS,
  STUDIO_SLUG_PATTERN,
  type Closure,
  type ContactFormSettings,
  type DayOfWeek,
  type Option,
  type StudioData,
} from "~/content/schemas";
import { isIsoDay } from "~/lib/dates";
import type { FieldErrors } from "~/lib/forms";
import { formatDayHours, parseDayHours } from "~/lib/hours-input";
import { slugify } from "~/lib/slug";
import { z } from "~/lib/zod";

/*
 * The studio form of /admin/studios (decision 0070): every field of `StudioData` but its photo
 * (the media library's), plus its address (slug), as a French person types them. `studioFormValues` writes
 * a stored studio as the form's fields; `parseStudioForm` reads the fields back, with a French message at
 * each field that does not hold. The server is the authority (the form posts without JavaScript).
 */

/** contact_messages.studio is varchar(20): a studio's slug must fit in it. */
export const STUDIO_SLUG_MAX = 20;
/** Closure rows the form shows beyond the stored ones (« Ajouter une fermeture » adds one more). */
export const EMPTY_CLOSURE_ROWS = 1;
export const MAX_CLOSURES = 50;

export const hoursField = (day: DayOfWeek) => `hours-${day}`;
export const closureField = (part: "from" | "to" | "label", index: number) =>
  `closure-${part}-${index}`;

export const TELEPHONE_CHOICES: Record<ContactFormSettings["telephone"], string> = {
  required: "Obligatoire",
  optional: "Facultatif",
  none: "Pas de champ téléphone",
};

const text = (max: number, tooLong: string) => z.string().trim().max(max, tooLong);
const required = (max: number, missing: string, tooLong: string) =>
  text(max, tooLong).min(1, missing);
const httpsLink = (tooLong: string) =>
  text(500, tooLong).refine(
    (value) => value === "" || (/^https:\/\/[^\s/]+\.[^\s]+$/i.test(value) && URL.canParse(value)),
    "Le lien doit être une adresse complète commençant par https://",
  );

const simpleFields = z.object({
  name: required(100, "Indiquez le nom du studio", "100 caractères au plus"),
  city: required(100, "Indiquez la ville du studio", "100 caractères au plus"),
  slug: z
    .string()
    .trim()
    .min(1, "Indiquez l'adresse des pages du studio")
    .max(STUDIO_SLUG_MAX, `${STUDIO_SLUG_MAX} caractères au plus`)
    .regex(
      STUDIO_SLUG_PATTERN,
      "Lettres minuscules, chiffres et tirets seulement (exemple : tulle)",
    ),
  description: required(500, "Indiquez une courte description", "500 caractères au plus"),
  longDescription: text(3000, "3 000 caractères au plus"),
  street: required(200, "Indiquez la rue", "200 caractères au plus"),
  postalCode: z
    .string()
    .transform((value) => value.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{5}$/, "Le code postal compte 5 chiffres (exemple : 19200)")),
  addressCity: required(100, "Indiquez la commune", "100 caractères au plus"),
  phone: required(30, "Indiquez le téléphone du studio", "30 caractères au plus"),
  email: z
    .string()
    .trim()
    .min(1, "Indiquez l'e-mail du studio")
    .max(255, "255 caractères au plus")
    .pipe(z.email("Adresse e-mail invalide (exemple : studio@exemple.fr)")),
  bookingUrl: httpsLink("500 caractères au plus"),
  giftVoucherUrl: httpsLink("500 caractères au plus"),
});

/** A stored studio as the form's fields. */
export function studioFormValues(slug: string, data: StudioData): Record<string, string> {
  const values: Record<string, string> = {
    name: data.name,
    city: data.city,
    slug,
    description: data.description,
    longDescription: data.longDescription,
    street: data.address.street,
    postalCode: data.address.postalCode,
    addressCity: data.address.city,
    phone: data.phone,
    email: data.email,
    bookingUrl: data.bookingUrl,
    onlineBooking: data.onlineBooking ? "on" : "",
    giftVoucherUrl: data.giftVoucherUrl,
    latitude: data.geo ? String(data.geo.latitude).replace(".", ",") : "",
    longitude: data.geo ? String(data.geo.longitude).replace(".", ",") : "",
    shootingTypes: data.contactForm.shootingTypes.map((option) => option.label).join("\n"),
    sources: data.contactForm.sources.map((option) => option.label).join("\n"),
    telephone: data.contactForm.telephone,
    sourceRequired: data.contactForm.sourceRequired ? "on" : "",
    closureCount: String(data.closures.length + EMPTY_CLOSURE_ROWS),
  };
  for (const day of DAYS) values[hoursField(day)] = formatDayHours(data.hours[day]);
  data.closures.forEach((closure, index) => {
    values[closureField("from", index)] = closure.from;
    values[closureField("to", index)] = closure.to;
    values[closureField("label", index)] = closure.label;
  });
  return values;
}

/** How many closure rows the form shows for these values. */
export function closureRowCount(values: Record<string, string>): number {
  const count = Number.parseInt(values.closureCount ?? "", 10);
  return Number.isFinite(count) ? Math.min(Math.max(count, 1), MAX_CLOSURES) : EMPTY_CLOSURE_ROWS;
}

/** Options, one label per line; each keeps the value it had for the same label (messages refer to it). */
function parseOptions(
  input: string,
  previous: readonly Option[],
  what: string,
): { ok: true; options: Option[] } | { ok: false; error: string } {
  const labels = input
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (labels.length > 30) return { ok: false, error: `30 ${what} au plus` };
  const options: Option[] = [];
  const taken = new Set<string>();
  for (const label of labels) {
    if (label.length > 100)
      return { ok: false, error: `« ${label.slice(0, 30)}… » : 100 caractères au plus` };
    if (options.some((option) => option.label.toLowerCase() === label.toLowerCase())) {
      return { ok: false, error: `« ${label} » est écrit deux fois` };
    }
    const kept = previous.find((option) => option.label === label)?.value;
    let value = kept ?? slugify(label).slice(0, 45).replace(/-+$/, "");
    if (!value)
      return { ok: false, error: `« ${label} » doit contenir au moins une lettre ou un chiffre` };
    if (!kept) {
      let suffix = 2;
      const base = value;
      while (
        taken.has(value) ||
        previous.some((option) => option.value === value && option.label !== label)
      ) {
        value = `${base}-${suffix}`;
        suffix += 1;
      }
    }
    taken.add(value);
    options.push({ value, label });
  }
  return { ok: true, options };
}

/** « 45,5477 » or « 45.5477 » as a number between -limit and limit. */
function parseCoordinate(input: string, limit: number): number | undefined {
  const text = input.trim().replace(",", ".");
  if (!/^-?\d{1,3}(\.\d{1,8})?$/.test(text)) return undefined;
  const value = Number(text);
  return Math.abs(value) <= limit ? value : undefined;
}

export type ParsedStudioForm =
  { ok: true; slug: string; data: StudioData } | { ok: false; errors: FieldErrors };

/**
 * Reads the form's fields. `previous` is the stored studio (its photo is kept, its options keep their
 * values); a new studio takes `newPhoto`.
 */
export function parseStudioForm(
  values: Record<string, string>,
  previous: StudioData | null,
  newPhoto: string,
): ParsedStudioForm {
  const errors: FieldErrors = {};
  const simple = simpleFields.safeParse(values);
  if (!simple.success) {
    for (const issue of simple.error.issues) {
      const field = String(issue.path[0] ?? "form");
      errors[field] ??= issue.message;
    }
  }

  const hours: StudioData["hours"] = {};
  for (const day of DAYS) {
    const parsed = parseDayHours(day, values[hoursField(day)] ?? "");
    if (!parsed.ok) errors[hoursField(day)] = parsed.error;
    else if (parsed.ranges.length > 0) hours[day] = parsed.ranges;
  }

  const closures: Closure[] = [];
  for (let index = 0; index < closureRowCount(values); index += 1) {
    const from = (values[closureField("from", index)] ?? "").trim();
    const to = (values[closureField("to", index)] ?? "").trim() || from;
    const label = (values[closureField("label", index)] ?? "").trim();
    if (!from && !to && !label) continue;
    if (!isIsoDay(from)) {
      errors[closureField("from", index)] = "Indiquez le premier jour de fermeture";
    } else if (!isIsoDay(to)) {
      errors[closureField("to", index)] = "Indiquez le dernier jour de fermeture";
    } else if (to < from) {
      errors[closureField("to", index)] = "Le dernier jour doit suivre le premier";
    } else if (label.length > 100) {
      errors[closureField("label", index)] = "100 caractères au plus";
    } else {
      closures.push({ from, to, label });
    }
  }

  const latitudeText = (values.latitude ?? "").trim();
  const longitudeText = (values.longitude ?? "").trim();
  let geo: StudioData["geo"] = null;
  if (latitudeText || longitudeText) {
    const latitude = parseCoordinate(latitudeText, 90);
    const longitude = parseCoordinate(longitudeText, 180);
    if (latitude === undefined) errors.latitude = "Latitude invalide (exemple : 45,5477)";
    if (longitude === undefined) errors.longitude = "Longitude invalide (exemple : 2,3094)";
    if (latitude !== undefined && longitude !== undefined) geo = { latitude, longitude };
  }

  const shootingTypes = parseOptions(
    values.shootingTypes ?? "",
    previous?.contactForm.shootingTypes ?? [],
    "types de séance",
  );
  if (!shootingTypes.ok) errors.shootingTypes = shootingTypes.error;
  else if (shootingTypes.options.length === 0) {
    errors.shootingTypes = "Indiquez au moins un type de séance";
  }
  const sources = parseOptions(
    values.sources ?? "",
    previous?.contactForm.sources ?? [],
    "sources",
  );
  if (!sources.ok) errors.sources = sources.error;

  const telephone = values.telephone;
  if (telephone !== "required" && telephone !== "optional" && telephone !== "none") {
    errors.telephone = "Choisissez si le téléphone est demandé";
  }

  if (
    !simple.success ||
    Object.keys(errors).length > 0 ||
    !shootingTypes.ok ||
    !sources.ok ||
    (telephone !== "required" && telephone !== "optional" && telephone !== "none")
  ) {
    return { ok: false, errors };
  }
  const fields = simple.data;
  return {
    ok: true,
    slug: fields.slug,
    data: {
      name: fields.name,
      city: fields.city,
      description: fields.description,
      longDescription: fields.longDescription,
      address: { street: fields.street, postalCode: fields.postalCode, city: fields.addressCity },
      phone: fields.phone,
      email: fields.email,
      bookingUrl: fields.bookingUrl,
      onlineBooking: values.onlineBooking === "on",
      giftVoucherUrl: fields.giftVoucherUrl,
      hours,
      closures,
      geo,
      photo: previous?.photo ?? newPhoto,
      contactForm: {
        shootingTypes: shootingTypes.options,
        sources: sources.options,
        telephone,
        sourceRequired: values.sourceRequired === "on",
      },
    },
  };
}

/** Every field name the form shows, in page order (for the error summary and focus). */
export function studioFieldOrder(closureRows: number): string[] {
  const closures = Array.from({ length: closureRows }, (_, index) => [
    closureField("from", index),
    closureField("to", index),
    closureField("label", index),
  ]).flat();
  return [
    "name",
    "city",
    "slug",
    "description",
    "longDescription",
    "street",
    "postalCode",
    "addressCity",
    "phone",
    "email",
    "bookingUrl",
    "onlineBooking",
    "giftVoucherUrl",
    "latitude",
    "longitude",
    ...DAYS.map(hoursField),
    ...closures,
    "shootingTypes",
    "sources",
    "telephone",
    "sourceRequired",
  ];
}
