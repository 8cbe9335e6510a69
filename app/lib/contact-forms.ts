import type { ContactFormSettings, Option } from "~/content/schemas";

/**
 * The studios' contact forms (SPEC §3, §5). Each studio's shooting types, sources and required fields are
 * data, edited with the studio (`StudioData.contactForm`, /admin/studios); this module holds what every
 * form shares. The zod schema built from a studio's settings is in ./contact-schema: the server imports it,
 * the browser loads it when a visitor starts on a form (zod is ~22 KB that the page does not need to show
 * itself).
 */

export type { ContactFormSettings, Option };

/** contact_messages.studio keeps the studio's slug in at most this many characters. */
export const CONTACT_STUDIO_SLUG_MAX = 20;

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
