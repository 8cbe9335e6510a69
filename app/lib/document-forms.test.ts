import { describe, expect, it } from "vitest";
import { documentSchemas } from "~/content/schemas";
import { seedDocuments } from "~/content/seed";
import {
  applyListIntent,
  documentValues,
  gendarmerieForm,
  giftSessionsForm,
  identityForm,
  legalForm,
  pricesForm,
  testimonialsForm,
  youtubeIdFrom,
} from "./document-forms";
import { parseNestedForm, unflatten } from "./forms";
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
