import { describe, expect, it } from "vitest";
import { characterCount, shortenedForSearchResult } from "./search-preview";

describe("the search result preview", () => {
  it("shows a title that fits whole", () => {
    expect(shortenedForSearchResult("  Séance   naissance  ", 60)).toBe("Séance naissance");
  });

  it("cuts a longer title at the last whole word, with « … »", () => {
    const title = "Séance photo de naissance à domicile en Corrèze : nos meilleurs conseils";
    const shown = shortenedForSearchResult(title, 60);
    expect(shown).toBe("Séance photo de naissance à domicile en Corrèze : nos …");
    expect(shown.length).toBeLessThanOrEqual(60);
  });

  it("cuts one endless word where it must", () => {
    expect(shortenedForSearchResult("a".repeat(80), 60)).toBe(`${"a".repeat(59)} …`);
  });
});

describe("the character counter", () => {
  it("counts what will be saved and says how much is too much", () => {
    expect(characterCount(" abc ", 60)).toEqual({ text: "3 / 60 caractères", over: false });
    expect(characterCount("a".repeat(62), 60)).toEqual({
      text: "62 / 60 caractères : 2 de trop",
      over: true,
    });
  });
});
