import type { Prices } from "~/content/schemas";
import { formatPrice } from "~/lib/prices";

/** Value of the `onglet` URL parameter: the tabs of the prices page. */
export type PriceTabId = Prices["tabs"][number]["id"];

export const defaultPriceTab = "particuliers" satisfies PriceTabId;

/** The tab named by `?onglet=`, the default one for any other value. */
export function priceTabFromParameter(value: string | null): PriceTabId {
  return value === "pro" ? "pro" : defaultPriceTab;
}

/** A price quoted in a page's text: « 79 € » alone, and « à 79 € » after a noun (« Séance famille à 79 € »). */
export type QuotedPrice = { amount: string; phrase: string };

/**
 * The price of a card of /tarifs, for the pages that quote it, found by the card's title. Undefined when the
 * owner renamed or removed that card, or made it « Sur devis »: the page then words its sentence without a
 * price (and the figures stay on /tarifs).
 */
export function quotedPrice(prices: Prices, title: string): QuotedPrice | undefined {
  const wanted = title.trim().toLocaleLowerCase("fr-FR");
  const card = prices.tabs
    .flatMap((tab) => tab.cards)
    .find((candidate) => candidate.title.trim().toLocaleLowerCase("fr-FR") === wanted);
  if (!card || card.price.kind === "quote") return undefined;
  const amount = formatPrice(card.price);
  return { amount, phrase: card.price.kind === "fixed" ? `à ${amount}` : amount };
}
