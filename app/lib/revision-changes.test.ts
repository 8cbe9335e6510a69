import { describe, expect, it } from "vitest";
import { z } from "zod";
import { documentSchemas, studioDataSchema } from "~/content/schemas";
import { describeChanges, FIELD_LABELS, fieldLabel, summariseChanges } from "./revision-changes";
import { ARTICLE_REVISION_FIELDS } from "./article-revision";
import { IDENTITY_HISTORY_LABELS } from "./identity-form";
import { PAYMENT_HISTORY_LABELS } from "~/lib/payments/settings-form";
import { STUDIO_HISTORY_LABELS } from "./studio-form";

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  propertyNames?: { enum?: string[] };
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** Every key a value of `schema` may hold, with the key of the object holding it. */
function keysOf(schema: JsonSchema, parent: string, found: Array<[string, string]> = []) {
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    found.push([key, parent]);
    keysOf(child, key, found);
  }
  for (const key of schema.propertyNames?.enum ?? []) found.push([key, parent]);
  if (typeof schema.additionalProperties === "object") {
    keysOf(schema.additionalProperties, parent, found);
  }
  if (schema.items) keysOf(schema.items, parent, found);
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    keysOf(option, parent, found);
  }
  return found;
}

describe("describeChanges", () => {
  it("names every field of every document and studio in the owner's words", () => {
    // A studio's, the identity's and the payment settings' fields are named by their form's table
    // (decisions 0152, 0166).
    const tableLabels: Record<string, Readonly<Record<string, string>>> = {
      identity: IDENTITY_HISTORY_LABELS,
      payments: PAYMENT_HISTORY_LABELS,
    };
    const schemas = [
      ...Object.entries(documentSchemas).map(
        ([key, schema]) => [schema, tableLabels[key] ?? {}] as const,
      ),
      [studioDataSchema, STUDIO_HISTORY_LABELS] as const,
    ];
    const unnamed = schemas
      .flatMap(([schema, labels]) =>
        // The JSON Schema of a zod schema: only its objects, lists and unions matter here.
        keysOf(z.toJSONSchema(schema, { unrepresentable: "any" }) as JsonSchema, "").map(
          ([key, parent]) => [key, parent, labels] as const,
        ),
      )
      .filter(
        ([key, parent, labels]) =>
          fieldLabel(key, parent, labels) === key && !["kind", "euros"].includes(key),
      )
      .map(([key, parent]) => `${parent}.${key}`);
    expect([...new Set(unnamed)]).toEqual([]);
    expect(ARTICLE_REVISION_FIELDS.filter((key) => !(key in FIELD_LABELS))).toEqual([]);
  });

  it("says nothing of equal values, and names a changed field by its path", () => {
    const studio = { name: "Studio de Brive", address: { street: "1 rue A", city: "Brive" } };
    expect(describeChanges(studio, structuredClone(studio))).toEqual([]);
    expect(
      describeChanges(
        studio,
        { ...studio, address: { street: "2 rue B", city: "Brive" } },
        { labels: STUDIO_HISTORY_LABELS },
      ),
    ).toEqual([{ label: "Adresse › Rue", kind: "changed", before: "1 rue A", after: "2 rue B" }]);
  });

  it("shows prices, hours, yes/no, lists of texts and photos as the owner reads them", () => {
    const names = new Map([
      ["11111111-1111-4111-8111-111111111111", "photo « Mariés au lac »"],
      ["22222222-2222-4222-8222-222222222222", "photo « Nouveau-né »"],
    ]);
    const before = {
      price: { kind: "fixed", euros: 1200 },
      hours: { Monday: [{ opens: "09:00", closes: "12:00" }] },
      highlighted: false,
      features: ["1 h de séance", "10 photos"],
      photo: "11111111-1111-4111-8111-111111111111",
    };
    const after = {
      price: { kind: "from", euros: 990 },
      hours: {
        Monday: [
          { opens: "09:00", closes: "12:00" },
          { opens: "14:00", closes: "18:30" },
        ],
      },
      highlighted: true,
      features: ["1 h de séance", "15 photos"],
      photo: "22222222-2222-4222-8222-222222222222",
    };
    expect(describeChanges(before, after, { names })).toEqual([
      {
        label: "Prix",
        kind: "changed",
        before: "1\u202f200\u00a0€",
        after: "à partir de 990\u00a0€",
      },
      { label: "Horaires › Lundi", kind: "changed", before: "9h–12h", after: "9h–12h, 14h–18h30" },
      { label: "Mise en avant", kind: "changed", before: "non", after: "oui" },
      {
        label: "Points inclus",
        kind: "changed",
        before: "1 h de séance · 10 photos",
        after: "1 h de séance · 15 photos",
      },
      {
        label: "Photo",
        kind: "changed",
        before: "photo « Mariés au lac »",
        after: "photo « Nouveau-né »",
      },
    ]);
  });

  it("pairs list items by name: an addition, a removal and a new order, not every item changed", () => {
    const card = (title: string, euros: number) => ({ title, price: { kind: "fixed", euros } });
    const before = { cards: [card("Portrait", 120), card("Famille", 180), card("Bébé", 150)] };
    const after = { cards: [card("Famille", 190), card("Portrait", 120), card("Couple", 140)] };
    expect(describeChanges(before, after)).toEqual([
      { label: "Cartes", kind: "reordered", before: "", after: "" },
      {
        label: "Cartes › « Famille » › Prix",
        kind: "changed",
        before: "180\u00a0€",
        after: "190\u00a0€",
      },
      { label: "Cartes › « Couple »", kind: "added", before: "", after: "Couple" },
      { label: "Cartes › « Bébé »", kind: "removed", before: "Bébé", after: "" },
    ]);
  });

  it("names days, photo slots and page galleries by the object holding them", () => {
    expect(fieldLabel("Saturday", "hours")).toBe("Samedi");
    expect(fieldLabel("accueil.hero", "slots")).toBe("Accueil : grande photo");
    expect(fieldLabel("grossesse", "galleries")).toBe("Grossesse : les photos");
    expect(fieldLabel("grossesse", "")).toBe("Grossesse");
  });

  it("shows a long text around what changed, and an article's HTML by its visible text", () => {
    const long = "Une très longue description du studio, ".repeat(10);
    const [change] = describeChanges({ description: long }, { description: `${long}Parking.` });
    expect(change?.before).toBe(`…${long.slice(-40)}`);
    expect(change?.after).toBe(`…${long.slice(-40)}Parking.`);

    const [body] = describeChanges(
      { content: "<p>Bonjour <strong>à tous</strong></p>" },
      { content: "<p>Bonjour à toutes</p>" },
      { html: ["content"] },
    );
    expect(body).toEqual({
      label: "Contenu",
      kind: "changed",
      before: "Bonjour à tous",
      after: "Bonjour à toutes",
    });
    const [format] = describeChanges(
      { content: "<p>Bonjour</p>" },
      { content: "<h2>Bonjour</h2>" },
      { html: ["content"] },
    );
    expect(format?.after).toBe("Bonjour (mise en forme modifiée)");
  });

  it("sums a save up in one line", () => {
    const change = (label: string) => ({ label, kind: "changed" as const, before: "", after: "" });
    expect(summariseChanges([])).toBe("");
    expect(summariseChanges([change("Téléphone")])).toBe("Téléphone");
    expect(summariseChanges([change("Téléphone"), change("Horaires › Lundi")])).toBe(
      "Téléphone et Horaires › Lundi",
    );
    expect(summariseChanges(["A", "B", "C", "D", "E"].map(change))).toBe(
      "A, B, C et 2 autres changements",
    );
  });
});
