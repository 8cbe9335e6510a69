import { describe, expect, it } from "vitest";
import { FRENCH_MONTHS } from "./dates";
import { elides, ofName } from "./french";

describe("ofName", () => {
  it("elides « de » before a vowel, an accented vowel or a mute h", () => {
    expect(ofName("Atelier Lumière")).toBe("d'Atelier Lumière");
    expect(ofName("Éclat Photo")).toBe("d'Éclat Photo");
    expect(ofName("Yvonne Photographie")).toBe("d'Yvonne Photographie");
    expect(ofName("Harmonie Studio")).toBe("d'Harmonie Studio");
    expect(ofName("  Instant T ")).toBe("d'Instant T");
  });

  it("keeps « de » before a consonant or an aspirated h", () => {
    expect(ofName("Studio Photo Exemple")).toBe("de Studio Photo Exemple");
    expect(ofName("Hibou Studio")).toBe("de Hibou Studio");
    expect(ofName("Héros du Jour")).toBe("de Héros du Jour");
    expect(ofName("Haut les Cœurs")).toBe("de Haut les Cœurs");
    expect(elides("")).toBe(false);
  });

  it("elides « de » before the months that start with a vowel, and only those", () => {
    const months = FRENCH_MONTHS.map((month) => ofName(`${month} 2027`));
    expect(months.filter((words) => words.startsWith("d'"))).toEqual([
      "d'avril 2027",
      "d'août 2027",
      "d'octobre 2027",
    ]);
    expect(months).toContain("de novembre 2027");
  });
});
