import { describe, expect, it } from "vitest";
import { finalInvoiceLines, type InvoicedDeposit, type InvoicedVoucherUse } from "./final-invoice";
import { invoiceTotals, type InvoiceLineInput } from "./model";

const SESSION = "Séance Portrait du samedi 12 décembre 2026 à 14 h";
const balance: InvoiceLineInput = {
  label: `Solde : ${SESSION}`,
  quantity: 1,
  unitPriceCents: 9_000,
  vatRate: 2000,
};
const deposit: InvoicedDeposit = {
  number: "F-2026-000012",
  // The 3rd of December in Paris, late in the evening (already the 3rd in UTC too).
  issuedAt: new Date("2026-12-03T21:30:00Z"),
  nature: "arrhes",
  byRate: invoiceTotals([{ label: "Arrhes", quantity: 1, unitPriceCents: 3_000, vatRate: 2000 }])
    .byRate,
};

describe("a final invoice after a deposit invoice", () => {
  it("restates the whole price and deducts the deposit invoice by its number and date", () => {
    const { lines, note } = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit,
      taxed: true,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 12_000, vatRate: 2000 },
      {
        label: "Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026",
        quantity: 1,
        unitPriceCents: -3_000,
        vatRate: 2000,
      },
    ]);
    // The TVA of the deposit was due when it was paid: the final invoice bears the balance's.
    expect(invoiceTotals(lines)).toMatchObject({
      htCents: 7_500,
      vatCents: 1_500,
      ttcCents: 9_000,
    });
    expect(note).toBe("Net à payer : 90,00\u00a0€ (arrhes déduites).");
  });

  it("says « acompte » for an acompte, and deducts only what credit notes left of it", () => {
    const { lines, note } = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      // 10 € of its 30 € given back by a credit note.
      deposit: { ...deposit, nature: "acompte", byRate: [{ vatRate: 2000, ttcCents: 2_000 }] },
      taxed: true,
    });
    expect(lines.map((line) => [line.label, line.unitPriceCents])).toEqual([
      [SESSION, 11_000],
      ["Acompte déjà facturé : facture F-2026-000012 du 3 décembre 2026", -2_000],
    ]);
    expect(invoiceTotals(lines).ttcCents).toBe(9_000);
    expect(note).toBe("Net à payer : 90,00\u00a0€ (acompte déduit).");
  });

  it("deducts a deposit invoiced at several rates rate by rate, and none under the franchise", () => {
    const mixed = {
      ...deposit,
      byRate: invoiceTotals([
        { label: "Séance", quantity: 1, unitPriceCents: 2_000, vatRate: 2000 },
        { label: "Livre", quantity: 1, unitPriceCents: 1_001, vatRate: 550 },
      ]).byRate,
    };
    const taxed = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit: mixed,
      taxed: true,
    });
    // The whole price at the balance's rate but for the part invoiced at 5,5 %, stated at that rate.
    expect(taxed.lines.map((line) => [line.vatRate, line.unitPriceCents])).toEqual([
      [2000, 11_000],
      [550, 1_001],
      [550, -1_001],
      [2000, -2_000],
    ]);
    expect(taxed.lines[1]?.label).toBe(`${SESSION} : part versée en arrhes`);
    // The TVA of the balance alone: the 5,5 % part and its deduction cancel out.
    expect(invoiceTotals(taxed.lines)).toMatchObject({
      htCents: 7_500,
      vatCents: 1_500,
      ttcCents: 9_000,
    });

    const franchise = finalInvoiceLines({
      balance: { ...balance, vatRate: null },
      sessionLabel: SESSION,
      deposit: mixed,
      taxed: false,
    });
    expect(franchise.lines.map((line) => [line.vatRate, line.unitPriceCents])).toEqual([
      [null, 12_001],
      [null, -1_001],
      [null, -2_000],
    ]);
    expect(invoiceTotals(franchise.lines)).toMatchObject({ vatCents: 0, ttcCents: 9_000 });
  });

  it("bears the balance's TVA alone when the deposit was invoiced under the franchise", () => {
    // The seller left the franchise between the deposit's invoice and the session.
    const { lines } = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit: { ...deposit, nature: "acompte", byRate: [{ vatRate: null, ttcCents: 3_000 }] },
      taxed: true,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 9_000, vatRate: 2000 },
      {
        label: `${SESSION} : part versée en acompte`,
        quantity: 1,
        unitPriceCents: 3_000,
        vatRate: null,
      },
      {
        label: "Acompte déjà facturé : facture F-2026-000012 du 3 décembre 2026",
        quantity: 1,
        unitPriceCents: -3_000,
        vatRate: null,
      },
    ]);
    // Before: the whole 120 € at 20 % less 30 € without TVA, 20 € of TVA on 90 € received.
    expect(invoiceTotals(lines)).toMatchObject({
      htCents: 7_500,
      vatCents: 1_500,
      ttcCents: 9_000,
    });
  });

  it("is the balance's line alone without a deposit invoice, or once it was credited in full", () => {
    for (const standing of [null, { ...deposit, byRate: [{ vatRate: 2000, ttcCents: 0 }] }]) {
      expect(
        finalInvoiceLines({ balance, sessionLabel: SESSION, deposit: standing, taxed: true }),
      ).toEqual({ lines: [balance], note: null });
    }
  });
});

