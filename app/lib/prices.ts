/**
 * A price as the business states it: a fixed amount, a starting amount, or a quote. Amounts are whole euros.
 */
export type Price =
  { kind: "fixed"; euros: number } | { kind: "from"; euros: number } | { kind: "quote" };

export const fixedPrice = (euros: number): Price => ({ kind: "fixed", euros });
export const priceFrom = (euros: number): Price => ({ kind: "from", euros });
export const onQuote: Price = { kind: "quote" };

const euroFormat = new Intl.NumberFormat("fr-FR", {
  style: "currency",
  currency: "EUR",
  maximumFractionDigits: 0,
});

/** 1200 → « 1 200 € » (narrow no-break spaces, as French typography wants). */
export function formatEuros(euros: number): string {
  return euroFormat.format(euros);
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
