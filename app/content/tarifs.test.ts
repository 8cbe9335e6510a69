import { describe, expect, it } from "vitest";
import { formatPrice } from "~/lib/prices";
import { priceTabFromParameter, priceTabs } from "./tarifs";

describe("price tabs", () => {
  it("opens 'Particuliers' by default and 'Pro & Mariages' for ?onglet=pro", () => {
    expect(priceTabFromParameter(null)).toBe("particuliers");
    expect(priceTabFromParameter("inconnu")).toBe("particuliers");
    expect(priceTabFromParameter("pro")).toBe("pro");
  });

  it("shows the prices of SPEC §9", () => {
    const prices = Object.fromEntries(
      priceTabs.flatMap((tab) => tab.cards).map((card) => [card.title, formatPrice(card.price)]),
    );
    expect(prices).toEqual({
      "Séance Famille": "79\u00a0€",
      "Séance Grossesse": "79\u00a0€",
      "Séance Naissance": "99\u00a0€",
      "Coffret Grossesse + Naissance": "129\u00a0€",
      "Portrait CV": "59\u00a0€",
      Mariages: "à partir de 990\u00a0€",
      "Prestations Pro": "Sur devis",
    });
  });
});
