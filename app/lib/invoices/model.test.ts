import { describe, expect, it } from "vitest";
import {
  creditNoteOf,
  invoiceNumber,
  invoiceTotals,
  readInvoiceNumber,
  seriesOf,
  shareAcrossRates,
  standingByRate,
  type VatShare,
} from "./model";

describe("invoice numbers", () => {
  it("are the series, the year and six digits; credit notes have their own series", () => {
    expect(invoiceNumber("F", 2027, 123)).toBe("F-2027-000123");
    expect(invoiceNumber("A", 2027, 4)).toBe("A-2027-000004");
    expect(invoiceNumber("F", 2027, 1_234_567)).toBe("F-2027-1234567");
    expect(seriesOf("deposit")).toBe("F");
    expect(seriesOf("final")).toBe("F");
    expect(seriesOf("credit_note")).toBe("A");
  });
});

describe("an invoice number typed in a search", () => {
  it("is read in full, in any case, with or without its dashes or its zeros", () => {
    const full = { series: "F", year: 2026, sequence: 123 };
    for (const typed of [
      "F-2026-000123",
      "f-2026-000123",
      "F2026000123",
      "f 2026 000123",
      "F-2026-123",
    ]) {
      expect(readInvoiceNumber(typed), typed).toEqual(full);
    }
    expect(readInvoiceNumber("A-2026-1234567")).toEqual({
      series: "A",
      year: 2026,
      sequence: 1_234_567,
    });
  });

  it("leaves out what is not typed: the series, or the year and the series", () => {
    expect(readInvoiceNumber("2026-123")).toEqual({ series: null, year: 2026, sequence: 123 });
    expect(readInvoiceNumber("2026000123")).toEqual({ series: null, year: 2026, sequence: 123 });
    expect(readInvoiceNumber("123")).toEqual({ series: null, year: null, sequence: 123 });
    expect(readInvoiceNumber(" 000123 ")).toEqual({ series: null, year: null, sequence: 123 });
  });

  it("is no number for a name, an e-mail or a number too long", () => {
    for (const typed of [
      "Martin",
      "martin@exemple.fr",
      "F-123",
      "F2026123",
      "12345678901234",
      "F-26-123",
      "",
    ]) {
      expect(readInvoiceNumber(typed), typed).toBeNull();
    }
  });
});

describe("invoice totals", () => {
  it("derive the TVA once per rate from the TTC, so that lines never drift by a cent", () => {
    // Three lines of 9,99 € TTC at 20 %: 29,97 € TTC → 24,975 HT rounded once to 24,98, TVA 4,99.
    const totals = invoiceTotals([
      { label: "Tirage 20×30", quantity: 1, unitPriceCents: 999, vatRate: 2000 },
      { label: "Tirage 20×30", quantity: 1, unitPriceCents: 999, vatRate: 2000 },
      { label: "Tirage 20×30", quantity: 1, unitPriceCents: 999, vatRate: 2000 },
    ]);
    expect(totals).toEqual({
      htCents: 2498,
      vatCents: 499,
      ttcCents: 2997,
      byRate: [{ vatRate: 2000, htCents: 2498, vatCents: 499, ttcCents: 2997 }],
    });
  });

  it("keep each rate apart, no TVA first, and add them up", () => {
    const totals = invoiceTotals([
      { label: "Séance portrait", quantity: 1, unitPriceCents: 15_000, vatRate: 2000 },
      { label: "Livre photo", quantity: 2, unitPriceCents: 4_220, vatRate: 550 },
      { label: "Bon cadeau (multi-usage)", quantity: 1, unitPriceCents: 5_000, vatRate: null },
    ]);
    expect(totals.byRate).toEqual([
      { vatRate: null, htCents: 5_000, vatCents: 0, ttcCents: 5_000 },
      { vatRate: 550, htCents: 8_000, vatCents: 440, ttcCents: 8_440 },
      { vatRate: 2000, htCents: 12_500, vatCents: 2_500, ttcCents: 15_000 },
    ]);
    expect(totals).toMatchObject({ htCents: 25_500, vatCents: 2_940, ttcCents: 28_440 });
  });

  it("are the TTC under the franchise, and negative for a credit note, rounded alike", () => {
    expect(
      invoiceTotals([{ label: "Séance", quantity: 1, unitPriceCents: 12_000, vatRate: null }]),
    ).toMatchObject({ htCents: 12_000, vatCents: 0, ttcCents: 12_000 });
    expect(
      invoiceTotals([
        { label: "Remboursement", quantity: 1, unitPriceCents: -2_997, vatRate: 2000 },
      ]),
    ).toMatchObject({ htCents: -2_498, vatCents: -499, ttcCents: -2_997 });
  });

  it("refuse amounts that are not whole cents", () => {
    expect(() =>
      invoiceTotals([{ label: "Séance", quantity: 1, unitPriceCents: 10.5, vatRate: null }]),
    ).toThrow(/cents/);
  });
});

describe("an amount shared across rates", () => {
  it("follows each rate's share of the total, the last rate taking the rounding's cent", () => {
    const byRate = invoiceTotals([
      { label: "A", quantity: 1, unitPriceCents: 1_000, vatRate: 550 },
      { label: "B", quantity: 1, unitPriceCents: 2_000, vatRate: 2000 },
      { label: "C", quantity: 1, unitPriceCents: 0, vatRate: null },
    ]).byRate;
    expect(shareAcrossRates(byRate, 1_000)).toEqual([
      { vatRate: 550, cents: 333 },
      { vatRate: 2000, cents: 667 },
    ]);
  });

  it("gives back, over partial refunds, each rate's TTC, HT and TVA exactly, never more, and no line of nothing", () => {
    // 20 € at 20 % and a 10 € voucher without TVA, refunded 1 cent, 4 cents, 4 cents, then the rest:
    // shared each time over the whole invoice, the 20 % rate got 20,01 € back and the other 9,99 €;
    // each note's HT rounded on its own, the four left 1 cent of TVA standing.
    const invoice = invoiceTotals([
      { label: "Tirage", quantity: 1, unitPriceCents: 2_000, vatRate: 2000 },
      { label: "Bon cadeau de 10 €", quantity: 1, unitPriceCents: 1_000, vatRate: null },
    ]).byRate;
    const notes: VatShare[][] = [];
    for (const amount of [1, 4, 4, 2_991]) {
      const note = creditNoteOf(standingByRate(invoice, notes), amount, "Remboursement");
      expect(note.lines.every((line) => line.unitPriceCents < 0)).toBe(true);
      expect(note.totals.ttcCents).toBe(-amount);
      expect(note.totals.htCents + note.totals.vatCents).toBe(-amount);
      notes.push(note.totals.byRate);
    }
    expect(standingByRate(invoice, notes)).toEqual([
      { vatRate: null, ttcCents: 0, htCents: 0, vatCents: 0 },
      { vatRate: 2000, ttcCents: 0, htCents: 0, vatCents: 0 },
    ]);
  });
});
