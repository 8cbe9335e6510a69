import { describe, expect, it } from "vitest";
import { formatPriceInput, parsePriceInput } from "./price-input";
import { formatPrice } from "./prices";

describe("parsePriceInput", () => {
  it.each([
    ["129 €", { kind: "fixed", euros: 129 }],
    ["129", { kind: "fixed", euros: 129 }],
    ["1 200 €", { kind: "fixed", euros: 1200 }],
    ["1200€", { kind: "fixed", euros: 1200 }],
    ["49,00 €", { kind: "fixed", euros: 49 }],
    ["49,0 euros", { kind: "fixed", euros: 49 }],
    ["  79  € ", { kind: "fixed", euros: 79 }],
    ["à partir de 990 €", { kind: "from", euros: 990 }],
    ["A partir de 990", { kind: "from", euros: 990 }],
    ["dès 990 €", { kind: "from", euros: 990 }],
    ["Dès 1 500€", { kind: "from", euros: 1500 }],
    ["Sur devis", { kind: "quote" }],
    ["sur  devis", { kind: "quote" }],
    ["0 €", { kind: "fixed", euros: 0 }],
  ])("reads %j", (input, price) => {
    expect(parsePriceInput(input)).toEqual(price);
  });

  it("reads the site's own writing back (narrow no-break spaces)", () => {
    for (const price of [
      { kind: "fixed", euros: 79 },
      { kind: "fixed", euros: 1200 },
      { kind: "from", euros: 990 },
      { kind: "from", euros: 12_500 },
      { kind: "quote" },
    ] as const) {
      expect(formatPriceInput(price)).toBe(formatPrice(price));
      expect(parsePriceInput(formatPriceInput(price))).toEqual(price);
    }
    expect(parsePriceInput("1\u202f200\u00a0€")).toEqual({ kind: "fixed", euros: 1200 });
  });

  it.each([
    "",
    "douze euros",
    "€",
    "12,50 €",
    "1.200 €",
    "12 00 €",
    "-5 €",
    "129 $",
    "à partir de",
    "devis",
    "2 000 000 €",
    "99999999999999999999",
    "129 € par jour",
  ])("refuses %j", (input) => {
    expect(parsePriceInput(input)).toBeNull();
  });
});
