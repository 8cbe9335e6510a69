import { describe, expect, it } from "vitest";
import { fetchPage, textOf } from "../support/html";

// The header's and footer's links as the server sends them; how they behave in a browser (scroll, menus,
// the phone's menu) is in tests/e2e/layout.test.ts.

/** The links in `root` whose text is `name`. */
const linksNamed = (root: Element | null | undefined, name: string) =>
  [...(root?.querySelectorAll("a") ?? [])].filter((link) => textOf(link) === name);

describe("header", () => {
  it("marks the current page's link", async () => {
    const { document } = await fetchPage("/");
    const nav = document.querySelector('nav[aria-label="Navigation principale"]');
    const current = (name: string) =>
      linksNamed(nav, name).map((link) => link.getAttribute("aria-current"));
    expect(current("Accueil")).toEqual(["page"]);
    expect(current("Tarifs")).toEqual([null]);
    expect(linksNamed(nav, "Réserver").map((link) => link.getAttribute("href"))).toEqual([
      "/contact",
    ]);
  });
});

describe("footer", () => {
  it("links to the pages SPEC lists and opens social profiles in new tabs", async () => {
    const { document } = await fetchPage("/");
    const footer = document.querySelector("footer");
    const internal = [
      ...(footer?.querySelectorAll('nav[aria-label="Liens du pied de page"] a') ?? []),
    ].map((link) => link.getAttribute("href"));
    expect(internal).toEqual([
      "/",
      "/prestations",
      "/professionnels",
      "/tarifs",
      "/contact",
      "/mentions-legales",
      "/donnees-personnelles",
      "/politique-cookies",
    ]);
    for (const name of ["Facebook", "Instagram", "YouTube"]) {
      // Named by their text for screen readers (`Facebook (nouvel onglet)`), the icon hidden.
      const links = [...(footer?.querySelectorAll("a") ?? [])].filter((link) =>
        textOf(link).startsWith(name),
      );
      expect(links, name).toHaveLength(1);
      const [link] = links;
      expect(link?.getAttribute("target")).toBe("_blank");
      expect(link?.getAttribute("rel")).toContain("noopener");
      expect(link?.getAttribute("href")).toMatch(/^https:\/\//);
    }
  });
});
