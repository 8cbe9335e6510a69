/*
 * The subscriber import's limits and words, shared by the page (a check before sending) and the server (the
 * authority). The CSV itself is read on the server only (server/newsletter/subscriber-import.server.ts).
 */
import { formatSize } from "./sizes";

/** Largest file accepted: a list of 20,000 addresses with their dates is well under 1 MB. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

/** Most data lines read from one file. */
export const MAX_IMPORT_LINES = 20_000;

/** The owner's attestation, the label of the box she ticks; recorded with each imported address. */
export const IMPORT_ATTESTATION = "Ces personnes ont accepté de recevoir la newsletter";

export const importMessages = {
  noFile: "Choisissez le fichier CSV à importer.",
  tooLarge: `Le fichier dépasse ${formatSize(MAX_IMPORT_BYTES)} : découpez-le en plusieurs fichiers.`,
  attestation:
    "Cochez cette case : seules des personnes ayant accepté de recevoir la newsletter peuvent être importées.",
} as const;

/** The import form's fields, checked in the browser before the file is sent (the server checks again). */
export function importFormErrors(
  file: { size: number } | null,
  attested: boolean,
): Partial<Record<"fichier" | "attestation", string>> {
  const errors: Partial<Record<"fichier" | "attestation", string>> = {};
  if (!file || file.size === 0) errors.fichier = importMessages.noFile;
  else if (file.size > MAX_IMPORT_BYTES) errors.fichier = importMessages.tooLarge;
  if (!attested) errors.attestation = importMessages.attestation;
  return errors;
}

/** An import's outcome as the page shows it. */
export type ImportSummary = {
  fileName: string;
  added: number;
  /** Already subscribed or waiting for their confirmation: left as they were. */
  alreadyPresent: number;
  /** People who left: never subscribed again by an import. */
  unsubscribed: number;
  invalid: Array<{ line: number; reason: string }>;
  /** How many invalid lines there are in all (the list may be cut). */
  invalidCount: number;
};
