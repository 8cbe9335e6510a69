import { describe, expect, it } from "vitest";
import { redirects, redirectTarget } from "./redirects";

describe("redirects", () => {
  it("lists every old address once and never points at another old address", () => {
    const sources = redirects.map((entry) => entry.from);
    expect(new Set(sources).size).toBe(sources.length);
    for (const { to } of redirects) expect(sources).not.toContain(to);
  });

  it("covers the addresses SPEC §2 names", () => {
    expect(redirectTarget("/accueil")).toBe("/");
    expect(redirectTarget("/faq")).toBe("/contact");
    expect(redirectTarget("/immobilier")).toBe("/professionnels");
    expect(redirectTarget("/prestations/maternite")).toBe("/prestations/grossesse");
    expect(redirectTarget("/fond-couleur")).toBe("/galerie");
    expect(redirectTarget("/enfant")).toBe("/portrait-famille");
    expect(redirectTarget("/contact-brive")).toBe("/contact-studio-brive");
    expect(redirects.filter((entry) => entry.to === "/blog")).toHaveLength(6);
  });

  it("ignores a trailing slash and knows nothing else", () => {
    expect(redirectTarget("/faq/")).toBe("/contact");
    expect(redirectTarget("/tarifs")).toBeUndefined();
  });
});
