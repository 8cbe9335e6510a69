import { formatPrice, type Price } from "./prices";

/**
 * Prices as a French person types them (decision 0070): « 129 € », « 129 », « 1 200 € », « 1200€ »,
 * « 49,00 € », « à partir de 990 € », « dès 990 € », « Sur devis ». The form shows a stored price as the
 * site writes it (`formatPrice`, with narrow no-break spaces), and reads that back unchanged.
 */

export const INVALID_PRICE_MESSAGE =
  "Prix invalide : écrivez par exemple 129 €, à partir de 990 € ou Sur devis";

const MAX_EUROS = 1_000_000;

// Any run of spaces, no-break spaces (U+00A0) and narrow no-break spaces (U+202F) counts as one space.
const SPACES = /[\s\u00a0\u202f]+/g;
const FROM_PREFIX = /^(?:à partir de|a partir de|dès|des) /;
// Whole euros, thousands grouped by spaces or not, optional zero cents, optional euro sign or word.
const AMOUNT = /^(\d{1,3}(?: \d{3})+|\d+)(?:,(\d{1,2}))? ?(?:€|euros?|eur)?$/;

function euros(text: string): number | null {
  const match = AMOUNT.exec(text);
  if (!match?.[1]) return null;
  if (match[2] !== undefined && Number(match[2]) !== 0) return null;
  const value = Number(match[1].replaceAll(" ", ""));
  return Number.isSafeInteger(value) && value <= MAX_EUROS ? value : null;
}

/** The price a text states, or null when it states none. */
export function parsePriceInput(input: string): Price | null {
  const text = input.replace(SPACES, " ").trim().toLowerCase();
  if (text === "sur devis") return { kind: "quote" };
  const from = FROM_PREFIX.exec(text);
  const amount = euros(from ? text.slice(from[0].length) : text);
  if (amount === null) return null;
  return from ? { kind: "from", euros: amount } : { kind: "fixed", euros: amount };
}

/** A stored price as the form shows it (what the site writes). */
export function formatPriceInput(price: Price): string {
  return formatPrice(price);
}
