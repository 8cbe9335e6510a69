import { describe, expect, it } from "vitest";
import { fetchPage, metaContent, textOf } from "../support/html";
import { hrefOf, readableText, servicePages } from "../support/public-pages";
import { serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();

/** The page's `<main>` as the server renders it (each page is complete before any script). */
async function mainOf(path: string) {
  const { status, document } = await fetchPage(path);
  expect(status, path).toBe(200);
  const main = document.querySelector("main");
  expect(main, path).not.toBeNull();
  return main as Element;
}

/** The elements matching `selector` in `main` whose text holds `text`, ignoring case. */
const holding = (main: Element, selector: string, text: string) =>
  [...main.querySelectorAll(selector)].filter((element) =>
    textOf(element).toLowerCase().includes(text.toLowerCase()),
  );

describe("services, prices and gallery pages: what the server sends", () => {
  it.each(servicePages)(
    "$path has its h1, title, description, canonical and Open Graph tags in the server HTML",
    async ({ path, h1, title, description }) => {
      const { status, document } = await fetchPage(path);
      expect(status).toBe(200);
      expect([...document.querySelectorAll("h1")].map(textOf)).toEqual([h1]);
      const pageTitle = textOf(document.querySelector("title"));
      expect(pageTitle).toMatch(title);
      expect(metaContent(document, "description")).toMatch(description);
      expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
        `${baseUrl}${path}`,
      );
      expect(metaContent(document, "og:title")).toBe(pageTitle);
      expect(metaContent(document, "og:url")).toBe(`${baseUrl}${path}`);
    },
  );
});

