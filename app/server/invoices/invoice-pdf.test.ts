import { beforeAll, describe, expect, it } from "vitest";
import { invoiceTotals, type InvoiceLineInput, type InvoiceSeller } from "~/lib/invoices/model";
import { finalInvoiceLines } from "~/lib/invoices/final-invoice";
import { ensurePdfTools, pdfPageCount, pdfText, pdfWords } from "../../../tests/support/pdf-tools";
import { PdfError } from "../pdf/pdf-fonts.server";
import { renderInvoicePdf } from "./invoice-pdf.server";
import type { InvoiceRecord } from "./issue.server";

beforeAll(() => ensurePdfTools());

// pdftotext writes no-break spaces as they are and breaks lines where the page does: compare words.
const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

const franchise: InvoiceSeller = {
  companyName: "Atelier Lumière SARL",
  legalForm: "SARL au capital de 5 000 €",
  address: "4 avenue Thiers, 19100 Brive-la-Gaillarde",
  registration: "RM 443 061 841 (Corrèze)",
  siret: "443 061 841 00047",
  siren: "443 061 841",
  vatNumber: null,
  vatMention: "TVA non applicable, art. 293 B du CGI",
  email: "bonjour@atelier-lumiere.fr",
  phone: "05 55 12 34 56",
  mediator: { name: "CM2C, médiateur de la consommation", website: "https://www.cm2c.net" },
};

/** The same seller, subject to TVA. */
const subjectToVat = { ...franchise, vatNumber: "FR64 443061841", vatMention: null };

/** The text of a final invoice of the seller subject to TVA, with `changes`. */
async function printedFinal(changes: Partial<InvoiceRecord> & { lines?: InvoiceLineInput[] }) {
  const pdf = await renderInvoicePdf({
    invoice: invoice({ kind: "final", seller: subjectToVat, ...changes }),
  });
  return words(pdfText(pdf));
}

function invoice(
  changes: Partial<InvoiceRecord> & { lines?: InvoiceLineInput[] } = {},
): InvoiceRecord {
  const lines = changes.lines ?? [
    {
      label: "Acompte — séance « Naissance » à Brive",
      quantity: 1,
      unitPriceCents: 4_500,
      vatRate: null,
    },
  ];
  const totals = invoiceTotals(lines);
  return {
    id: "3f1c1c52-4a5e-4d52-9c0e-1d2b3c4d5e6f",
    series: "F",
    year: 2027,
    sequence: 123,
    number: "F-2027-000123",
    kind: "deposit",
    orderId: null,
    refundId: null,
    bookingId: null,
    creditedInvoiceId: null,
    voucherUseId: null,
    issuedAt: new Date("2027-01-12T09:30:00Z"),
    serviceDate: "2027-02-03",
    seller: franchise,
    buyer: {
      name: "Éloïse Fenêtre-Nœud",
      email: "eloise@example.test",
      address: "3 rue de l'Église, 87240 Ambazac",
    },
    paymentTerms: "Payé par carte bancaire le 12 janvier 2027.",
    htCents: totals.htCents,
    vatCents: totals.vatCents,
    ttcCents: totals.ttcCents,
    vatBreakdown: totals.byRate,
    ...changes,
    lines,
  };
}

