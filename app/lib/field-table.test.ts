import { describe, expect, it } from "vitest";
import { defineFields, readFields, tableRows, tableSchema, tableValues } from "./field-table";

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

describe("a form made of several tables", () => {
  const who = defineFields({
    title: { kind: "text", label: "Titre", max: 20, required: "Indiquez le titre" },
    first: { kind: "text", label: "Prénom", max: 20, row: "name" },
    last: { kind: "text", label: "Nom", max: 20, row: "name" },
    day: {
      kind: "date",
      label: "Jour",
      invalid: "Jour invalide",
      emptyIsNull: true,
      checks: [
        {
          holds: (value: string, { today }: { today: string }) => value === "" || value >= today,
          message: "Pas dans le passé",
        },
      ],
      row: "when",
      columns: "sm:grid-cols-[10rem_1fr]",
    },
    hour: { kind: "text", label: "Heure", row: "when" },
  });
  const access = defineFields({
    open: { kind: "boolean", label: "Ouverte" },
    framing: {
      kind: "choice",
      label: "Cadrage",
      choices: [{ value: "centre", label: "Au centre" }],
      message: "Choisissez un cadrage",
      emptyIsNull: true,
      editingOnly: true,
    },
  });
  const schema = tableSchema([who, access], { today: "2026-11-29" });

  it("reads every table's fields, a field not posted as empty, and checks what needs the context", () => {
    expect(schema.parse({ title: "Séance", day: "2026-12-01" })).toEqual({
      title: "Séance",
      first: "",
      last: "",
      day: "2026-12-01",
      hour: "",
      open: false,
      framing: null,
    });
    const refused = schema.safeParse({ title: "", day: "2026-11-28", framing: "bas" });
    expect(refused.success).toBe(false);
    expect(
      Object.fromEntries(
        (refused.error?.issues ?? []).map((issue) => [issue.path[0], issue.message]),
      ),
    ).toEqual({
      title: "Indiquez le titre",
      day: "Pas dans le passé",
      framing: "Choisissez un cadrage",
    });
    expect(schema.safeParse({ title: "x", day: "2026-02-31" }).error?.issues[0]?.message).toBe(
      "Jour invalide",
    );
  });

  it("lays out the fields of one row side by side, and leaves out what only editing shows", () => {
    expect(tableRows(who)).toEqual([
      { names: ["title"], grid: false, columns: "sm:grid-cols-2" },
      { names: ["first", "last"], grid: true, columns: "sm:grid-cols-2" },
      { names: ["day", "hour"], grid: true, columns: "sm:grid-cols-[10rem_1fr]" },
    ]);
    expect(tableRows(access, { editing: false }).map((row) => row.names)).toEqual([["open"]]);
    expect(tableRows(access).map((row) => row.names)).toEqual([["open"], ["framing"]]);
  });
});
