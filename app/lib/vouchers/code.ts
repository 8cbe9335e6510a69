/**
 * Gift voucher codes (decision 0164): 12 characters of Crockford's base32 alphabet, 11 random and a check
 * character, shown as « 7K3Q-M2XD-9PTX ». The server generates them; the booking form and the admin read what
 * a person types or reads off paper.
 *
 * The check character makes the weighted sum of the 12 characters zero in the field GF(32): with the value
 * d_k of the k-th character, d_0·α^11 + d_1·α^10 + … + d_11·α^0 = 0, α a generator of the field's
 * multiplicative group (x⁵ + x² + 1). The weights α^11 … α^0 are nonzero and all different, so one changed
 * character (a multiple w·e ≠ 0) and a swap of any two characters, neighbours or not ((w_i + w_j)(a + b) ≠ 0)
 * always change the sum. Its 32 values are the alphabet itself: no extra check symbols to type.
 */

import { z } from "~/lib/zod";

/** Crockford's base32: digits and capitals without I, L, O and U. */
export const VOUCHER_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const VOUCHER_CODE_LENGTH = 12;
const RANDOM_CHARACTERS = VOUCHER_CODE_LENGTH - 1;

/** Random bytes, `crypto.getRandomValues` by default (the browser's and Node's); tests pass a seeded one. */
export type RandomBytes = (count: number) => Uint8Array;

const cryptoRandomBytes: RandomBytes = (count) => crypto.getRandomValues(new Uint8Array(count));

/** x·α in GF(32) built on x⁵ + x² + 1 (0b100101): shift left, reduce when x⁵ appears. */
function timesAlpha(value: number): number {
  const shifted = value << 1;
  return shifted & 0b100000 ? shifted ^ 0b100101 : shifted;
}

/** The weighted sum of the characters' values (Horner's rule: each step multiplies what came before by α). */
function weightedSum(values: number[]): number {
  return values.reduce((sum, value) => timesAlpha(sum) ^ value, 0);
}

const valueOf = (character: string) => VOUCHER_CODE_ALPHABET.indexOf(character);

/** The check character of the first 11 characters (already in the alphabet). */
export function voucherCheckCharacter(body: string): string {
  if (body.length !== RANDOM_CHARACTERS || [...body].some((character) => valueOf(character) < 0)) {
    throw new RangeError(`not 11 characters of the voucher alphabet: ${body}`);
  }
  // In GF(32) subtraction is addition: the check value is what cancels the sum of the body times α.
  return VOUCHER_CODE_ALPHABET.charAt(timesAlpha(weightedSum([...body].map(valueOf))));
}

/** Whether 12 characters of the alphabet carry their check character. */
function hasValidCheck(code: string): boolean {
  return weightedSum([...code].map(valueOf)) === 0;
}

/**
 * A new code, 12 characters without hyphens (the stored form). Each random character is the low five bits of
 * one byte: 256 is a multiple of 32, so every character of the alphabet is equally likely (55 random bits).
 */
export function generateVoucherCode(randomBytes: RandomBytes = cryptoRandomBytes): string {
  const bytes = randomBytes(RANDOM_CHARACTERS);
  if (bytes.length < RANDOM_CHARACTERS) throw new RangeError("not enough random bytes");
  let body = "";
  for (let index = 0; index < RANDOM_CHARACTERS; index++) {
    body += VOUCHER_CODE_ALPHABET.charAt((bytes[index] ?? 0) & 0b11111);
  }
  return body + voucherCheckCharacter(body);
}

/** « 7K3QM2XD9PTX » → « 7K3Q-M2XD-9PTX », how people read it (the PDF, e-mails, the admin). */
export function formatVoucherCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? "";
}

export type ParsedVoucherCode = { ok: true; code: string } | { ok: false; message: string };

/** Longer than any code written with spaces and hyphens: refused before any other work. */
const MAXIMUM_INPUT_LENGTH = 64;

// Spaces of every kind (a code copied from an e-mail or a PDF), invisible joiners, and dashes of every kind.
const IGNORED = /[\s\u200b-\u200d\u2060\ufeff\-\u2010-\u2015\u2212]/gu;

// Crockford's reading of the letters a person may type for a digit.
const READ_AS: Record<string, string> = { I: "1", L: "1", O: "0" };

const quoted = (characters: string[]) =>
  characters.map((character) => `« ${character} »`).join(", ");

/**
 * What a person typed (any case, with or without spaces and hyphens, I or L for 1, O for 0) → the stored
 * form of the code, or why it cannot be one, in French.
 */
export function parseVoucherCode(input: string): ParsedVoucherCode {
  if (input.length > MAXIMUM_INPUT_LENGTH) {
    return { ok: false, message: "Ce code est trop long : un code compte 12 caractères." };
  }
  const typed = [...input.replace(IGNORED, "")];
  if (typed.length === 0) return { ok: false, message: "Indiquez le code du bon cadeau." };
  const unknown = [
    ...new Set(
      typed.filter((character) => {
        const upper = character.toUpperCase();
        return !(upper in READ_AS) && (upper.length !== 1 || valueOf(upper) < 0);
      }),
    ),
  ];
  if (unknown.length === 1) {
    return {
      ok: false,
      message: `Ce code contient un caractère qui n'existe pas dans nos codes : ${quoted(unknown)}. Vérifiez-le sur le bon cadeau.`,
    };
  }
  if (unknown.length > 1) {
    return {
      ok: false,
      message: `Ce code contient des caractères qui n'existent pas dans nos codes : ${quoted(unknown)}. Vérifiez-les sur le bon cadeau.`,
    };
  }
  const code = typed.map((character) => {
    const upper = character.toUpperCase();
    return READ_AS[upper] ?? upper;
  });
  if (code.length < VOUCHER_CODE_LENGTH) {
    return {
      ok: false,
      message: `Ce code est incomplet : il compte 12 caractères, vous en avez saisi ${code.length}.`,
    };
  }
  if (code.length > VOUCHER_CODE_LENGTH) {
    return {
      ok: false,
      message: `Ce code est trop long : il compte 12 caractères, vous en avez saisi ${code.length}.`,
    };
  }
  const joined = code.join("");
  if (!hasValidCheck(joined)) {
    return {
      ok: false,
      message:
        "Ce code n'est pas valide : vérifiez chaque caractère, une lettre ou un chiffre a pu être mal recopié.",
    };
  }
  return { ok: true, code: joined };
}

/** A form's code field: what a person typed → the stored code, or the French reason as the field's error. */
export const voucherCodeSchema = z.string().transform((value, context) => {
  const parsed = parseVoucherCode(value);
  if (parsed.ok) return parsed.code;
  context.addIssue({ code: "custom", message: parsed.message });
  return z.NEVER;
});