const CODE = "ABCD-EFGH-JKLM";
const use: InvoicedVoucherUse = {
  number: "F-2027-000014",
  // The 3rd of February in Paris.
  issuedAt: new Date("2027-02-03T10:00:00Z"),
  code: CODE,
  byRate: [{ vatRate: 2000, ttcCents: 2_000 }],
};
const USE_DEDUCTION = `Réglé par le bon cadeau ${CODE} : facture F-2027-000014 du 3 février 2027`;

describe("a final invoice after a voucher paid part of the balance at the studio", () => {
  it("restates the whole price and deducts the use's invoice by the voucher's code, number and date", () => {
    const { lines, note } = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit: null,
      voucherUses: [use],
      taxed: true,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 11_000, vatRate: 2000 },
      { label: USE_DEDUCTION, quantity: 1, unitPriceCents: -2_000, vatRate: 2000 },
    ]);
    // The use's TVA was due at the use: the final invoice bears the money part's alone.
    expect(invoiceTotals(lines)).toMatchObject({
      htCents: 7_500,
      vatCents: 1_500,
      ttcCents: 9_000,
    });
    expect(note).toBe("Net à payer : 90,00\u00a0€ (bon cadeau déduit).");
  });

  it("deducts the deposit's invoice, then each use's, and names both in its note", () => {
    const second: InvoicedVoucherUse = {
      number: "F-2027-000015",
      issuedAt: new Date("2027-02-04T10:00:00Z"),
      code: "WXYZ-2345-6789",
      byRate: [{ vatRate: 2000, ttcCents: 1_050 }],
    };
    const { lines, note } = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit,
      voucherUses: [use, second],
      taxed: true,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 15_050, vatRate: 2000 },
      {
        label: "Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026",
        quantity: 1,
        unitPriceCents: -3_000,
        vatRate: 2000,
      },
      { label: USE_DEDUCTION, quantity: 1, unitPriceCents: -2_000, vatRate: 2000 },
      {
        label: "Réglé par le bon cadeau WXYZ-2345-6789 : facture F-2027-000015 du 4 février 2027",
        quantity: 1,
        unitPriceCents: -1_050,
        vatRate: 2000,
      },
    ]);
    expect(invoiceTotals(lines)).toMatchObject({
      htCents: 7_500,
      vatCents: 1_500,
      ttcCents: 9_000,
    });
    // Two uses, one word for them.
    expect(note).toBe("Net à payer : 90,00\u00a0€ (arrhes déduites, bon cadeau déduit).");
  });

  it("does not deduct a use credited in full, nor the part of one a credit note gave back", () => {
    const credited = { ...use, byRate: [{ vatRate: 2000, ttcCents: 0 }] };
    expect(
      finalInvoiceLines({
        balance,
        sessionLabel: SESSION,
        deposit: null,
        voucherUses: [credited],
        taxed: true,
      }),
    ).toEqual({ lines: [balance], note: null });

    const withDeposit = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit,
      voucherUses: [credited],
      taxed: true,
    });
    expect(withDeposit.lines.map((line) => [line.label, line.unitPriceCents])).toEqual([
      [SESSION, 12_000],
      ["Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026", -3_000],
    ]);
    expect(withDeposit.note).toBe("Net à payer : 90,00\u00a0€ (arrhes déduites).");

    // 5 € of its 20 € given back by a credit note: 15 € deducted.
    const partly = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit: null,
      voucherUses: [{ ...use, byRate: [{ vatRate: 2000, ttcCents: 1_500 }] }],
      taxed: true,
    });
    expect(partly.lines.map((line) => [line.label, line.unitPriceCents])).toEqual([
      [SESSION, 10_500],
      [USE_DEDUCTION, -1_500],
    ]);
    expect(invoiceTotals(partly.lines).ttcCents).toBe(9_000);
  });

  it("states no rate under the franchise, also for a use invoiced with TVA before", () => {
    const { lines, note } = finalInvoiceLines({
      balance: { ...balance, vatRate: null },
      sessionLabel: SESSION,
      deposit: null,
      voucherUses: [use],
      taxed: false,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 11_000, vatRate: null },
      { label: USE_DEDUCTION, quantity: 1, unitPriceCents: -2_000, vatRate: null },
    ]);
    expect(invoiceTotals(lines)).toMatchObject({ htCents: 9_000, vatCents: 0, ttcCents: 9_000 });
    expect(note).toBe("Net à payer : 90,00\u00a0€ (bon cadeau déduit).");
  });

  it("restates at its own rate the part of a use invoiced without TVA, then bears the balance's TVA alone", () => {
    // The seller left the franchise between the use's invoice and the balance's.
    const { lines } = finalInvoiceLines({
      balance,
      sessionLabel: SESSION,
      deposit: null,
      voucherUses: [{ ...use, byRate: [{ vatRate: null, ttcCents: 2_000 }] }],
      taxed: true,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 9_000, vatRate: 2000 },
      {
        label: `${SESSION} : part réglée par le bon cadeau ${CODE}`,
        quantity: 1,
        unitPriceCents: 2_000,
        vatRate: null,
      },
      { label: USE_DEDUCTION, quantity: 1, unitPriceCents: -2_000, vatRate: null },
    ]);
    expect(invoiceTotals(lines)).toMatchObject({
      htCents: 7_500,
      vatCents: 1_500,
      ttcCents: 9_000,
    });
  });
});

