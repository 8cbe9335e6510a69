/**
 * The seed's demo values that say they are not real (decision 0070): an example address, the range of
 * numbers reserved for fiction (05 36 49), zeros where a registration number goes, the « Exemple » host.
 * The go-live checklist counts a fact as done once it no longer looks like one of them.
 */
const PLACEHOLDER_PATTERNS = [
  /example\.(com|org|net)/i,
  /\bexemple\b/i,
  /studiophotoexemple/i,
  /^0?5 ?36 ?49\b/,
  /\b0{3} ?0{3} ?0{3}\b/,
  /^FR00/,
  /Prénom Nom/,
  /^01 00 00 00 00$/,
];

/** True for a value of the seed that says it is not real (an example address, a fictional number…). */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_PATTERNS.some((pattern) => pattern.test(value.trim()));
}
