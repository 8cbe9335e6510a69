import { describe, expect, it } from "vitest";
import { normalisedPath, redirectTarget } from "./redirects";
import { seedRedirects } from "~/content/seed";

const table = new Map(seedRedirects.map((entry) => [entry.from, entry.to]));

describe("seeded redirects", () => {
  it("lists every old address once and never points at another old address", () => {
    const sources = seedRedirects.map((entry) => entry.from);
    expect(new Set(sources).size).toBe(sources.length);
    for (const { to } of seedRedirects) expect(sources).not.toContain(to);
  });

  it("covers the addresses SPEC §2 names", () => {
    expect(redirectTarget(table, "/accueil")).toBe("/");
    expect(redirectTarget(table, "/faq")).toBe("/contact");
    expect(redirectTarget(table, "/immobilier")).toBe("/professionnels");
    expect(redirectTarget(table, "/prestations/maternite")).toBe("/prestations/grossesse");
    expect(redirectTarget(table, "/fond-couleur")).toBe("/galerie");
    expect(redirectTarget(table, "/enfant")).toBe("/portrait-famille");
    expect(redirectTarget(table, "/contact-brive")).toBe("/contact-studio-brive");
    expect(seedRedirects.filter((entry) => entry.to === "/blog")).toHaveLength(6);
  });
});

describe("redirect lookup", () => {
  it("ignores a trailing slash and knows nothing else", () => {
    expect(redirectTarget(table, "/faq/")).toBe("/contact");
    expect(redirectTarget(table, "/faq//")).toBe("/contact");
    expect(redirectTarget(table, "/tarifs")).toBeUndefined();
    expect(normalisedPath("/")).toBe("/");
  });
});
