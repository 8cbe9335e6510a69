import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { isUuid, parseForm, parseIntent } from "./forms";

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
