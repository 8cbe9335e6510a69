import { describe, expect, it } from "vitest";
import { isLightPage, isLightPath } from "./light-pages";
import { lightScriptSource } from "./light-script";

const light = [
  "/",
  "/prestations",
  "/prestations/grossesse",
  "/prestations/naissances",
  "/prestations/mariages",
  "/portrait-famille",
  "/boudoir",
  "/professionnels",
  "/gendarmerie",
  "/scolaire",
  "/seances-a-offrir",
  "/tarifs",
  "/galerie",
  "/mentions-legales",
  "/donnees-personnelles",
  "/politique-cookies",
  "/studio-brive",
  "/studio-saint-yrieix",
  // Decision 0137.
  "/blog",
  "/blog/un-article",
  "/blog/categorie/mariages",
  // Decision 0137, its contact pages' section.
  "/contact",
  "/contact-studio-brive",
  // Decision 0168.
  "/bons-cadeaux",
  "/commande/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde",
];
const hydrated = [
  "/newsletter/confirmation",
  "/newsletter/desabonnement",
  "/admin/dashboard",
  "/prestations/autre",
  "/tarifs/pro",
  "/studio-",
  "/galeries",
];

describe("light pages (decision 0090)", () => {
  it("are the marketing pages, the studios' and the legal pages", () => {
    for (const path of light) expect(isLightPath(path), path).toBe(true);
    for (const path of hydrated) expect(isLightPath(path), path).toBe(false);
  });

  it("a page is light by its address, unless it is the 404 or an error page", () => {
    const at = (pathname: string, loaderData?: unknown) => [
      { pathname: "/" },
      { pathname, loaderData },
    ];
    expect(isLightPage(at("/tarifs"), undefined)).toBe(true);
    expect(isLightPage(at("/tarifs"), new Error("panne"))).toBe(false);
    expect(isLightPage(at("/studio-brive", { kind: "studio" }), undefined)).toBe(true);
    expect(isLightPage(at("/studio-inconnu", { kind: "not-found" }), undefined)).toBe(false);
    // The contact pages (decision 0137), but not an unknown one (routes/page's 404).
    expect(isLightPage(at("/contact-studio-brive", { kind: "contact" }), undefined)).toBe(true);
    expect(isLightPage(at("/contact-studio-x", { kind: "not-found" }), undefined)).toBe(false);
    expect(isLightPage(at("/contact"), undefined)).toBe(true);
    expect(isLightPage(at("/contact"), new Error("panne"))).toBe(false);
    // The blog's pages (decision 0137), but not their 404 (a route error: no loader data).
    expect(isLightPage(at("/blog", { articles: [] }), undefined)).toBe(true);
    expect(isLightPage(at("/blog/un-article", { article: {} }), undefined)).toBe(true);
    expect(isLightPage(at("/blog/inconnu", undefined), undefined)).toBe(false);
    expect(isLightPage([], undefined)).toBe(false);
  });

  it("the plain script is a few KB at most", () => {
    expect(lightScriptSource().length).toBeLessThan(5 * 1024);
  });
});
