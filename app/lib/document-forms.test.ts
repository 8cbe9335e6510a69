import { identityForm } from "./identity-form";
import { describe, expect, it } from "vitest";
import { documentSchemas } from "~/content/schemas";
import { seedDocuments } from "~/content/seed";
import {
  applyListIntent,
  documentValues,
  gendarmerieForm,
  giftSessionsForm,
  legalForm,
  PHOTO_MESSAGE,
  pricesForm,
  styleGalleryForm,
  styleGalleryValues,
  testimonialsForm,
  youtubeIdFrom,
} from "./document-forms";
import { flatten, parseNestedForm, unflatten } from "./forms";
import { INVALID_PRICE_MESSAGE } from "./price-input";

const PHOTO = "0f8fad5b-d9cb-469f-a165-70867728950e";
/** The seed with its demo photo names replaced by a media id, as the database holds it. */
function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/"demo:[^"]+"/g, `"${PHOTO}"`)) as T;
}

describe("document forms", () => {
  it("read every stored document back unchanged from what they show", () => {
    const prices = stored(seedDocuments.prices);
    expect(parseNestedForm(documentValues("prices", prices), pricesForm)).toMatchObject({
      ok: true,
      data: prices,
    });
    const gendarmerie = stored(seedDocuments.gendarmerie);
    expect(
      parseNestedForm(documentValues("gendarmerie", gendarmerie), gendarmerieForm),
    ).toMatchObject({
      ok: true,
      data: gendarmerie,
    });
    const gifts = stored(seedDocuments.giftSessions);
    expect(parseNestedForm(documentValues("giftSessions", gifts), giftSessionsForm)).toMatchObject({
      ok: true,
      data: gifts,
    });
    const testimonials = seedDocuments.testimonials;
    expect(
      parseNestedForm(documentValues("testimonials", testimonials), testimonialsForm),
    ).toMatchObject({ ok: true, data: testimonials });
    const { shareImage: _shareImage, ...identity } = seedDocuments.identity;
    expect(
      parseNestedForm(documentValues("identity", seedDocuments.identity), identityForm),
    ).toMatchObject({ ok: true, data: identity });
    expect(parseNestedForm(documentValues("legal", seedDocuments.legal), legalForm)).toMatchObject({
      ok: true,
      data: seedDocuments.legal,
    });
  });

  it("give what the storage schemas accept", () => {
    const parsed = parseNestedForm(documentValues("prices", seedDocuments.prices), pricesForm);
    expect(parsed.ok && documentSchemas.prices.safeParse(parsed.data).success).toBe(true);
  });

  it("answer French messages at the field of the right card", () => {
    const values = documentValues("prices", seedDocuments.prices);
    values["tabs.0.cards.2.price"] = "douze euros";
    values["tabs.1.cards.0.title"] = " ";
    values["tabs.1.cards.1.link"] = "javascript:alert(1)";
    values["tabs.0.cards.0.icon"] = "Skull";
    const parsed = parseNestedForm(values, pricesForm);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors).toEqual({
      "tabs.0.cards.2.price": INVALID_PRICE_MESSAGE,
      "tabs.1.cards.0.title": "Ce champ est requis",
      "tabs.1.cards.1.link":
        "Lien invalide : une page du site (par exemple /tarifs) ou une adresse complète (https://…)",
      "tabs.0.cards.0.icon": "Choisissez une icône de la liste",
    });
    const identity = documentValues("identity", seedDocuments.identity);
    identity.brand = "";
    identity.email = "pas-une-adresse";
    const refused = parseNestedForm(identity, identityForm);
    expect(!refused.ok && refused.errors).toEqual({
      brand: "Le nom du studio est requis",
      email: "Adresse e-mail invalide : par exemple contact@studio.fr",
    });
  });

  it("checks the seller's SIRET and TVA number as invoices need them (decision 0176)", () => {
    const values = documentValues("legal", seedDocuments.legal);
    values.siret = "443 061 841 00048";
    values.vatNumber = "DE123456789";
    values["mediator.website"] = "cm2c.net";
    const refused = parseNestedForm(values, legalForm);
    expect(!refused.ok && refused.errors).toEqual({
      siret: "Ce SIRET n'existe pas : un chiffre est sans doute mal recopié",
      vatNumber:
        "Le numéro de TVA s'écrit FR, deux caractères puis les 9 chiffres du SIREN : par exemple FR40 123456789",
      "mediator.website": "Adresse web invalide : elle commence par https://",
    });

    values.siret = "44306184100047";
    values.vatNumber = "";
    values["mediator.website"] = "https://www.cm2c.net";
    values.vatRegime = "assujetti";
    const noNumber = parseNestedForm(values, legalForm);
    expect(!noNumber.ok && noNumber.errors).toEqual({
      vatNumber: "Indiquez le numéro de TVA intracommunautaire : il figure sur chaque facture",
    });
    values.vatNumber = "FR65 443061841";
    const otherCompany = parseNestedForm(values, legalForm);
    expect(!otherCompany.ok && otherCompany.errors).toEqual({
      vatNumber: "Ce numéro de TVA ne correspond pas au SIREN du SIRET : vérifiez l'un et l'autre",
    });
    values.vatNumber = "fr64443061841";
    expect(parseNestedForm(values, legalForm)).toMatchObject({
      ok: true,
      data: { siret: "443 061 841 00047", vatNumber: "FR64 443061841", vatRegime: "assujetti" },
    });
    values.vatRegime = "ni l'un ni l'autre";
    const noRegime = parseNestedForm(values, legalForm);
    expect(!noRegime.ok && noRegime.errors).toEqual({
      vatRegime: "Choisissez si le studio facture la TVA",
    });
  });

  it("reads a legal document stored before the TVA regime as its TVA number says", () => {
    const { vatRegime: _regime, mediator: _mediator, ...before } = seedDocuments.legal;
    expect(documentSchemas.legal.parse({ ...before, vatNumber: "FR64 443061841" })).toMatchObject({
      vatRegime: "assujetti",
      mediator: { name: "", website: "" },
    });
    expect(documentSchemas.legal.parse({ ...before, vatNumber: "" })).toMatchObject({
      vatRegime: "franchise",
    });
  });

  it("reads one feature a line, and the offer's dates in order", () => {
    const values = documentValues("gendarmerie", stored(seedDocuments.gendarmerie));
    values["packages.0.features"] = "Reportage\r\n\r\n  Gala  \n";
    values["offer.validFrom"] = "2026-09-01";
    values["offer.validUntil"] = "2026-08-31";
    const parsed = parseNestedForm(values, gendarmerieForm);
    expect(!parsed.ok && parsed.errors).toEqual({
      "offer.validUntil": "La fin de l'offre doit suivre son début",
    });
    values["offer.validUntil"] = "2026-12-31";
    const accepted = parseNestedForm(values, gendarmerieForm);
    expect(accepted.ok && accepted.data.packages[0]?.features).toEqual(["Reportage", "Gala"]);
  });

  it("takes a YouTube video's address or its id", () => {
    expect(youtubeIdFrom("https://www.youtube.com/watch?v=M7lc1UVf-VE")).toBe("M7lc1UVf-VE");
    expect(youtubeIdFrom("https://youtu.be/M7lc1UVf-VE")).toBe("M7lc1UVf-VE");
    expect(youtubeIdFrom("M7lc1UVf-VE")).toBe("M7lc1UVf-VE");
    expect(youtubeIdFrom("")).toBe("");
    expect(youtubeIdFrom("https://example.com/watch?v=M7lc1UVf-VE")).toBeNull();
  });
});

