import { describe, expect, it } from "vitest";
import type { Legal } from "~/content/schemas";
import { seedDocuments } from "~/content/seed";
import { creditNoteSeller, invoiceSeller } from "./seller";

const legal: Legal = {
  ...structuredClone(seedDocuments.legal),
  companyName: "Atelier Lumière SARL",
  rcs: "RM 443 061 841 (Corrèze)",
  siret: "443 061 841 00047",
  vatNumber: "",
  mediator: { name: "CM2C", website: "https://www.cm2c.net" },
};

describe("the seller an invoice carries", () => {
  it("is none while the legal details lack what an invoice prints", () => {
    expect(invoiceSeller(seedDocuments.legal)).toBeNull();
    expect(invoiceSeller({ ...legal, mediator: { name: "", website: "" } })).toBeNull();
  });

  it("copies the details, with the SIREN and the franchise's mention", () => {
    expect(invoiceSeller(legal)).toMatchObject({
      companyName: "Atelier Lumière SARL",
      registration: "RM 443 061 841 (Corrèze)",
      siret: "443 061 841 00047",
      siren: "443 061 841",
      vatNumber: null,
      vatMention: "TVA non applicable, art. 293 B du CGI",
      mediator: { name: "CM2C", website: "https://www.cm2c.net" },
    });
  });

  it("prints the TVA number instead when the studio is subject to TVA", () => {
    expect(
      invoiceSeller({ ...legal, vatRegime: "assujetti", vatNumber: "fr64443061841" }),
    ).toMatchObject({ vatNumber: "FR64 443061841", vatMention: null });
  });

  it("on a credit note, keeps the TVA status of the invoice it corrects and the rest as it stands now", () => {
    const franchise = invoiceSeller(legal);
    const subject = invoiceSeller({
      ...legal,
      address: "12 rue de la Barrière, 19100 Brive-la-Gaillarde",
      vatRegime: "assujetti",
      vatNumber: "FR64443061841",
    });
    if (!franchise || !subject) throw new Error("incomplete seller");
    expect(creditNoteSeller(subject, franchise)).toEqual({
      ...subject,
      vatNumber: null,
      vatMention: "TVA non applicable, art. 293 B du CGI",
    });
    expect(creditNoteSeller(franchise, subject)).toEqual({
      ...franchise,
      vatNumber: "FR64 443061841",
      vatMention: null,
    });
  });
});