describe("an invoice's PDF", () => {
  it("prints the mentions an invoice needs, every accent, and the franchise's mention", async () => {
    const text = words(pdfText(await renderInvoicePdf({ invoice: invoice() })));
    for (const expected of [
      "Atelier Lumière SARL",
      "SARL au capital de 5 000 €",
      "4 avenue Thiers, 19100 Brive-la-Gaillarde",
      "RM 443 061 841 (Corrèze)",
      "SIRET 443 061 841 00047",
      "Facture d'acompte",
      "N° F-2027-000123",
      "Date : 12 janvier 2027",
      "Date de la prestation : 3 février 2027",
      "Client",
      "Éloïse Fenêtre-Nœud",
      "3 rue de l'Église, 87240 Ambazac",
      "Acompte — séance « Naissance » à Brive",
      "45,00 €",
      "Total 45,00 €",
      "TVA non applicable, art. 293 B du CGI",
      "Payé par carte bancaire le 12 janvier 2027.",
      "CM2C, médiateur de la consommation (www.cm2c.net)",
      "F-2027-000123 · page 1/1",
    ]) {
      expect(text).toContain(words(expected));
    }
    expect(text).not.toContain("Total HT");
  });

  it("prints HT, the TVA of each rate and TTC when the studio is subject to TVA", async () => {
    const text = await printedFinal({
      lines: [
        { label: "Séance portrait", quantity: 1, unitPriceCents: 15_000, vatRate: 2000 },
        { label: "Livre photo", quantity: 2, unitPriceCents: 4_220, vatRate: 550 },
      ],
    });
    for (const expected of [
      "N° de TVA intracommunautaire : FR64 443061841",
      "Total HT 205,00 €",
      "TVA 5,5 % sur 80,00 € 4,40 €",
      "TVA 20 % sur 125,00 € 25,00 €",
      "Total TTC 234,40 €",
      "84,40 €",
    ]) {
      expect(text).toContain(words(expected));
    }
    expect(text).not.toContain("293 B");
  });

  it("prints a multi-purpose voucher's use as an invoice with its TVA, paid by the voucher", async () => {
    const pdf = await renderInvoicePdf({
      invoice: invoice({
        kind: "voucher_use",
        seller: subjectToVat,
        voucherUseId: "5a1c1c52-4a5e-4d52-9c0e-1d2b3c4d5e6f",
        lines: [
          {
            label: "Prestations photographiques réglées par le bon cadeau 7K3Q-M8ZD-41PX",
            quantity: 1,
            unitPriceCents: 3_000,
            vatRate: 2000,
          },
        ],
        paymentTerms:
          "Réglée par le bon cadeau 7K3Q-M8ZD-41PX le 12 janvier 2027 (bon à usages multiples : TVA due à son utilisation).",
      }),
    });
    const text = words(pdfText(pdf));
    for (const expected of [
      "Facture",
      "F-2027-000123",
      "Total HT 25,00 €",
      "TVA 20 % sur 25,00 € 5,00 €",
      "Total TTC 30,00 €",
      "Réglée par le bon cadeau 7K3Q-M8ZD-41PX le 12 janvier 2027",
    ]) {
      expect(text).toContain(words(expected));
    }
    expect(text).not.toContain("Facture d'acompte");
  });

  it("prints a final invoice's whole price and the deposit invoice it deducts, a negative line", async () => {
    const { lines, note } = finalInvoiceLines({
      balance: { label: "Solde", quantity: 1, unitPriceCents: 9_000, vatRate: 2000 },
      sessionLabel: "Séance « Naissance » du samedi 3 février 2027 à 14 h",
      deposit: {
        number: "F-2026-000012",
        issuedAt: new Date("2026-12-03T10:00:00Z"),
        nature: "arrhes",
        byRate: invoiceTotals([
          { label: "Arrhes", quantity: 1, unitPriceCents: 3_000, vatRate: 2000 },
        ]).byRate,
      },
      taxed: true,
    });
    const text = await printedFinal({
      lines,
      paymentTerms: `${note} Payée en espèces au studio le 3 février 2027.`,
    });
    for (const expected of [
      "Séance « Naissance » du samedi 3 février 2027 à 14 h 1 120,00 € 20 % 120,00 €",
      "Arrhes déjà facturées : facture F-2026-000012 du 3 décembre 2026",
      "1 -30,00 € 20 % -30,00 €",
      "Total HT 75,00 €",
      "TVA 20 % sur 75,00 € 15,00 €",
      "Total TTC 90,00 €",
      "Net à payer : 90,00 € (arrhes déduites). Payée en espèces au studio le 3 février 2027.",
    ]) {
      expect(text).toContain(words(expected));
    }
  });

  it("names the invoice a credit note corrects, and refuses one that names none", async () => {
    const credit = invoice({
      series: "A",
      number: "A-2027-000004",
      kind: "credit_note",
      creditedInvoiceId: "3f1c1c52-4a5e-4d52-9c0e-1d2b3c4d5e6f",
      lines: [
        { label: "Remboursement de l'acompte", quantity: 1, unitPriceCents: -4_500, vatRate: null },
      ],
    });
    const text = words(
      pdfText(await renderInvoicePdf({ invoice: credit, creditedNumber: "F-2027-000123" })),
    );
    expect(text).toMatch(/^Avoir /);
    expect(text).toContain(words("N° A-2027-000004"));
    expect(text).toContain("Avoir sur la facture F-2027-000123");
    expect(text).toContain(words("Total -45,00 €"));
    await expect(renderInvoicePdf({ invoice: credit })).rejects.toThrow(PdfError);
  });

  it("goes on to as many pages as its lines need, each numbered", async () => {
    const lines = Array.from({ length: 70 }, (_, index) => ({
      label: `Photo supplémentaire n° ${index + 1} — tirage numérique haute définition`,
      quantity: 1,
      unitPriceCents: 1_000,
      vatRate: null,
    }));
    const bytes = await renderInvoicePdf({ invoice: invoice({ kind: "sale", lines }) });
    const pages = pdfPageCount(bytes);
    expect(pages).toBeGreaterThan(1);
    const text = words(pdfText(bytes));
    expect(text).toContain(words("Facture F-2027-000123 (suite) Désignation Qté"));
    expect(text).toContain(`page ${pages}/${pages}`);
    expect(text).toContain("n° 70 —");
    expect(text).toContain(words("Total 700,00 €"));
  });

  it("keeps a long seller's name and address, a long buyer and 60 photos inside each page, on no other text", async () => {
    const seller: InvoiceSeller = {
      ...subjectToVat,
      companyName: "Atelier Lumière — Camille Dupont Photographie",
      legalForm: "Entreprise individuelle",
      address:
        "Résidence Les Jardins d'Ussel, bâtiment B, 12 avenue du Général de Gaulle, 19200 Ussel",
    };
    const lines = Array.from({ length: 60 }, (_, index) => ({
      label: `Photo supplémentaire « IMG_${4000 + index}.jpg » — galerie Mariage d'Éloïse & Timothée, fichier haute définition`,
      quantity: 1,
      unitPriceCents: 1_250,
      vatRate: 2000,
    }));
    const bytes = await renderInvoicePdf({
      invoice: invoice({
        seller,
        lines,
        buyer: {
          name: "Marie-Éléonore de La Rochefoucauld-Montmorency d'Aubigné",
          email: "marie-eleonore.delarochefoucauld@example.test",
          address: null,
        },
      }),
    });
    const { pages, words: placed } = pdfWords(bytes);
    expect(pages.length).toBeGreaterThan(1);
    // Every word within the page's margins (48 points), none drawn over another.
    for (const word of placed) {
      const page = pages[word.page - 1];
      expect(word.xMin, word.text).toBeGreaterThanOrEqual(47);
      expect(word.xMax, word.text).toBeLessThanOrEqual((page?.width ?? 0) - 47);
    }
    const overlapping = placed.flatMap((word, index) =>
      placed
        .slice(index + 1)
        .filter(
          (other) =>
            other.page === word.page &&
            other.xMin < word.xMax - 0.5 &&
            word.xMin < other.xMax - 0.5 &&
            other.yMin < word.yMax - 0.5 &&
            word.yMin < other.yMax - 0.5,
        )
        .map((other) => `${word.text} / ${other.text} (page ${word.page})`),
    );
    expect(overlapping).toEqual([]);
    // Each page's foot names the seller and her SIRET whole.
    for (const text of pdfText(bytes).split("\f").slice(0, -1)) {
      expect(words(text)).toContain(words("SIRET 443 061 841 00047"));
    }
    const all = words(pdfText(bytes));
    expect(all).toContain("IMG_4059.jpg");
    expect(all).toContain(words("Total TTC 750,00 €"));
  });

  it("prints the names of clients from all of Europe's Latin alphabets", async () => {
    for (const name of [
      "José Muñoz",
      "Søren Ågård",
      "Łukasz Wałęsa",
      "Ștefan Dumitrașcu",
      "Gökçe Weiß",
    ]) {
      const text = pdfText(
        await renderInvoicePdf({
          invoice: invoice({ buyer: { name, email: "client@example.test", address: null } }),
        }),
      );
      expect(text).toContain(name);
    }
  });

  it("refuses a character its fonts cannot draw rather than print a blank", async () => {
    await expect(
      renderInvoicePdf({
        invoice: invoice({ buyer: { name: "李小龍", email: "li@example.test", address: null } }),
      }),
    ).rejects.toThrow(/ne peuvent pas être écrits/);
  });
});
