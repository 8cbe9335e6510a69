/**
 * A price as the business states it: a fixed amount, a starting amount, or a quote. Amounts are whole euros.
 */
export type Price =
  { kind: "fixed"; euros: number } | { kind: "from"; euros: number } | { kind: "quote" };

export const fixedPrice = (euros: number): Price => ({ kind: "fixed", euros });
export const priceFrom = (euros: number): Price => ({ kind: "from", euros });
export const onQuote: Price = { kind: "quote" };

/**
 * 1200 → « 1 200 € », exactly as `Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" })` writes
 * whole euros (narrow no-break spaces between thousands, a no-break space before €), without Intl: the first
 * Intl object of a page loads its locale data, which costs a phone a long task while the page hydrates.
 */
export function formatEuros(euros: number): string {
  const sign = euros < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(euros)));
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f")}\u00a0€`;
}

/**
 * An amount in cents as French writes it: « 1 200 € » for whole euros, « 1 234,50 € » otherwise (the same
 * spaces as `formatEuros`). Payments count in cents (decision 0162).
 */
export function formatCents(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const whole = Math.trunc(cents / 100);
  const rest = Math.abs(cents % 100);
  if (rest === 0) return formatEuros(whole);
  const sign = cents < 0 ? "-" : "";
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  return `${sign}${digits},${String(rest).padStart(2, "0")}\u00a0€`;
}

/** « 79 € », « à partir de 990 € » or « Sur devis ». */
export function formatPrice(price: Price): string {
  switch (price.kind) {
    case "fixed":
      return formatEuros(price.euros);
    case "from":
      return `à partir de ${formatEuros(price.euros)}`;
    case "quote":
      return "Sur devis";
  }
}
