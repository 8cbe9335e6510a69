import { describe, expect, it } from "vitest";
import {
  newSessionTypeValues,
  parseSessionTypeForm,
  questionField,
  sessionTypeFormValues,
} from "./session-type-form";
import { bookingClientSchema } from "./session-types";

const STUDIO = "0b6f6c1e-4c3a-4d4e-9f1a-3a2b1c0d9e8f";

describe("the keys taken from the owner's words", () => {
  it("never end with a hyphen when the 40-character cut falls on one", () => {
    // Its slug has a hyphen as its 40th character.
    const label = "Prenom et age de chaque enfant presente a la seance";
    expect(label.toLowerCase().replace(/ /g, "-").slice(0, 40)).toMatch(/-$/);
    const parsed = parseSessionTypeForm(
      {
        ...newSessionTypeValues([STUDIO]),
        name: "Portrait de famille nombreuse au studio, avec les grands-parents et",
        questionCount: "1",
        [questionField(0, "kind")]: "text",
        [questionField(0, "label")]: label,
      },
      { studioIds: [STUDIO], photoIds: [] },
    );
    expect(parsed.ok ? {} : parsed.errors).toEqual({});
    if (!parsed.ok) return;
    expect(parsed.value.questions.map((question) => question.id)).toEqual([
      "prenom-et-age-de-chaque-enfant-presente",
    ]);
  });
});

describe("the client's single-line details", () => {
  it("hold no line break, so no line can be forged in the studio's e-mail", () => {
    const parsed = bookingClientSchema.parse({
      name: "Léa Martin\r\nTéléphone : 01 02 03 04 05",
      email: "lea@example.test",
      phone: "06 12\n34 56 78",
    });
    expect(parsed.name).toBe("Léa Martin Téléphone : 01 02 03 04 05");
    expect(parsed.phone).toBe("06 12 34 56 78");
  });
});

describe("the session type form", () => {
  const options = { studioIds: [STUDIO], photoIds: [] };

  it("says in French what to correct at each field", () => {
    const parsed = parseSessionTypeForm(
      {
        ...newSessionTypeValues([]),
        name: "",
        slug: "Portrait Famille",
        description: "x".repeat(3001),
        photoId: "00000000-0000-4000-8000-000000000009",
        durationMinutes: "une heure",
        bufferBeforeMinutes: "601",
        stepMinutes: "",
        priceText: "x".repeat(201),
        mode: "demain",
        visibility: "tous",
        depositKind: "arrhes",
        depositText: " ",
        "hours-Monday": "18h–9h",
      },
      options,
    );
    expect(parsed).toEqual({
      ok: false,
      errors: {
        name: "Indiquez le nom de la séance",
        slug: "Lettres minuscules, chiffres et tirets seulement (exemple : portrait-famille)",
        description: "3 000 caractères au plus",
        photoId: "Cette photo n'est plus dans la médiathèque : choisissez-en une autre",
        durationMinutes: "Un nombre entier, sans virgule",
        bufferBeforeMinutes: "Entre 0 et 600 minutes",
        stepMinutes: "Indiquez un nombre",
        studios: "Cochez au moins un studio",
        priceText: "200 caractères au plus",
        mode: "Choisissez comment on réserve",
        visibility: "Choisissez qui peut réserver",
        depositText: "Indiquez le montant et comment le régler (exemple : 30 € au studio)",
        "hours-Monday": "Lundi : l'heure de fermeture doit suivre l'heure d'ouverture",
      },
    });
    const noKind = parseSessionTypeForm(
      { ...newSessionTypeValues([STUDIO]), name: "Portrait", depositKind: "bon", depositText: "x" },
      options,
    );
    expect(noKind).toEqual({
      ok: false,
      errors: { depositKind: "Choisissez acompte, arrhes ou aucun" },
    });
  });

  it("reads back what it shows of a stored type, its address taken from its name when left empty", () => {
    const parsed = parseSessionTypeForm(
      {
        ...newSessionTypeValues([STUDIO]),
        name: "Séance Été",
        depositKind: "arrhes",
        depositText: "30 € au studio",
        "hours-Saturday": "fermé",
      },
      options,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      slug: "seance-ete",
      durationMinutes: 60,
      depositText: "Arrhes : 30 € au studio",
      bookableHours: { Saturday: [] },
      photoId: null,
    });
    expect(parseSessionTypeForm(sessionTypeFormValues(parsed.value), options)).toEqual(parsed);
    expect(
      parseSessionTypeForm(
        { ...newSessionTypeValues([STUDIO]), name: "A", depositText: "x".repeat(600) },
        options,
      ),
    ).toMatchObject({ ok: true, value: { depositText: null } });
  });
});
