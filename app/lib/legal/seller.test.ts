import { describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import type { Legal } from "~/content/schemas";
import {
  formatSiret,
  formatVatNumber,
  sellerGaps,
  sellerLine,
  sirenOf,
  siretProblem,
  vatLine,
  vatNumberFormProblem,
  vatNumberMatchesSiret,
} from "./seller";

const real: Legal = {
  ...structuredClone(seedDocuments.legal),
  companyName: "Atelier Lumière SARL",
  legalForm: "SARL au capital de 5 000 €",
  address: "4 avenue Thiers, 19100 Brive-la-Gaillarde",
  rcs: "RCS Brive 443 061 841",
  siret: "443 061 841 00047",
  vatRegime: "assujetti",
  vatNumber: "FR64 443061841",
  mediator: { name: "Médiateur de la consommation CM2C", website: "https://www.cm2c.net" },
};

describe("the seller's numbers", () => {
  it("accepts a SIRET INSEE would issue, with or without its spaces, and writes it in four groups", () => {
    expect(siretProblem("443 061 841 00047")).toBeNull();
    expect(siretProblem("44306184100047")).toBeNull();
    expect(formatSiret("44306184100047")).toBe("443 061 841 00047");
    expect(sirenOf("44306184100047")).toBe("443 061 841");
  });

  it("refuses a SIRET of the wrong length or with a digit miscopied, in French", () => {
    expect(siretProblem("443 061 841")).toBe(
      "Le SIRET compte 14 chiffres : par exemple 123 456 789 00012",
    );
    expect(siretProblem("443 061 841 0004A")).toMatch(/^Le SIRET compte 14 chiffres/);
    expect(siretProblem("443 061 841 00048")).toBe(
      "Ce SIRET n'existe pas : un chiffre est sans doute mal recopié",
    );
    expect(siretProblem("443 016 841 00047")).not.toBeNull();
  });

  it("checks La Poste's establishments by their own rule", () => {
    expect(siretProblem("356 000 000 49837")).toBeNull();
    expect(siretProblem("356 000 000 49838")).not.toBeNull();
  });

  it("reads a French TVA number's form and checks its key against the SIREN", () => {
    expect(vatNumberFormProblem("FR64 443061841")).toBeNull();
    expect(vatNumberFormProblem("fr64443061841")).toBeNull();
    expect(vatNumberFormProblem("FR64 44306184")).toMatch(/^Le numéro de TVA s'écrit FR/);
    expect(vatNumberFormProblem("DE123456789")).not.toBeNull();
    expect(formatVatNumber("fr 64 443 061 841")).toBe("FR64 443061841");
    expect(vatNumberMatchesSiret("FR64 443061841", "443 061 841 00047")).toBe(true);
    expect(vatNumberMatchesSiret("FR65 443061841", "443 061 841 00047")).toBe(false);
    expect(vatNumberMatchesSiret("FR64 443061842", "443 061 841 00047")).toBe(false);
    // A key of letters (new companies' numbers) cannot be checked: only its SIREN is.
    expect(vatNumberMatchesSiret("FRA1 443061841", "443 061 841 00047")).toBe(true);
  });

  it("writes the TVA's line as the regime says", () => {
    expect(vatLine({ vatRegime: "franchise", vatNumber: "" })).toBe(
      "TVA non applicable, art. 293 B du CGI",
    );
    expect(vatLine({ vatRegime: "assujetti", vatNumber: "FR64 443061841" })).toBe(
      "N° de TVA intracommunautaire : FR64 443061841",
    );
  });
});

describe("what the seller's identity still lacks", () => {
  it("is nothing for a complete identity", () => {
    expect(sellerGaps(real)).toEqual([]);
  });

  it("names every demo value, the mediator and the numbers, in the owner's words", () => {
    expect(sellerGaps(seedDocuments.legal)).toEqual([
      "raison sociale",
      "immatriculation (RCS ou RM)",
      "SIRET",
      "médiateur de la consommation",
      "site du médiateur",
    ]);
  });

  it("asks for a TVA number that is the company's when it is subject to TVA, none under the franchise", () => {
    expect(sellerGaps({ ...real, vatNumber: "" })).toEqual(["numéro de TVA"]);
    expect(sellerGaps({ ...real, vatNumber: "FR65 443061841" })).toEqual(["numéro de TVA"]);
    expect(sellerGaps({ ...real, vatRegime: "franchise", vatNumber: "" })).toEqual([]);
    expect(sellerGaps({ ...real, mediator: { name: "", website: "" } })).toEqual([
      "médiateur de la consommation",
      "site du médiateur",
    ]);
  });

  it("writes the seller in one line for the foot of an e-mail", () => {
    expect(sellerLine(real)).toBe(
      "Atelier Lumière SARL, SARL au capital de 5 000 €, 4 avenue Thiers, 19100 Brive-la-Gaillarde · RCS Brive 443 061 841 · SIRET 443 061 841 00047 · N° de TVA intracommunautaire : FR64 443061841",
    );
    expect(sellerLine({ ...real, vatRegime: "franchise" })).toMatch(
      / · TVA non applicable, art\. 293 B du CGI$/,
    );
  });
});
