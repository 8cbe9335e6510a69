import type { Prices } from "~/content/schemas";
import { formatPrice } from "~/lib/prices";

/*
 * One price list (decision 0127): a session type linked to a card of /tarifs (the card's `sessionType`) is
 * that card's offer, and the card is the one home of its price and of « ce qui est compris » (its
 * features). A type no card names keeps the price and inclusions typed on the type itself.
 */

export type SessionOffer = {
  /** « 79 € », « à partir de 990 € »; "" when none is given. */
  price: string;
  /** What is included, one line each. */
  included: string[];
  /** The title of the card it is the offer of, if any. */
  card: string | null;
};

type OfferedType = { id: string; priceText: string; includedText: string };

/** The card of /tarifs whose offer this session type is, if any. */
export function cardOfSessionType(prices: Prices, sessionTypeId: string) {
  return (
    prices.tabs.flatMap((tab) => tab.cards).find((card) => card.sessionType === sessionTypeId) ??
    null
  );
}

/** The price and inclusions a session type is sold at: its card's, else its own. */
export function sessionOffer(prices: Prices, type: OfferedType): SessionOffer {
  const card = cardOfSessionType(prices, type.id);
  if (card) {
    return { price: formatPrice(card.price), included: [...card.features], card: card.title };
  }
  return {
    price: type.priceText.trim(),
    included: type.includedText
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean),
    card: null,
  };
}