describe("services, prices and gallery pages: content and links", () => {
  it("/prestations leads to the six services and to /contact", async () => {
    const main = await mainOf("/prestations");
    for (const [name, href] of [
      ["Naissance", "/prestations/naissances"],
      ["Grossesse", "/prestations/grossesse"],
      ["Portrait & Famille", "/prestations/portraits-familles"],
      ["Mariages", "/prestations/mariages"],
      ["Séances à offrir", "/seances-a-offrir"],
      ["Professionnels", "/professionnels"],
    ] as const) {
      expect(hrefOf(main, name)).toBe(href);
    }
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
    // The portrait card keeps the old site's address, which leads to the page.
    const portraits = await fetchPage("/prestations/portraits-familles");
    expect(portraits.status).toBe(301);
    expect(portraits.headers.get("location")).toBe("/portrait-famille");
  });

  // The seed's selfie-booth site is a placeholder (borne-selfie.example.com): its card waits for the real
  // one (decision 0126), as it did for none.
  it("/professionnels: five services while the selfie booth's site is not set, three reasons, contact and quote", async () => {
    const main = await mainOf("/professionnels");
    for (const name of ["Portrait", "Reportage", "Événement", "Gendarmerie", "Scolaire"]) {
      expect(holding(main, "h3", name), name).toHaveLength(1);
    }
    expect(holding(main, "h3", "Location borne selfie")).toHaveLength(0);
    expect(main.querySelector('a[href*="borne-selfie"]')).toBeNull();
    expect(hrefOf(main, "Gendarmerie")).toBe("/gendarmerie");
    expect(hrefOf(main, "Scolaire")).toBe("/scolaire");
    const text = readableText(main);
    for (const reason of [
      "Pourquoi nous choisir ?",
      "L'expérience",
      "La réactivité",
      "La qualité",
    ]) {
      expect(text).toContain(reason);
    }
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
    expect(hrefOf(main, "Demander un devis par e-mail")).toMatch(
      /^mailto:[^?]+@[^?]+\?subject=Demande/,
    );
  });

  it("/gendarmerie: four services with prices, three packages with discounted and original prices, the selfie booth, two testimonials, every call to action to the Ussel studio", async () => {
    const main = await mainOf("/gendarmerie");
    const text = readableText(main);
    for (const expected of [
      "Photos de groupe 790 €",
      "Livraison sous 48 à 72 h",
      "Reportage cérémonie 840 €",
      "Gala et studio 750 €",
      "Vidéo de cérémonie 990 €",
      "Offre spéciale 2025",
      "1 200 € au lieu de 1 590 €",
      "1 900 € au lieu de 2 380 €",
      "2 700 € au lieu de 3 370 €",
      "Location de borne selfie 490 € par jour",
    ]) {
      expect(text).toContain(expected);
    }
    // The highlighted package is the second one.
    const highlighted = holding(main, "article", "Formule recommandée");
    expect(highlighted).toHaveLength(1);
    expect([...(highlighted[0]?.querySelectorAll("h3") ?? [])].map(textOf)).toEqual(["Formule 2"]);
    expect(main.querySelectorAll("del")).toHaveLength(3);
    expect(main.querySelectorAll("figure blockquote")).toHaveLength(2);
    const internalLinks = [...main.querySelectorAll('a[href^="/"]')].map((link) =>
      link.getAttribute("href"),
    );
    expect(internalLinks.length).toBeGreaterThanOrEqual(5);
    expect(new Set(internalLinks)).toEqual(new Set(["/contact-studio-ussel"]));
  });

  it("/scolaire: six services, six commitments, the mobile studio, contact and quote", async () => {
    const main = await mainOf("/scolaire");
    expect(main.querySelectorAll('section[aria-labelledby="services-scolaires"] li')).toHaveLength(
      6,
    );
    expect(main.querySelectorAll('section[aria-labelledby="engagements"] li')).toHaveLength(6);
    expect(readableText(main)).toContain("Notre studio mobile");
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
    expect(hrefOf(main, "Demander un devis par e-mail")).toMatch(/^mailto:/);
  });

  it("/portrait-famille: four steps, four sessions, nine styles, two testimonials, the guarantee, contact and prices", async () => {
    const main = await mainOf("/portrait-famille");
    expect(main.querySelectorAll("ol > li")).toHaveLength(4);
    expect(main.querySelectorAll('section[aria-labelledby="types-de-seances"] li')).toHaveLength(4);
    expect(main.querySelectorAll('section[aria-labelledby="styles"] figure')).toHaveLength(9);
    expect(main.querySelectorAll("figure blockquote")).toHaveLength(2);
    const text = readableText(main);
    expect(text).toContain("Satisfaction garantie");
    expect(text).toContain("Durée : 1 h 30");
    expect(text).toContain("Durée : 45 min à 1 h");
    expect(text).toContain("10 jours après la séance");
    expect(text).toContain("un tirage papier 20x30 cm offert");
    expect(hrefOf(main, "Voir les tarifs")).toBe("/tarifs");
    expect(main.querySelectorAll('a[href="/contact"]').length).toBeGreaterThanOrEqual(1);
  });

  it("/prestations/grossesse: eight photos, tips with the ideal moment, testimonials, prices and contact", async () => {
    const main = await mainOf("/prestations/grossesse");
    expect(
      main.querySelectorAll('section[aria-labelledby="galerie-grossesse"] figure'),
    ).toHaveLength(8);
    const text = readableText(main);
    expect(text).toContain("entre le 7e et le 8e mois de grossesse");
    expect(text).toContain("15 jours après la séance");
    expect(text).toContain("Séance grossesse à 79 €, ou coffret grossesse + naissance à 129 €");
    expect(main.querySelectorAll("figure blockquote").length).toBeGreaterThanOrEqual(2);
    expect(hrefOf(main, "Voir les tarifs")).toBe("/tarifs");
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
  });

  it("/prestations/naissances: three steps with the newborn timings, a style gallery, contact and prices", async () => {
    const main = await mainOf("/prestations/naissances");
    expect(main.querySelectorAll("ol > li")).toHaveLength(3);
    expect(
      main.querySelectorAll('section[aria-labelledby="styles"] figure').length,
    ).toBeGreaterThan(0);
    const text = readableText(main);
    expect(text).toContain("entre le 7e et le 15e jour de vie");
    expect(text).toContain("1 h 30 à 2 h 30");
    expect(text).toContain("Séance naissance à 99 €");
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
    expect(hrefOf(main, "Voir les tarifs")).toBe("/tarifs");
  });

  it("/prestations/mariages: booking delay, delivery, prices and contact", async () => {
    const main = await mainOf("/prestations/mariages");
    const text = readableText(main);
    expect(text).toContain("au moins 30 jours à l'avance");
    expect(text).toContain("à J+15");
    expect(text).toContain("à partir de 990 €");
    expect(hrefOf(main, "Voir les tarifs")).toBe("/tarifs?onglet=pro");
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
  });

  // The seed's links to the gift service are placeholders (cadeaux.example.com): not shown until the owner
  // sets the real ones (decision 0126).
  it("/seances-a-offrir: four sessions with their prices, no link to a gift service not set yet", async () => {
    const main = await mainOf("/seances-a-offrir");
    for (const [name, price, slug] of [
      ["Séance Iris", "49 €", "seance-iris"],
      ["Séance Fashion", "195 €", "seance-fashion"],
      ["Séance Super-Héros", "49 €", "seance-super-heros"],
      ["Séance Princesse", "49 €", "seance-princesse"],
    ] as const) {
      expect(main.querySelector(`a[href*="${slug}"]`), name).toBeNull();
      const cards = holding(main, "article", name);
      expect(cards, name).toHaveLength(1);
      expect(readableText(cards[0])).toContain(price);
    }
    expect(readableText(main)).toContain("Nos séances cadeaux");
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
  });

  // The seed's gallery addresses are placeholders (galeries.example.com): each gallery shows without a
  // link until the owner sets its address (decision 0126); pages-content-edits.test.ts sets one.
  it("/galerie: nineteen galleries, each with a cover and a title, none linking to a placeholder", async () => {
    const main = await mainOf("/galerie");
    const items = [...main.querySelectorAll("li")];
    expect(items).toHaveLength(19);
    for (const item of items) {
      expect(item.querySelectorAll("img")).toHaveLength(1);
      expect(item.textContent).toMatch(/(Mariage|Famille|Événement).{5,}/);
    }
    expect(main.querySelectorAll("a")).toHaveLength(0);
    expect(readableText(main)).toContain("Mariage de Camille et Thomas");
  });

  it("/boudoir: the gallery comes soon, with contact and services", async () => {
    const main = await mainOf("/boudoir");
    expect(readableText(main)).toContain("Galerie disponible prochainement");
    expect(hrefOf(main, "Nous contacter")).toBe("/contact");
    expect(hrefOf(main, "Voir nos prestations")).toBe("/prestations");
  });
});