describe("a final invoice after a voucher sold for less than its value paid part of the session", () => {
  it("restates the session's whole price and deducts the use's invoice and the discount never paid (decision 0203)", () => {
    // A 120 € session: 30 € of arrhes paid by a voucher sold 70 € for 80 € (26,25 € invoiced), 50 € of
    // the balance by another such voucher (43,75 € invoiced), 40 € in money.
    const { lines, note } = finalInvoiceLines({
      balance: { ...balance, unitPriceCents: 4_000 },
      sessionLabel: SESSION,
      deposit: {
        ...deposit,
        byRate: [{ vatRate: 2000, ttcCents: 2_625 }],
        voucherDiscount: { code: "WXYZ-2345-6789", cents: 375 },
      },
      voucherUses: [
        {
          ...use,
          byRate: [{ vatRate: 2000, ttcCents: 4_375 }],
          voucherDiscount: { code: CODE, cents: 625 },
        },
      ],
      taxed: true,
    });
    expect(lines).toEqual([
      { label: SESSION, quantity: 1, unitPriceCents: 12_000, vatRate: 2000 },
      {
        label: "Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026",
        quantity: 1,
        unitPriceCents: -2_625,
        vatRate: 2000,
      },
      {
        label: "Remise accordée à l'achat du bon cadeau WXYZ-2345-6789",
        quantity: 1,
        unitPriceCents: -375,
        vatRate: 2000,
      },
      { label: USE_DEDUCTION, quantity: 1, unitPriceCents: -4_375, vatRate: 2000 },
      {
        label: `Remise accordée à l'achat du bon cadeau ${CODE}`,
        quantity: 1,
        unitPriceCents: -625,
        vatRate: 2000,
      },
    ]);
    // The 40 € of money alone bear their TVA here; the uses' bore theirs on what was paid for them.
    expect(invoiceTotals(lines)).toMatchObject({ htCents: 3_333, vatCents: 667, ttcCents: 4_000 });
    expect(note).toBe("Net à payer : 40,00\u00a0€ (arrhes déduites, bon cadeau déduit).");
  });
});
