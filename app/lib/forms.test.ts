import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import {
  flatten,
  isUuid,
  listLength,
  nestedFieldErrors,
  parseForm,
  parseIntent,
  parseNestedForm,
  unflatten,
} from "./forms";

const schema = z.object({
  name: z.string().trim().min(1, "Le nom est requis"),
  age: z.string().regex(/^\d+$/, "Âge invalide").transform(Number),
});

function form(fields: Record<string, string>): FormData {
  const formData = new FormData();
  for (const [key, value] of Object.entries(fields)) formData.append(key, value);
  return formData;
}

describe("parseForm", () => {
  it("gives the schema's output and the typed values when the form is valid", () => {
    const parsed = parseForm(form({ name: " Léa ", age: "31" }), schema);
    expect(parsed).toEqual({
      ok: true,
      data: { name: "Léa", age: 31 },
      values: { name: " Léa ", age: "31" },
    });
  });

  it("keeps what was typed and gives the first message of each invalid field", () => {
    const parsed = parseForm(form({ name: "  ", age: "trente" }), schema);
    expect(parsed).toEqual({
      ok: false,
      values: { name: "  ", age: "trente" },
      errors: { name: "Le nom est requis", age: "Âge invalide" },
    });
  });

  it("leaves out the omitted fields and files, and drops control characters", () => {
    const formData = form({ name: "Lé\u0000a", age: "3", intent: "save" });
    formData.append("photo", new File(["x"], "x.jpg"));
    const parsed = parseForm(formData, schema, { omit: ["intent"] });
    expect(parsed.values).toEqual({ name: "Léa", age: "3" });
  });

  it("reads plain values too (what the browser checks before sending)", () => {
    expect(parseForm({ name: "Léa", age: "x\u0007" }, schema)).toMatchObject({
      ok: false,
      values: { name: "Léa", age: "x" },
      errors: { age: "Âge invalide" },
    });
  });
});

describe("isUuid", () => {
  it("accepts the ids PostgreSQL gives, in either case", () => {
    expect(isUuid("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe(true);
    expect(isUuid("0F8FAD5B-D9CB-469F-A165-70867728950E")).toBe(true);
  });

  it.each([
    "",
    "0f8fad5b-d9cb-469f-a165-70867728950",
    "0f8fad5b-d9cb-469f-a165-70867728950e0",
    "0f8fad5bd9cb-469f-a165-70867728950e-",
    "------------------------------------",
    "0f8fad5b-d9cb-469f-a165-70867728950g",
    " 0f8fad5b-d9cb-469f-a165-70867728950e",
    "1 or 1=1",
  ])("refuses %j", (value) => {
    expect(isUuid(value)).toBe(false);
  });

  it("refuses what is not a string", () => {
    expect(isUuid(null)).toBe(false);
    expect(isUuid(new File([], "0f8fad5b-d9cb-469f-a165-70867728950e"))).toBe(false);
  });
});

describe("parseIntent", () => {
  const id = "0f8fad5b-d9cb-469f-a165-70867728950e";

  it("gives the intent and the id", () => {
    expect(parseIntent(form({ intent: "delete", id }), ["publish", "delete"])).toEqual({
      ok: true,
      intent: "delete",
      id,
    });
  });

  it("refuses an intent that is not in the list, before looking at the id", () => {
    expect(parseIntent(form({ intent: "drop", id: "x" }), ["publish", "delete"])).toEqual({
      ok: false,
      reason: "intent",
    });
    expect(parseIntent(form({ id }), ["publish"])).toEqual({ ok: false, reason: "intent" });
  });

  it("refuses an id that is not a UUID", () => {
    expect(parseIntent(form({ intent: "publish", id: "42" }), ["publish"])).toEqual({
      ok: false,
      reason: "id",
    });
    expect(parseIntent(form({ intent: "publish" }), ["publish"])).toEqual({
      ok: false,
      reason: "id",
    });
  });
});

describe("nested forms", () => {
  const cardsSchema = z.object({
    label: z.string().min(1, "Le nom est requis"),
    cards: z
      .array(
        z.object({
          title: z.string().min(1, "Le titre est requis"),
          price: z.string().regex(/^\d+$/, "Prix invalide").transform(Number),
        }),
      )
      .default([]),
  });

  it("builds lists and objects from dotted names, in index order, without holes", () => {
    expect(
      unflatten({
        label: "Particuliers",
        "cards.2.title": "C",
        "cards.0.title": "A",
        "cards.0.price": "79",
        "host.name": "Hébergeur",
      }),
    ).toEqual({
      label: "Particuliers",
      cards: [{ title: "A", price: "79" }, { title: "C" }],
      host: { name: "Hébergeur" },
    });
  });

  it("drops crafted names: clashes, huge indices, odd segments", () => {
    expect(
      unflatten({
        a: "1",
        "a.b": "2",
        "list.99999999.x": "3",
        "__proto__.polluted": "4",
        "x..y": "5",
      }),
    ).toEqual({ a: "1" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("flattens a tree back to the names a form posts", () => {
    const values = { label: "P", "cards.0.title": "A", "cards.1.title": "B", "host.name": "H" };
    expect(flatten(unflatten(values))).toEqual(values);
  });

  it("counts a list's items", () => {
    const values = { "cards.0.title": "A", "cards.1.title": "B", "cards.1.price": "1", card: "x" };
    expect(listLength(values, "cards")).toBe(2);
    expect(listLength(values, "tabs")).toBe(0);
  });

  it("keys each message by the whole path of its field", () => {
    const parsed = cardsSchema.safeParse({ label: "", cards: [{ title: "A", price: "x" }] });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(nestedFieldErrors(parsed.error)).toEqual({
      label: "Le nom est requis",
      "cards.0.price": "Prix invalide",
    });
  });

  it("parses a nested form: the schema's output, or the typed values and errors at the right card", () => {
    expect(
      parseNestedForm(
        form({ label: "P", "cards.0.title": "A", "cards.0.price": "79", intent: "save" }),
        cardsSchema,
        { omit: ["intent"] },
      ),
    ).toEqual({
      ok: true,
      data: { label: "P", cards: [{ title: "A", price: 79 }] },
      values: { label: "P", "cards.0.title": "A", "cards.0.price": "79" },
    });
    expect(
      parseNestedForm(
        form({
          label: "P",
          "cards.0.title": "A",
          "cards.0.price": "1",
          "cards.3.title": "",
          "cards.3.price": "douze",
        }),
        cardsSchema,
      ),
    ).toEqual({
      ok: false,
      values: {
        label: "P",
        "cards.0.title": "A",
        "cards.0.price": "1",
        "cards.1.title": "",
        "cards.1.price": "douze",
      },
      errors: { "cards.1.title": "Le titre est requis", "cards.1.price": "Prix invalide" },
    });
  });
});
