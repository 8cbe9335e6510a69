import { describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import { priceTabFromParameter, quotedPrice } from "./tarifs";

describe("price tabs", () => {
  it("opens 'Particuliers' by default and 'Pro & Mariages' for ?onglet=pro", () => {
    expect(priceTabFromParameter(null)).toBe("particuliers");
    expect(priceTabFromParameter("inconnu")).toBe("particuliers");
    expect(priceTabFromParameter("pro")).toBe("pro");
  });
});

describe("quotedPrice", () => {
  it("quotes the seeded prices of SPEC §9 by their card's title", () => {
    const { prices } = seedDocuments;
    const titles = prices.tabs.flatMap((tab) => tab.cards).map((card) => card.title);
    const quotes = titles.map((title) => [title, quotedPrice(prices, title)?.amount]);
    expect(Object.fromEntries(quotes)).toEqual({
      "Séance Famille": "79\u00a0€",
      "Séance Grossesse": "79\u00a0€",
      "Séance Naissance": "99\u00a0€",
      "Coffret Grossesse + Naissance": "129\u00a0€",
      "Portrait CV": "59\u00a0€",
      Mariages: "à partir de 990\u00a0€",
      // A quote has no figure to cite: the pages' sentences then name no price.
      "Prestations Pro": undefined,
    });
  });

  it("reads after a noun: « à 79 € », « à partir de 990 € »", () => {
    expect(quotedPrice(seedDocuments.prices, "Séance Famille")?.phrase).toBe("à 79\u00a0€");
    expect(quotedPrice(seedDocuments.prices, "Mariages")?.phrase).toBe("à partir de 990\u00a0€");
  });

  it("finds a card whatever the case and spaces of its title, and nothing once it is renamed", () => {
    const prices = structuredClone(seedDocuments.prices);
    const family = prices.tabs[0]?.cards[0];
    if (!family) throw new Error("seed without a first card");
    family.title = "  séance famille ";
    family.price = { kind: "fixed", euros: 85 };
    expect(quotedPrice(prices, "Séance Famille")?.amount).toBe("85\u00a0€");
    family.title = "Séance Famille & Enfants";
    expect(quotedPrice(prices, "Séance Famille")).toBeUndefined();
  });
});
