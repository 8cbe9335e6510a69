import { describe, expect, it } from "vitest";
import {
  centsToEuros,
  eurosToCents,
  gallerySaleErrors,
  galleryFormSchema,
  galleryFormValues,
  GALLERY_FIELD_ORDER,
  GALLERY_LABELS,
  newGalleryValues,
} from "./gallery-schemas";

const studioId = "6f1d7a52-3f0e-4a8b-9c1d-2e3f4a5b6c7d";
const schema = galleryFormSchema({ today: "2026-11-23", studioIds: [studioId] });
const valid = {
  title: "Séance",
  clientName: "Anne",
  clientEmail: "anne@example.test",
  studioId,
  sessionDate: "2026-11-20",
  expiresOn: "2027-01-22",
  purgeAfterDays: "30",
  downloadsAllowed: "on",
  coverFocus: "haut",
};

/** The first message of each field that does not hold, as the form shows it. */
function messages(values: Record<string, string | undefined>) {
  const parsed = schema.safeParse(values);
  const found: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
  }
  return found;
}

describe("the gallery form", () => {
  it("reads what the owner typed as the gallery to save", () => {
    expect(schema.parse({ ...valid, title: "  Séance  " })).toEqual({
      ...valid,
      purgeAfterDays: 30,
      downloadsAllowed: true,
      watermark: false,
      // The sale's fields (decision 0184): left empty, every photo included.
      includedPhotos: null,
      extraPhotoPrice: null,
      allPhotosPrice: null,
    });
    const bare = schema.parse({ ...valid, studioId: "", sessionDate: "", coverFocus: "" });
    expect(bare).toMatchObject({ studioId: null, sessionDate: null });
    expect(bare.coverFocus ?? undefined).toBeUndefined();
    const older = schema.parse({ ...valid, studioId: undefined, coverFocus: undefined });
    expect(older.studioId).toBeNull();
    expect(older.coverFocus ?? undefined).toBeUndefined();
  });

  it("says what is missing, word for word", () => {
    expect(
      messages({ title: "", clientName: " ", clientEmail: "", expiresOn: "", purgeAfterDays: "" }),
    ).toEqual({
      title: "Le titre est obligatoire",
      clientName: "Le nom du client est obligatoire",
      clientEmail: "L'e-mail du client est obligatoire",
      expiresOn: "La date d'expiration est obligatoire",
      purgeAfterDays: "Indiquez un nombre de jours entre 0 et 365",
    });
  });

  it("says what is wrong, word for word", () => {
    expect(
      messages({
        ...valid,
        title: "x".repeat(201),
        clientName: "x".repeat(201),
        clientEmail: `${"x".repeat(250)}@example.test`,
        studioId: "00000000-0000-4000-8000-000000000000",
        sessionDate: "2026-02-31",
        expiresOn: "22/01/2027",
        purgeAfterDays: "366",
        coverFocus: "milieu",
      }),
    ).toEqual({
      title: "Le titre doit contenir au plus 200 caractères",
      clientName: "Le nom du client doit contenir au plus 200 caractères",
      clientEmail: "E-mail trop long",
      studioId: "Choisissez un studio de la liste",
      sessionDate: "Date de la séance invalide",
      expiresOn: "Date d'expiration invalide",
      purgeAfterDays: "Indiquez un nombre de jours entre 0 et 365",
      coverFocus: "Choisissez un cadrage de la liste",
    });
    expect(
      messages({
        ...valid,
        clientEmail: "pas-une-adresse",
        studioId: "pas-un-id",
        purgeAfterDays: "1,5",
      }),
    ).toEqual({
      clientEmail: "E-mail invalide",
      studioId: "Choisissez un studio de la liste",
      purgeAfterDays: "Indiquez un nombre de jours entre 0 et 365",
    });
    expect(messages({ ...valid, expiresOn: "2026-11-22" })).toEqual({
      expiresOn: "La date d'expiration ne peut pas être passée",
    });
    expect(messages({ ...valid, expiresOn: "2028-05-24" })).toEqual({
      expiresOn: "La date d'expiration doit être dans 18 mois au plus",
    });
    expect(messages({ ...valid, expiresOn: "2028-05-23", purgeAfterDays: "0" })).toEqual({});
    expect(messages({ ...valid, purgeAfterDays: "-1" })).toHaveProperty("purgeAfterDays");
  });

  it("keeps a past expiry the owner did not change", () => {
    const editing = galleryFormSchema({
      today: "2026-11-23",
      studioIds: [],
      currentExpiry: "2026-10-01",
    });
    expect(editing.safeParse({ ...valid, studioId: "", expiresOn: "2026-10-01" }).success).toBe(
      true,
    );
    expect(editing.safeParse({ ...valid, studioId: "", expiresOn: "2026-10-02" }).success).toBe(
      false,
    );
  });

  it("lists its fields in the page's order and starts a new gallery open for 60 days", () => {
    expect([...GALLERY_FIELD_ORDER]).toEqual([
      "title",
      "clientName",
      "clientEmail",
      "studioId",
      "sessionDate",
      "expiresOn",
      "purgeAfterDays",
      "downloadsAllowed",
      "watermark",
      "coverFocus",
      "includedPhotos",
      "extraPhotoPrice",
      "allPhotosPrice",
    ]);
    expect(newGalleryValues("2026-11-23")).toMatchObject({
      expiresOn: "2027-01-22",
      purgeAfterDays: "30",
      downloadsAllowed: "on",
    });
  });

  it("names each field in the error summary as the form labels it", () => {
    expect(GALLERY_LABELS).toEqual({
      title: "Titre de la galerie",
      clientName: "Nom du client",
      clientEmail: "E-mail du client",
      studioId: "Studio",
      sessionDate: "Date de la séance",
      expiresOn: "Ouverte jusqu'au",
      purgeAfterDays: "Suppression après l'expiration",
      downloadsAllowed: "Téléchargement",
      watermark: "Filigrane",
      coverFocus: "Cadrage de la couverture",
      includedPhotos: "Photos incluses",
      extraPhotoPrice: "Prix d'une photo supplémentaire",
      allPhotosPrice: "Prix de toutes les photos",
      form: "Galerie",
    });
  });

  it("writes a stored gallery as the form's fields", () => {
    expect(
      galleryFormValues({
        title: "Séance",
        clientName: "Anne",
        clientEmail: "anne@example.test",
        studioId: null,
        sessionDate: null,
        expiresOn: "2027-01-22",
        purgeAfterDays: 30,
        downloadsAllowed: true,
        watermark: false,
        coverFocus: "centre",
        accessCode: "not a field",
      }),
    ).toEqual({
      title: "Séance",
      clientName: "Anne",
      clientEmail: "anne@example.test",
      studioId: "",
      sessionDate: "",
      expiresOn: "2027-01-22",
      purgeAfterDays: "30",
      downloadsAllowed: "on",
      watermark: "",
      coverFocus: "centre",
      includedPhotos: "",
      extraPhotoPrice: "",
      allPhotosPrice: "",
    });
  });

  it("reads the sale's prices in euros as cents and checks them together (decision 0184)", () => {
    const sale = (values: Record<string, string>) =>
      schema.parse({ ...valid, ...values }) as ReturnType<typeof schema.parse>;
    const priced = sale({ includedPhotos: "10", extraPhotoPrice: "4,50", allPhotosPrice: "1 200" });
    expect(eurosToCents(priced.extraPhotoPrice)).toBe(450);
    expect(eurosToCents(priced.allPhotosPrice)).toBe(120_000);
    expect(centsToEuros(450)).toBe("4,50");
    expect(messages({ ...valid, extraPhotoPrice: "4,505" })).toEqual({
      extraPhotoPrice: "Indiquez un prix en euros, par exemple 12 ou 12,50",
    });
    expect(gallerySaleErrors(sale({ includedPhotos: "3" }))).toEqual({
      extraPhotoPrice:
        "Indiquez le prix d'une photo supplémentaire (ou celui de toutes les photos)",
    });
    expect(gallerySaleErrors(sale({ extraPhotoPrice: "5" }))).toEqual({
      includedPhotos:
        "Indiquez le nombre de photos incluses pour vendre les autres (0 si aucune n'est incluse)",
    });
    expect(
      gallerySaleErrors(sale({ includedPhotos: "3", extraPhotoPrice: "0", downloadsAllowed: "" })),
    ).toMatchObject({
      extraPhotoPrice: "Le prix d'une photo doit être supérieur à 0 €",
      includedPhotos: expect.stringContaining("Autorisez le téléchargement"),
    });
    expect(gallerySaleErrors(sale({}))).toEqual({});
  });
});