describe("list buttons", () => {
  const tree = unflatten({
    "tabs.0.label": "P",
    "tabs.0.cards.0.title": "A",
    "tabs.0.cards.1.title": "B",
    "tabs.0.cards.2.title": "C",
  });

  it("add an empty card, keeping what was typed", () => {
    const after = applyListIntent(tree, "add:tabs.0.cards");
    expect(after).toMatchObject({
      tabs: [
        { label: "P", cards: [{ title: "A" }, { title: "B" }, { title: "C" }, { title: "" }] },
      ],
    });
    expect(applyListIntent(tree, "add:tabs.0.label")).toBeUndefined();
  });

  it("add to a list whose items were all removed", () => {
    expect(applyListIntent({}, "add:grossesse")).toEqual({
      grossesse: [{ quote: "", author: "", location: "" }],
    });
  });

  it("remove and move a card", () => {
    expect(applyListIntent(tree, "remove:tabs.0.cards.1")).toMatchObject({
      tabs: [{ cards: [{ title: "A" }, { title: "C" }] }],
    });
    expect(applyListIntent(tree, "up:tabs.0.cards.2")).toMatchObject({
      tabs: [{ cards: [{ title: "A" }, { title: "C" }, { title: "B" }] }],
    });
    expect(applyListIntent(tree, "down:tabs.0.cards.0")).toMatchObject({
      tabs: [{ cards: [{ title: "B" }, { title: "A" }, { title: "C" }] }],
    });
    expect(applyListIntent(tree, "down:tabs.0.cards.2")).toEqual(tree);
  });

  it("refuse what no button posts", () => {
    for (const intent of [
      "save",
      "remove:tabs.0.cards.9",
      "remove:tabs.9.cards.0",
      "drop:tabs.0",
      "add:nothing",
    ]) {
      expect(applyListIntent(tree, intent)).toBeUndefined();
    }
  });
});

