import { describe, expect, it } from "vitest";
import { SLUG_PATTERN, slugify } from "./slug";

describe("slugify", () => {
  it("lowercases, removes accents and joins words with one hyphen", () => {
    expect(slugify("Été à Brive !")).toBe("ete-a-brive");
    expect(slugify("Séance Noël : les coulisses")).toBe("seance-noel-les-coulisses");
  });

  it("turns runs of other characters into a single hyphen and trims edge hyphens", () => {
    expect(slugify("  --Hello,   World!!--  ")).toBe("hello-world");
    expect(slugify("l'œil du photographe")).toBe("l-oeil-du-photographe");
    expect(slugify("Çà & là_2025")).toBe("ca-la-2025");
  });

  it("returns an empty string when nothing usable remains", () => {
    expect(slugify("!!! ???")).toBe("");
    expect(slugify("")).toBe("");
  });

  it("always produces something SLUG_PATTERN accepts (or nothing)", () => {
    for (const title of ["Été à Brive !", "Naissance 2025 — J+15", "Ça alors ?!", "ÀÉÎÕÜ ñ"]) {
      expect(slugify(title)).toMatch(SLUG_PATTERN);
    }
  });
});

describe("SLUG_PATTERN", () => {
  it("accepts lowercase words joined by single hyphens", () => {
    expect(SLUG_PATTERN.test("seance-naissance-2025")).toBe(true);
    expect(SLUG_PATTERN.test("a")).toBe(true);
  });

  it("refuses capitals, accents, spaces, double or edge hyphens", () => {
    for (const bad of ["Seance", "été", "a b", "a--b", "-a", "a-", "", "a_b"]) {
      expect(SLUG_PATTERN.test(bad)).toBe(false);
    }
  });
});
