import { describe, expect, it } from "vitest";
import { fetchPage, textOf } from "../support/html";
import { accessibleName, hrefOf, readableText } from "../support/public-pages";
import { serverBaseUrl } from "../support/server-under-test";

// The tabs as the server renders them, which is also the page without JavaScript: each tab is a link to the
// page with that tab open. Switching them in the page: tests/e2e/pages-tarifs.test.ts.

const baseUrl = serverBaseUrl();

type PanelId = "particuliers" | "pro";

async function tarifs(path: string) {
  const { status, document } = await fetchPage(path);
  expect(status).toBe(200);
  const tab = (name: string) => {
    const tabs = [...document.querySelectorAll('[role="tab"]')].filter(
      (element) => textOf(element) === name,
    );
    expect(tabs, name).toHaveLength(1);
    return tabs[0] as Element;
  };
  const panel = (id: PanelId) => document.querySelector(`#panneau-${id}`);
  /** The hrefs of a panel's « En savoir plus » links, in order. */
  const moreLinks = (id: PanelId) =>
    [...(panel(id)?.querySelectorAll("a[href]") ?? [])]
      .filter((link) => accessibleName(link).startsWith("En savoir plus"))
      .map((link) => link.getAttribute("href"));
  return { document, tab, panel, moreLinks };
}

describe("/tarifs", () => {
  it("opens on 'Particuliers' with its five prices, badge and 'En savoir plus' links", async () => {
    const { document, tab, panel, moreLinks } = await tarifs("/tarifs");
    expect([...document.querySelectorAll("h1")].map(textOf)).toEqual(["Nos Tarifs"]);
    expect(tab("Particuliers").getAttribute("aria-selected")).toBe("true");
    expect(tab("Pro & Mariages").getAttribute("aria-selected")).toBe("false");
    expect(panel("particuliers")?.hasAttribute("hidden")).toBe(false);
    expect(panel("pro")?.hasAttribute("hidden")).toBe(true);
    const text = readableText(panel("particuliers"));
    for (const expected of [
      "Séance Famille 79 €",
      "Séance Grossesse 79 €",
      "Séance Naissance 99 €",
      "Meilleur Prix",
      "Coffret Grossesse + Naissance 129 €",
      "Portrait CV 59 €",
      "45 min à 1 h",
      "1 h 30 à 2 h 30",
      "Un tirage papier 20x30 cm offert",
      "10 jours après la séance",
      "15 jours après la séance",
    ]) {
      expect(text).toContain(expected);
    }
    expect(moreLinks("particuliers")).toEqual([
      "/portrait-famille",
      "/prestations/grossesse",
      "/prestations/naissances",
      "/prestations/naissances",
      "/professionnels",
    ]);
    const main = document.querySelector("main");
    for (const name of ["Réserver une séance", "Nous contacter"]) {
      expect(hrefOf(main, name)).toBe("/contact");
    }
  });

  it("renders the tab named in the URL, 'Pro & Mariages' with its prices, badge and links", async () => {
    const { document, tab, panel, moreLinks } = await tarifs("/tarifs?onglet=pro");
    expect(tab("Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(tab("Particuliers").getAttribute("aria-selected")).toBe("false");
    expect(panel("particuliers")?.hasAttribute("hidden")).toBe(true);
    expect(panel("pro")?.hasAttribute("hidden")).toBe(false);
    const text = readableText(panel("pro"));
    expect(text).toContain("Mariages à partir de 990 €");
    expect(text).toContain("Populaire");
    expect(text).toContain("Prestations Pro Sur devis");
    expect(moreLinks("pro")).toEqual(["/prestations/mariages", "/professionnels"]);
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
      `${baseUrl}/tarifs`,
    );
  });

  it("works without JavaScript: each tab is a link to the page with that tab open", async () => {
    const { tab } = await tarifs("/tarifs");
    expect(tab("Pro & Mariages").getAttribute("href")).toBe("/tarifs?onglet=pro");
    const pro = await tarifs("/tarifs?onglet=pro");
    expect(pro.panel("pro")?.hasAttribute("hidden")).toBe(false);
    expect(pro.panel("particuliers")?.hasAttribute("hidden")).toBe(true);
    expect(pro.tab("Particuliers").getAttribute("href")).toBe("/tarifs?onglet=particuliers");
    const particuliers = await tarifs("/tarifs?onglet=particuliers");
    expect(particuliers.panel("particuliers")?.hasAttribute("hidden")).toBe(false);
    expect(particuliers.panel("pro")?.hasAttribute("hidden")).toBe(true);
  });
});