describe("lists of items with a photo", () => {
  const OTHER = "6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b";

  it("add a gift session that asks for its photo, then saves it once chosen", () => {
    const values = documentValues("giftSessions", stored(seedDocuments.giftSessions));
    const count = seedDocuments.giftSessions.sessions.length;
    const added = applyListIntent(unflatten(values), "add:sessions");
    const sessions = (added as { sessions: Array<Record<string, string>> }).sessions;
    expect(sessions).toHaveLength(count + 1);
    expect(sessions.at(-1)).toEqual({
      title: "",
      price: "",
      description: "",
      photo: "",
      link: "",
      sessionType: "",
    });
    const typed = {
      ...flatten(added ?? {}),
      [`sessions.${count}.title`]: "Séance fratrie",
      [`sessions.${count}.price`]: "149 €",
      [`sessions.${count}.description`]: "Frères et sœurs réunis.",
      [`sessions.${count}.link`]: "https://boutique.example.fr/fratrie",
    };
    const refused = parseNestedForm(typed, giftSessionsForm);
    expect(!refused.ok && refused.errors).toEqual({ [`sessions.${count}.photo`]: PHOTO_MESSAGE });
    const accepted = parseNestedForm(
      { ...typed, [`sessions.${count}.photo`]: OTHER },
      giftSessionsForm,
    );
    expect(accepted.ok && accepted.data.sessions.at(-1)).toEqual({
      title: "Séance fratrie",
      price: { kind: "fixed", euros: 149 },
      description: "Frères et sœurs réunis.",
      photo: OTHER,
      link: "https://boutique.example.fr/fratrie",
      sessionType: "",
    });
    expect(accepted.ok && documentSchemas.giftSessions.safeParse(accepted.data).success).toBe(true);
  });

  it("remove a gift session and a gendarmerie service", () => {
    const gifts = unflatten(documentValues("giftSessions", stored(seedDocuments.giftSessions)));
    const removed = parseNestedForm(
      flatten(applyListIntent(gifts, "remove:sessions.0") ?? {}),
      giftSessionsForm,
    );
    expect(removed.ok && removed.data.sessions).toMatchObject(
      stored(seedDocuments.giftSessions).sessions.slice(1),
    );
    const offer = unflatten(documentValues("gendarmerie", stored(seedDocuments.gendarmerie)));
    const withNew = applyListIntent(offer, "add:services");
    const services = (withNew as { services: Array<Record<string, string>> }).services;
    expect(services.at(-1)).toMatchObject({ icon: "Camera", photo: "" });
    const withoutFirst = parseNestedForm(
      flatten(applyListIntent(offer, "remove:services.0") ?? {}),
      gendarmerieForm,
    );
    expect(withoutFirst.ok && withoutFirst.data.services).toMatchObject(
      stored(seedDocuments.gendarmerie).services.slice(1),
    );
  });

  it("add a titled photo to an empty style gallery, move and remove it", () => {
    const empty = unflatten(styleGalleryValues([]));
    const added = applyListIntent(empty, "add:photos");
    expect(added).toEqual({ photos: [{ title: "", photo: "" }] });
    const refused = parseNestedForm(flatten(added ?? {}), styleGalleryForm);
    expect(!refused.ok && refused.errors).toEqual({
      "photos.0.title": "Ce champ est requis",
      "photos.0.photo": PHOTO_MESSAGE,
    });
    const two = styleGalleryValues([
      { title: "Dentelle", photo: PHOTO },
      { title: "Clair-obscur", photo: OTHER },
    ]);
    const moved = parseNestedForm(
      flatten(applyListIntent(unflatten(two), "up:photos.1") ?? {}),
      styleGalleryForm,
    );
    expect(moved.ok && moved.data.photos).toEqual([
      { title: "Clair-obscur", photo: OTHER },
      { title: "Dentelle", photo: PHOTO },
    ]);
    const removed = parseNestedForm(
      flatten(applyListIntent(unflatten(two), "remove:photos.0") ?? {}),
      styleGalleryForm,
    );
    expect(removed.ok && removed.data.photos).toEqual([{ title: "Clair-obscur", photo: OTHER }]);
    // Every item removed: an empty gallery, which the page announces as coming soon.
    const none = parseNestedForm({}, styleGalleryForm);
    expect(none.ok && none.data.photos).toEqual([]);
  });
});
