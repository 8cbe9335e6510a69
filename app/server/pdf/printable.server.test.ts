import { describe, expect, it } from "vitest";
import { unprintableFields } from "./printable.server";

// The one check of the forms whose texts a PDF prints: the voucher's order form, the booking form and the
// owner's gallery form (their invoices' buyer).

describe("unprintableFields", () => {
  it("names, at each field, the characters the PDFs' fonts lack, once each and in the order typed", async () => {
    const errors = await unprintableFields(
      { nom: "李小龍 李", message: "Joyeux anniversaire 🎉" },
      "la facture",
    );
    expect(errors).toEqual({
      nom: "Ces caractères ne peuvent pas être imprimés sur la facture : 李 小 龍. Retirez-les ou remplacez-les.",
      message:
        "Ces caractères ne peuvent pas être imprimés sur la facture : 🎉. Retirez-les ou remplacez-les.",
    });
  });

  it("keeps the voucher form's wording", async () => {
    expect(await unprintableFields({ beneficiaire: "Léa 🎁" }, "le bon")).toEqual({
      beneficiaire:
        "Ces caractères ne peuvent pas être imprimés sur le bon : 🎁. Retirez-les ou remplacez-les.",
    });
  });

  it("accepts every Latin name of Europe, an accent typed as a separate mark too", async () => {
    const names = ["José Muñoz", "Łukasz Wałęsa", "Ștefan Țurcanu", "Søren Ågård", "Jose\u0301"];
    const values = Object.fromEntries(names.map((name, index) => [`nom${index}`, name]));
    expect(await unprintableFields(values, "la facture")).toEqual({});
  });
});
