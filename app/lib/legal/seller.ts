import type { Legal } from "~/content/schemas";
import { isPlaceholder } from "~/lib/placeholders";

/**
 * The seller's identity as French law asks it of an invoice, the legal notice and a consumer's contract
 * (decision 0176): SIRET and its SIREN, the TVA number or the franchise's mention, the consumer mediator.
 */

/** The mention a business under the « franchise en base » writes instead of the TVA (CGI art. 293 B). */
export const VAT_EXEMPT_MENTION = "TVA non applicable, art. 293 B du CGI";

const digitsOf = (value: string) => value.replace(/[\s.]/g, "");

/** Luhn's sum, as INSEE checks SIREN and SIRET numbers. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** La Poste's establishments (SIREN 356 000 000) are numbered by another rule: the digits' sum by 5. */
const LA_POSTE_SIREN = "356000000";

/** What is wrong with a SIRET as typed, in the owner's words; null when it is a valid one. */
export function siretProblem(value: string): string | null {
  const digits = digitsOf(value);
  if (!/^\d{14}$/.test(digits)) {
    return "Le SIRET compte 14 chiffres : par exemple 123 456 789 00012";
  }
  const valid = digits.startsWith(LA_POSTE_SIREN)
    ? [...digits].reduce((sum, digit) => sum + Number(digit), 0) % 5 === 0
    : luhnValid(digits);
  return valid ? null : "Ce SIRET n'existe pas : un chiffre est sans doute mal recopié";
}

/** The SIRET written as INSEE groups it (« 123 456 789 00012 »); the value unchanged when it is not one. */
export function formatSiret(value: string): string {
  const digits = digitsOf(value);
  return /^\d{14}$/.test(digits)
    ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)} ${digits.slice(9)}`
    : value.trim();
}

/** The company's number, the SIRET's first nine digits (« 123 456 789 »); "" without a SIRET. */
export function sirenOf(siret: string): string {
  const digits = digitsOf(siret);
  return /^\d{14}$/.test(digits)
    ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)}`
    : "";
}

/** A French TVA number without its spaces, upper case (« FR40123456789 »). */
function compactVat(value: string): string {
  return value.replace(/[\s.-]/g, "").toUpperCase();
}

/** The TVA number as the tax office prints it: « FR40 123456789 ». */
export function formatVatNumber(value: string): string {
  const compact = compactVat(value);
  return /^FR[0-9A-Z]{2}\d{9}$/.test(compact)
    ? `${compact.slice(0, 4)} ${compact.slice(4)}`
    : value.trim();
}

/** What is wrong with a French TVA number's form; null when it has one. */
export function vatNumberFormProblem(value: string): string | null {
  return /^FR[0-9A-HJ-NP-Z]{2}\d{9}$/.test(compactVat(value))
    ? null
    : "Le numéro de TVA s'écrit FR, deux caractères puis les 9 chiffres du SIREN : par exemple FR40 123456789";
}

/**
 * Whether a French TVA number belongs to the company of this SIRET: its nine last digits are the SIREN, and
 * a numeric key is (12 + 3 × (SIREN mod 97)) mod 97 (the letters of the other keys cannot be checked).
 */
export function vatNumberMatchesSiret(vatNumber: string, siret: string): boolean {
  const compact = compactVat(vatNumber);
  const siren = digitsOf(siret).slice(0, 9);
  if (compact.slice(4) !== siren) return false;
  const key = compact.slice(2, 4);
  if (!/^\d{2}$/.test(key)) return true;
  return Number(key) === (12 + 3 * (Number(siren) % 97)) % 97;
}

/** The TVA line of an invoice or of the legal notice. */
export function vatLine(legal: Pick<Legal, "vatRegime" | "vatNumber">): string | null {
  if (legal.vatRegime === "franchise") return VAT_EXEMPT_MENTION;
  return legal.vatNumber ? `N° de TVA intracommunautaire : ${legal.vatNumber}` : null;
}

const missing = (value: string) => value.trim() === "" || isPlaceholder(value);

/**
 * What the seller's identity still lacks for an invoice and a consumer's sale, in the owner's words (the
 * dashboard's checklist lists them; no invoice is issued while one is left): [] when nothing.
 */
export function sellerGaps(legal: Legal): string[] {
  const gaps: string[] = [];
  if (missing(legal.companyName)) gaps.push("raison sociale");
  if (missing(legal.legalForm)) gaps.push("forme juridique");
  if (missing(legal.address)) gaps.push("adresse du siège");
  if (missing(legal.rcs)) gaps.push("immatriculation (RCS ou RM)");
  if (missing(legal.siret) || siretProblem(legal.siret)) gaps.push("SIRET");
  if (
    legal.vatRegime === "assujetti" &&
    (missing(legal.vatNumber) ||
      vatNumberFormProblem(legal.vatNumber) ||
      !vatNumberMatchesSiret(legal.vatNumber, legal.siret))
  ) {
    gaps.push("numéro de TVA");
  }
  if (missing(legal.mediator.name)) gaps.push("médiateur de la consommation");
  if (missing(legal.mediator.website)) gaps.push("site du médiateur");
  return gaps;
}

/**
 * The seller in one line, under a client's e-mail: who sells, where, the numbers and the TVA's mention
 * (« Studio SARL, SARL au capital de 1 000 €, 19 rue …, Ussel · SIRET … · TVA non applicable, art. 293 B du CGI »).
 */
export function sellerLine(legal: Legal): string {
  return [
    [legal.companyName, legal.legalForm, legal.address].filter(Boolean).join(", "),
    legal.rcs,
    `SIRET ${legal.siret}`,
    vatLine(legal),
  ]
    .filter(Boolean)
    .join(" · ");
}
