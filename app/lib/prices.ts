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
