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
import { defineFields, readFields, tableValues } from "~/lib/field-table";
import { formatDayHours, parseDayHours } from "~/lib/hours-input";
import { slugify } from "~/lib/slug";

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

const OPTIONAL_LINK_HINT = "Adresse complète commençant par https://";

/** The studio itself (« Le studio »), in the form's order (its address and contacts follow). */
export const STUDIO_FIELDS = defineFields({
  name: {
    kind: "text",
    label: "Nom du studio",
    max: 100,
    required: "Indiquez le nom du studio",
    placeholder: "Studio de Tulle",
    row: "name",
  },
  city: {
    kind: "text",
    label: "Ville",
    max: 100,
    required: "Indiquez la ville du studio",
    hint: "Le nom du studio dans les menus et les titres.",
    row: "name",
  },
  slug: {
    kind: "text",
    label: "Adresse des pages",
    max: STUDIO_SLUG_MAX,
    required: "Indiquez l'adresse des pages du studio",
    pattern: {
      regex: STUDIO_SLUG_PATTERN,
      message: "Lettres minuscules, chiffres et tirets seulement (exemple : tulle)",
    },
  },
  description: {
    kind: "textarea",
    label: "Courte description",
    max: 500,
    required: "Indiquez une courte description",
    rows: 3,
    hint: "Sur la carte du studio et dans les résultats de recherche.",
  },
  longDescription: {
    kind: "textarea",
    label: "Description détaillée",
    inputLabel: "Description détaillée (facultative)",
    max: 3000,
    rows: 6,
    hint: "Sur la page du studio.",
  },
});

/** Its address and contacts (« Coordonnées »; its hours and closures follow them). */
export const STUDIO_ADDRESS_FIELDS = defineFields({
  street: {
    kind: "text",
    label: "Rue",
    max: 200,
    required: "Indiquez la rue",
    stored: "address.street",
  },
  postalCode: {
    kind: "text",
    label: "Code postal",
    required: "Le code postal compte 5 chiffres (exemple : 19200)",
    pattern: { regex: /^\d{5}$/, message: "Le code postal compte 5 chiffres (exemple : 19200)" },
    normalize: (text) => text.replace(/\s/g, ""),
    maxLength: 10,
    inputMode: "numeric",
    stored: "address.postalCode",
    row: "commune",
    columns: "sm:grid-cols-[10rem_1fr]",
  },
  addressCity: {
    kind: "text",
    label: "Commune",
    max: 100,
    required: "Indiquez la commune",
    hint: "Celle de l'adresse postale (par exemple Ambazac pour le studio de Limoges).",
    stored: "address.city",
    row: "commune",
  },
  phone: {
    kind: "tel",
    label: "Téléphone",
    max: 30,
    required: "Indiquez le téléphone du studio",
    inputMode: "tel",
    row: "contact",
  },
  email: {
    kind: "email",
    label: "E-mail",
    max: 255,
    required: "Indiquez l'e-mail du studio",
    invalid: "Adresse e-mail invalide (exemple : studio@exemple.fr)",
    hint: "Les messages du formulaire de contact du studio y sont envoyés.",
    row: "contact",
  },
  bookingUrl: {
    kind: "url",
    label: "Lien de réservation",
    inputLabel: "Lien de réservation (facultatif)",
    max: 500,
    hint: OPTIONAL_LINK_HINT,
  },
  onlineBooking: {
    kind: "boolean",
    label: "Réservation en ligne",
    hint: "Les visiteurs choisissent leur séance et leur créneau directement sur le site ; sinon, le bouton « Réserver » du studio mène au lien de réservation ci-dessus. Il faut d'abord une séance proposée dans ce studio et un photographe qui y travaille.",
  },
  giftVoucherUrl: {
    kind: "url",
    label: "Lien des bons cadeaux",
    inputLabel: "Lien des bons cadeaux (facultatif)",
    max: 500,
    hint: OPTIONAL_LINK_HINT,
  },
  // The two coordinates are read together (both or neither), by `parseStudioForm`.
  latitude: {
    kind: "decimal",
    label: "Latitude",
    inputLabel: "Latitude (facultative)",
    free: true,
    maxLength: 20,
    inputMode: "decimal",
    hint: "Pour la carte, par exemple 45,5477.",
    stored: "geo.latitude",
    row: "map",
  },
  longitude: {
    kind: "decimal",
    label: "Longitude",
    inputLabel: "Longitude (facultative)",
    free: true,
    maxLength: 20,
    inputMode: "decimal",
    hint: "Par exemple 2,3094.",
    stored: "geo.longitude",
    row: "map",
  },
});

