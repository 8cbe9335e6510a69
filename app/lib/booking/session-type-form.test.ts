import { describe, expect, it } from "vitest";
import { newSessionTypeValues, parseSessionTypeForm, questionField } from "./session-type-form";
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
