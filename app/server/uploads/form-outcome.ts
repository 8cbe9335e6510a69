import { DUPLICATE, EMPTY_CHOICE, SERVER_ERROR, TOO_LARGE, UNSUPPORTED } from "./messages";

/**
 * The outcome of a photo sent by the gallery page's plain form (without JavaScript, where no toast shows):
 * the form's route sends the page back with `?envoi=<word>`, and the page writes the sentence beside the
 * form. Only these words are read: the address cannot make the page say anything else.
 */
export const FORM_OUTCOME_PARAM = "envoi";

const OUTCOMES = {
  ok: { ok: true, text: "Photo envoyée : elle est en préparation." },
  "trop-grande": { ok: false, text: TOO_LARGE },
  format: { ok: false, text: UNSUPPORTED },
  doublon: { ok: false, text: DUPLICATE },
  vide: { ok: false, text: EMPTY_CHOICE },
  erreur: { ok: false, text: SERVER_ERROR },
} as const;

export type FormOutcome = keyof typeof OUTCOMES;

export function formOutcomeMessage(word: string): { ok: boolean; text: string } | null {
  return Object.hasOwn(OUTCOMES, word) ? OUTCOMES[word as FormOutcome] : null;
}
