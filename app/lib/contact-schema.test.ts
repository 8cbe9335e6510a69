import { describe, expect, it } from "vitest";
import { parseContactForm } from "./contact-schema";
import type { ContactFormSettings } from "./contact-forms";

const settings: ContactFormSettings = {
  shootingTypes: [{ value: "famille", label: "Famille" }],
  sources: [{ value: "radio", label: "Radio locale" }],
  telephone: "optional",
  sourceRequired: false,
};
const valid = {
  shootingType: "famille",
  prenom: "Jeanne",
  nom: "Martin",
  email: "jeanne@example.org",
  message: "Bonjour",
};
const errorsOf = (result: ReturnType<typeof parseContactForm>) =>
  result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));

describe("a contact form built from a studio's settings", () => {
  it("takes an optional phone: empty is fine, a wrong number is not", () => {
    expect(parseContactForm(settings, { ...valid, telephone: " " })).toMatchObject({
      success: true,
      data: { telephone: undefined },
    });
    expect(errorsOf(parseContactForm(settings, { ...valid, telephone: "abc" }))).toEqual({
      telephone: "Numéro de téléphone invalide",
    });
  });

  it("requires the phone and the source when the settings say so, and ignores a phone it does not ask", () => {
    const strict = { ...settings, telephone: "required", sourceRequired: true } as const;
    expect(errorsOf(parseContactForm(strict, valid))).toEqual({
      telephone: "Le téléphone est requis",
      source: "Veuillez indiquer comment vous nous avez connus",
    });
    const none = { ...settings, telephone: "none" } as const;
    const parsed = parseContactForm(none, { ...valid, telephone: "0601020304" });
    expect(parsed.success && parsed.data.telephone).toBeUndefined();
  });

  it("accepts only the studio's own options, and asks no source when there are none", () => {
    expect(errorsOf(parseContactForm(settings, { ...valid, shootingType: "mariage" }))).toEqual({
      shootingType: "Veuillez choisir un type de séance",
    });
    const noSources = { ...settings, sources: [], sourceRequired: true };
    expect(parseContactForm(noSources, { ...valid, source: "radio" })).toMatchObject({
      success: true,
    });
  });
});
