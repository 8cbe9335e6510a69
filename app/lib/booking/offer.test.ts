import { describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import { sessionOffer } from "./offer";

const TYPE_ID = "0b8e4c36-4f52-4a43-9a4b-0c7f0f3e1a11";

function pricesLinking(title: string) {
  const prices = structuredClone(seedDocuments.prices);
  for (const card of prices.tabs.flatMap((tab) => tab.cards)) {
    if (card.title === title) card.sessionType = TYPE_ID;
  }
  return prices;
}

describe("the offer of a session type", () => {
  it("is its price card's when a card names it: one price, one « ce qui est compris »", () => {
    const offer = sessionOffer(pricesLinking("Séance Famille"), {
      id: TYPE_ID,
      priceText: "129 €",
      includedText: "Autre chose",
    });
    expect(offer).toEqual({
      price: "79\u00a0€",
      included: [
        "Séance de 45 min à 1 h en studio",
        "Un tirage papier 20x30 cm offert",
        "Découverte de vos photos 10 jours après la séance",
      ],
      card: "Séance Famille",
    });
  });

  it("is the type's own when no card names it, its inclusions one a line", () => {
    expect(
      sessionOffer(seedDocuments.prices, {
        id: TYPE_ID,
        priceText: " 120 € ",
        includedText: "Une heure au studio\n\n 10 photos retouchées ",
      }),
    ).toEqual({
      price: "120 €",
      included: ["Une heure au studio", "10 photos retouchées"],
      card: null,
    });
  });
});
