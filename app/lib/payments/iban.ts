/*
 * International bank account numbers (ISO 13616) as the owner types them for transfers: spaces and case
 * ignored, checked with their two check digits (ISO 7064 mod 97-10), and shown in groups of four as a bank
 * statement prints them. The length of each country's IBAN is checked for the SEPA countries a French
 * studio's clients bank in; another country's IBAN passes on its check digits alone.
 */

/** IBAN lengths of the SEPA area's countries (SWIFT's IBAN registry). */
const SEPA_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** The IBAN without spaces, in capitals (what is stored). */
export function compactIban(typed: string): string {
  return typed.replace(/[\s\u00a0\u202f-]/g, "").toUpperCase();
}

/** Whether `typed` is a well-formed IBAN whose check digits hold. */
export function isValidIban(typed: string): boolean {
  const iban = compactIban(typed);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expected = SEPA_LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) return false;
  // Country and check digits moved to the end, letters as 10–35, the number mod 97 must be 1: computed
  // piecewise so that it stays within a double's exact integers.
  const digits = [...`${iban.slice(4)}${iban.slice(0, 4)}`]
    .map((character) => (/\d/.test(character) ? character : String(character.charCodeAt(0) - 55)))
    .join("");
  let remainder = 0;
  for (let start = 0; start < digits.length; start += 7) {
    remainder = Number(`${remainder}${digits.slice(start, start + 7)}`) % 97;
  }
  return remainder === 1;
}

/** « FR76 3000 6000 0112 3456 7890 189 »: groups of four, as on a bank statement. */
export function formatIban(typed: string): string {
  return compactIban(typed).replace(/(.{4})(?=.)/g, "$1 ");
}