/** The settings of the studio's contact form, after its hours and closures. */
export const STUDIO_CONTACT_FORM_FIELDS = defineFields({
  // Options, one label per line, read by `parseOptions`.
  shootingTypes: {
    kind: "textarea",
    label: "Types de séance",
    free: true,
    rows: 8,
    hint: "Un type par ligne, dans l'ordre de la liste.",
    stored: "contactForm.shootingTypes",
    row: "options",
  },
  sources: {
    kind: "textarea",
    label: "Sources",
    inputLabel: "Sources (« Comment nous avez-vous connus ? »)",
    free: true,
    rows: 8,
    hint: "Une source par ligne. Laissez vide pour ne pas poser la question.",
    stored: "contactForm.sources",
    row: "options",
  },
  telephone: {
    kind: "choice",
    label: "Téléphone dans le formulaire",
    choices: Object.entries(TELEPHONE_CHOICES).map(([value, label]) => ({
      value: value as ContactFormSettings["telephone"],
      label,
    })),
    message: "Choisissez si le téléphone est demandé",
    initial: "required",
    stored: "contactForm.telephone",
  },
  sourceRequired: {
    kind: "boolean",
    label: "Source obligatoire",
    inputLabel: "La source est obligatoire",
    stored: "contactForm.sourceRequired",
  },
});

/** What the studio's history calls each stored field. */
export const STUDIO_HISTORY_LABELS = {
  ...STUDIO_FIELDS.historyLabels,
  ...STUDIO_ADDRESS_FIELDS.historyLabels,
  ...STUDIO_CONTACT_FORM_FIELDS.historyLabels,
};

/** A stored studio as the form's fields. */
export function studioFormValues(slug: string, data: StudioData): Record<string, string> {
  const values: Record<string, string> = {
    ...tableValues(STUDIO_FIELDS, { ...data, slug }),
    ...tableValues(STUDIO_ADDRESS_FIELDS, {
      ...data,
      street: data.address.street,
      postalCode: data.address.postalCode,
      addressCity: data.address.city,
      latitude: data.geo ? String(data.geo.latitude).replace(".", ",") : "",
      longitude: data.geo ? String(data.geo.longitude).replace(".", ",") : "",
    }),
    ...tableValues(STUDIO_CONTACT_FORM_FIELDS, {
      ...data.contactForm,
      shootingTypes: data.contactForm.shootingTypes.map((option) => option.label).join("\n"),
      sources: data.contactForm.sources.map((option) => option.label).join("\n"),
    }),
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
  const studio = readFields(STUDIO_FIELDS, values);
  const address = readFields(STUDIO_ADDRESS_FIELDS, values);
  const contactForm = readFields(STUDIO_CONTACT_FORM_FIELDS, values);
  const errors: FieldErrors = { ...studio.errors, ...address.errors, ...contactForm.errors };

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
  const latitude = address.data.latitude ?? "";
  const longitude = address.data.longitude ?? "";
  let geo: StudioData["geo"] = null;
  if (latitude.trim() || longitude.trim()) {
    const latitudeValue = parseCoordinate(latitude, 90);
    const longitudeValue = parseCoordinate(longitude, 180);
    if (latitudeValue === undefined) errors.latitude = "Latitude invalide (exemple : 45,5477)";
    if (longitudeValue === undefined) errors.longitude = "Longitude invalide (exemple : 2,3094)";
    if (latitudeValue !== undefined && longitudeValue !== undefined) {
      geo = { latitude: latitudeValue, longitude: longitudeValue };
    }
  }

  const settings = contactForm.data;
  const shootingTypes = parseOptions(
    settings.shootingTypes ?? "",
    previous?.contactForm.shootingTypes ?? [],
    "types de séance",
  );
  if (!shootingTypes.ok) errors.shootingTypes = shootingTypes.error;
  else if (shootingTypes.options.length === 0) {
    errors.shootingTypes = "Indiquez au moins un type de séance";
  }
  const sources = parseOptions(
    settings.sources ?? "",
    previous?.contactForm.sources ?? [],
    "sources",
  );
  if (!sources.ok) errors.sources = sources.error;

  if (
    !studio.ok ||
    !address.ok ||
    !contactForm.ok ||
    !shootingTypes.ok ||
    !sources.ok ||
    Object.keys(errors).length > 0
  ) {
    return { ok: false, errors };
  }
  // The coordinates were read above, as `geo`.
  const { slug, ...fields } = studio.data;
  const { street, postalCode, addressCity, latitude: _, longitude: __, ...contacts } = address.data;
  return {
    ok: true,
    slug,
    data: {
      ...fields,
      ...contacts,
      address: { street, postalCode, city: addressCity },
      hours,
      closures,
      geo,
      photo: previous?.photo ?? newPhoto,
      contactForm: {
        ...contactForm.data,
        shootingTypes: shootingTypes.options,
        sources: sources.options,
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
    ...STUDIO_FIELDS.names,
    ...STUDIO_ADDRESS_FIELDS.names,
    ...DAYS.map(hoursField),
    ...closures,
    ...STUDIO_CONTACT_FORM_FIELDS.names,
  ];
}
