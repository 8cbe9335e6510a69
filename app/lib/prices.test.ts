import { describe, expect, it } from "vitest";
import { fixedPrice, formatCents, formatEuros, formatPrice, onQuote, priceFrom } from "./prices";

describe("formatPrice", () => {
  it("writes a fixed price with the euro sign after a no-break space", () => {
    expect(formatPrice(fixedPrice(79))).toBe("79\u00a0€");
  });

  it("separates thousands with a narrow no-break space", () => {
    expect(formatEuros(1200)).toBe("1\u202f200\u00a0€");
    expect(formatPrice(fixedPrice(2380))).toBe("2\u202f380\u00a0€");
  });

  it("writes a starting price as « à partir de »", () => {
    expect(formatPrice(priceFrom(990))).toBe("à partir de 990\u00a0€");
  });

  it("writes « Sur devis » for a price on quote", () => {
    expect(formatPrice(onQuote)).toBe("Sur devis");
  });

  it("never shows cents for whole euros", () => {
    expect(formatEuros(49)).not.toContain(",");
  });

  it("writes every amount as Intl's French currency format does", () => {
    const intl = new Intl.NumberFormat("fr-FR", {
      style: "currency",
      currency: "EUR",
      maximumFractionDigits: 0,
    });
    for (const euros of [0, 5, 49, 999, 1000, 1200, 12_345, 999_999, 1_000_000]) {
      expect(formatEuros(euros), String(euros)).toBe(intl.format(euros));
    }
  });
});

describe("formatCents", () => {
  it("writes cents as Intl's French currency format does, without decimals for whole euros", () => {
    const withCents = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
    const whole = new Intl.NumberFormat("fr-FR", {
      style: "currency",
      currency: "EUR",
      maximumFractionDigits: 0,
    });
    for (const cents of [0, 5, 50, 99, 100, 4_900, 123_450, 100_001, 99_999_999, -250, -100]) {
      const expected =
        cents % 100 === 0 ? whole.format(cents / 100) : withCents.format(cents / 100);
      expect(formatCents(cents), String(cents)).toBe(expected);
    }
  });

  it("refuses a fraction of a cent", () => {
    expect(() => formatCents(10.5)).toThrow(RangeError);
  });
});
