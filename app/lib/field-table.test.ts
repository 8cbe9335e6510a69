import { describe, expect, it } from "vitest";
import { defineFields, readFields, tableValues } from "./field-table";

const table = defineFields({
  name: { kind: "text", label: "Nom", max: 10, required: "Indiquez le nom" },
  notes: { kind: "textarea", label: "Notes", inputLabel: "Notes (facultatives)", max: 3000 },
  link: { kind: "url", label: "Lien", max: 500, stored: "links.main" },
  email: {
    kind: "email",
    label: "E-mail",
    max: 255,
    required: "Indiquez l'e-mail",
    invalid: "Adresse e-mail invalide",
  },
  code: {
    kind: "text",
    label: "Code",
    required: "Cinq chiffres",
    pattern: { regex: /^\d{5}$/, message: "Cinq chiffres" },
    normalize: (text) => text.replace(/\s/g, ""),
  },
  minutes: { kind: "number", label: "Durée", min: 5, max: 1440, unit: "minutes", initial: 60 },
  online: { kind: "boolean", label: "En ligne" },
  mode: {
    kind: "choice",
    label: "Mode",
    choices: [
      { value: "instant", label: "Immédiate" },
      { value: "request", label: "Sur demande" },
    ],
    message: "Choisissez un mode",
    initial: "instant",
    stored: false,
  },
});

describe("a form's field table", () => {
  it("gives the form's order, labels, first values and the history's labels", () => {
    expect(table.names).toEqual([
      "name",
      "notes",
      "link",
      "email",
      "code",
      "minutes",
      "online",
      "mode",
    ]);
    expect(table.labels.notes).toBe("Notes");
    expect(table.initialValues).toEqual({
      name: "",
      notes: "",
      link: "",
      email: "",
      code: "",
      minutes: "60",
      online: "",
      mode: "instant",
    });
    expect(table.historyLabels).toEqual({
      name: "Nom",
      notes: "Notes",
      "links.main": "Lien",
      email: "E-mail",
      code: "Code",
      minutes: "Durée",
      online: "En ligne",
    });
  });

  it("reads every field into its kind", () => {
    const read = readFields(table, {
      name: " Léa ",
      notes: "",
      link: "https://exemple.fr/a",
      email: "lea@exemple.fr",
      code: "19 200",
      minutes: "1 440",
      online: "on",
      mode: "request",
    });
    expect(read).toEqual({
      ok: true,
      errors: {},
      data: {
        name: "Léa",
        notes: "",
        link: "https://exemple.fr/a",
        email: "lea@exemple.fr",
        code: "19200",
        minutes: 1440,
        online: true,
        mode: "request",
      },
    });
    if (read.ok)
      expect(tableValues(table, read.data)).toMatchObject({ minutes: "1440", online: "on" });
  });

  it("says in French what to correct, keeping what holds (a field not posted reads as empty)", () => {
    const read = readFields(table, {
      name: "Un nom bien trop long",
      notes: "x".repeat(3001),
      link: "http://exemple.fr",
      email: "lea",
      minutes: "4",
      mode: "plus tard",
    });
    expect(read).toEqual({
      ok: false,
      data: { online: false },
      errors: {
        name: "10 caractères au plus",
        notes: "3 000 caractères au plus",
        link: "Le lien doit être une adresse complète commençant par https://",
        email: "Adresse e-mail invalide",
        code: "Cinq chiffres",
        minutes: "Entre 5 et 1440 minutes",
        mode: "Choisissez un mode",
      },
    });
    expect(readFields(table, { minutes: "1,5" }).errors.minutes).toBe(
      "Un nombre entier, sans virgule",
    );
    expect(readFields(table, { minutes: " " }).errors.minutes).toBe("Indiquez un nombre");
    expect(readFields(table, {}).errors).toMatchObject({
      name: "Indiquez le nom",
      email: "Indiquez l'e-mail",
    });
  });

  it("derives one zod schema for the whole form", () => {
    expect(table.schema.safeParse({ ...table.initialValues, name: "Léa" }).success).toBe(false);
    const parsed = table.schema.safeParse({
      ...table.initialValues,
      name: "Léa",
      email: "lea@exemple.fr",
      code: "19200",
    });
    expect(parsed.success && parsed.data.minutes).toBe(60);
  });
});
