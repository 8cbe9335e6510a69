import { describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import { documentValues } from "./document-forms";
import { parseNestedForm } from "./forms";
import {
  IDENTITY_FIELDS,
  IDENTITY_HISTORY_LABELS,
  IDENTITY_LINK_FIELDS,
  identityForm,
} from "./identity-form";

const values = () => documentValues("identity", seedDocuments.identity);

describe("the site identity form", () => {
  it("reads the stored identity back, but its share image", () => {
    const { shareImage: _shareImage, ...identity } = seedDocuments.identity;
    const parsed = parseNestedForm(
      { ...values(), "social.youtube": "http://youtube.com/x" },
      identityForm,
    );
    expect(parsed).toMatchObject({
      ok: true,
      data: { ...identity, social: { ...identity.social, youtube: "http://youtube.com/x" } },
    });
  });

  it("says what is missing or wrong at each field, word for word, in the page's order", () => {
    const refused = parseNestedForm(
      {
        ...values(),
        brand: " ",
        experience: "",
        tagline: "x".repeat(301),
        label: "x".repeat(101),
        priceRange: "€€€€€€€€€€€",
        email: "",
        phone: "0".repeat(31),
        "social.facebook": "facebook.com/studio",
        "social.instagram": `https://instagram.com/${"x".repeat(480)}`,
        selfieBoothUrl: "ftp://borne.fr",
      },
      identityForm,
    );
    expect(!refused.ok && refused.errors).toEqual({
      brand: "Le nom du studio est requis",
      experience: "Ce champ est requis",
      tagline: "300 caractères au maximum",
      label: "100 caractères au maximum",
      priceRange: "10 caractères au maximum",
      email: "L'adresse e-mail est requise",
      phone: "30 caractères au maximum",
      "social.facebook": "Adresse web invalide : elle commence par https://",
      "social.instagram": "500 caractères au maximum",
      selfieBoothUrl: "Adresse web invalide : elle commence par https://",
    });
    expect(!refused.ok && Object.keys(refused.errors)[0]).toBe("brand");
    const badEmail = parseNestedForm(
      { ...values(), email: "pas-une-adresse", tagline: "" },
      identityForm,
    );
    expect(!badEmail.ok && badEmail.errors).toEqual({
      tagline: "Ce champ est requis",
      email: "Adresse e-mail invalide : par exemple contact@studio.fr",
    });
  });

  it("lists its fields in the page's order, and names them in the history as before", () => {
    expect([...IDENTITY_FIELDS.names, ...IDENTITY_LINK_FIELDS.names]).toEqual([
      "brand",
      "experience",
      "tagline",
      "label",
      "priceRange",
      "email",
      "phone",
      "social.facebook",
      "social.instagram",
      "social.youtube",
      "selfieBoothUrl",
    ]);
    expect(IDENTITY_HISTORY_LABELS).toEqual({
      brand: "Nom de la marque",
      experience: "Expérience",
      tagline: "Accroche",
      label: "Libellé",
      priceRange: "Gamme de prix",
      email: "E-mail",
      phone: "Téléphone",
      "social.facebook": "Facebook",
      "social.instagram": "Instagram",
      "social.youtube": "YouTube",
      selfieBoothUrl: "Lien de la borne selfie",
    });
  });
});
