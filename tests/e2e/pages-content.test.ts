import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

/** The pages of this file, with what the server must send for each in its raw HTML. */
const pages = [
  {
    path: "/prestations",
    h1: "Nos Prestations",
    title: /prestations/i,
    description: /Naissance, grossesse/,
  },
  {
    path: "/professionnels",
    h1: "Prestations pour les professionnels",
    title: /professionnels/i,
    description: /borne selfie/,
  },
  {
    path: "/gendarmerie",
    h1: "Offre Gendarmerie",
    title: /gendarmerie/i,
    description: /Offre spéciale 2025/,
  },
  {
    path: "/scolaire",
    h1: "Photographie scolaire",
    title: /scolaire/i,
    description: /Photos de classe/,
  },
  {
    path: "/portrait-famille",
    h1: "Portrait & Famille",
    title: /Portrait et famille/,
    description: /79\u00a0€/,
  },
  {
    path: "/prestations/grossesse",
    h1: "Photographie de grossesse",
    title: /grossesse/i,
    description: /7e ou 8e mois/,
  },
  {
    path: "/prestations/naissances",
    h1: "Photographie de naissance",
    title: /naissance/i,
    description: /99\u00a0€/,
  },
  {
    path: "/prestations/mariages",
    h1: "Photographe de mariage",
    title: /mariage/i,
    description: /à partir de 990\u00a0€/,
  },
  {
    path: "/seances-a-offrir",
    h1: "Séances à offrir",
    title: /à offrir/,
    description: /Iris, Fashion, Super-Héros ou Princesse/,
  },
  { path: "/tarifs", h1: "Nos Tarifs", title: /Nos Tarifs/, description: /sur devis/ },
  { path: "/galerie", h1: "Galerie", title: /Galerie/, description: /galeries photo/ },
  { path: "/boudoir", h1: "Galerie boudoir", title: /boudoir/i, description: /bientôt en ligne/ },
];

/** React escapes &, ', " in the HTML it renders. */
const decode = (html: string) =>
  html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

/** The visible text of the page's main content, spaces normalised (prices use no-break spaces). */
async function mainText(page: Page) {
  const text = await page.locator("main").innerText();
  return text.replace(/[\u00a0\u202f]/g, " ").replace(/\s+/g, " ");
}

async function hrefOf(page: Page, name: string | RegExp) {
  return page
    .locator("main")
    .getByRole("link", { name, exact: typeof name === "string" })
    .getAttribute("href");
}

/** Checks a link opens another site in a new tab without access to this page. */
async function expectExternal(page: Page, name: string | RegExp, href: string | RegExp) {
  const link = page.locator("main").getByRole("link", { name });
  await expect.poll(() => link.getAttribute("href")).toMatch(href);
  expect(await link.getAttribute("target")).toBe("_blank");
  expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
}

describe("services, prices and gallery pages: what the server sends", () => {
  it.each(pages)(
    "$path has its h1, title, description, canonical and Open Graph tags in the raw HTML",
    async ({ path, h1, title, description }) => {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(200);
      const html = decode(await response.text());
      const h1s = html.match(/<h1[^>]*>(.*?)<\/h1>/gs) ?? [];
      expect(h1s).toHaveLength(1);
      expect(h1s[0]?.replace(/<[^>]+>/g, "")).toBe(h1);
      const pageTitle = html.match(/<title>(.*?)<\/title>/)?.[1] ?? "";
      expect(pageTitle).toMatch(title);
      const pageDescription = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? "";
      expect(pageDescription).toMatch(description);
      expect(html).toContain(`<link rel="canonical" href="${baseUrl}${path}"`);
      expect(html).toContain(`<meta property="og:title" content="${pageTitle}"`);
      expect(html).toContain(`<meta property="og:url" content="${baseUrl}${path}"`);
    },
  );
});

describe("services, prices and gallery pages: content and links", () => {
  it("/prestations leads to the six services and to /contact", async () => {
    const page = await openPage("/prestations");
    for (const [name, href] of [
      ["Naissance", "/prestations/naissances"],
      ["Grossesse", "/prestations/grossesse"],
      ["Portrait & Famille", "/prestations/portraits-familles"],
      ["Mariages", "/prestations/mariages"],
      ["Séances à offrir", "/seances-a-offrir"],
      ["Professionnels", "/professionnels"],
    ] as const) {
      expect(await hrefOf(page, name)).toBe(href);
    }
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
    await page
      .locator("main")
      .getByRole("link", { name: "Portrait & Famille", exact: true })
      .click();
    await page.waitForURL(/\/portrait-famille$/);
  });

  it("/professionnels: six services, the selfie booth on its own site in a new tab, three reasons, contact and quote", async () => {
    const page = await openPage("/professionnels");
    const main = page.locator("main");
    for (const name of [
      "Portrait",
      "Reportage",
      "Événement",
      "Location borne selfie",
      "Gendarmerie",
      "Scolaire",
    ]) {
      await expect.poll(() => main.getByRole("heading", { level: 3, name }).count()).toBe(1);
    }
    await expectExternal(page, /Location borne selfie/, "https://borne-selfie.example.com");
    expect(await hrefOf(page, "Gendarmerie")).toBe("/gendarmerie");
    expect(await hrefOf(page, "Scolaire")).toBe("/scolaire");
    const text = await mainText(page);
    for (const reason of [
      "Pourquoi nous choisir ?",
      "L'expérience",
      "La réactivité",
      "La qualité",
    ]) {
      expect(text).toContain(reason);
    }
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
    expect(await hrefOf(page, "Demander un devis par e-mail")).toMatch(
      /^mailto:[^?]+@[^?]+\?subject=Demande/,
    );
  });

  it("/gendarmerie: four services with prices, three packages with discounted and original prices, the selfie booth, two testimonials, every call to action to the Ussel studio", async () => {
    const page = await openPage("/gendarmerie");
    const text = await mainText(page);
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
    const highlighted = page.locator("main article", { hasText: "Formule recommandée" });
    await expect.poll(() => highlighted.count()).toBe(1);
    expect(await highlighted.getByRole("heading", { level: 3 }).innerText()).toBe("Formule 2");
    expect(await page.locator("main del").allInnerTexts()).toHaveLength(3);
    expect(await page.locator("main figure blockquote").count()).toBe(2);
    const internalLinks = await page
      .locator('main a[href^="/"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(internalLinks.length).toBeGreaterThanOrEqual(5);
    expect(new Set(internalLinks)).toEqual(new Set(["/contact-studio-ussel"]));
  });

  it("/scolaire: six services, six commitments, the mobile studio, contact and quote", async () => {
    const page = await openPage("/scolaire");
    const main = page.locator("main");
    expect(await main.locator('section[aria-labelledby="services-scolaires"] li').count()).toBe(6);
    expect(await main.locator('section[aria-labelledby="engagements"] li').count()).toBe(6);
    expect(await mainText(page)).toContain("Notre studio mobile");
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
    expect(await hrefOf(page, "Demander un devis par e-mail")).toMatch(/^mailto:/);
  });

  it("/portrait-famille: four steps, four sessions, nine styles, two testimonials, the guarantee, contact and prices", async () => {
    const page = await openPage("/portrait-famille");
    const main = page.locator("main");
    expect(await main.locator("ol > li").count()).toBe(4);
    expect(await main.locator('section[aria-labelledby="types-de-seances"] li').count()).toBe(4);
    expect(await main.locator('section[aria-labelledby="styles"] figure').count()).toBe(9);
    expect(await main.locator("figure blockquote").count()).toBe(2);
    const text = await mainText(page);
    expect(text).toContain("Satisfaction garantie");
    expect(text).toContain("Durée : 1 h 30");
    expect(text).toContain("Durée : 45 min à 1 h");
    expect(text).toContain("10 jours après la séance");
    expect(text).toContain("un tirage papier 20x30 cm offert");
    expect(await hrefOf(page, "Voir les tarifs")).toBe("/tarifs");
    expect(await main.locator('a[href="/contact"]').count()).toBeGreaterThanOrEqual(1);
  });

  it("/prestations/grossesse: eight photos, tips with the ideal moment, testimonials, prices and contact", async () => {
    const page = await openPage("/prestations/grossesse");
    const main = page.locator("main");
    expect(await main.locator('section[aria-labelledby="galerie-grossesse"] figure').count()).toBe(
      8,
    );
    const text = await mainText(page);
    expect(text).toContain("entre le 7e et le 8e mois de grossesse");
    expect(text).toContain("15 jours après la séance");
    expect(text).toContain("Séance grossesse à 79 €, ou coffret grossesse + naissance à 129 €");
    expect(await main.locator("figure blockquote").count()).toBeGreaterThanOrEqual(2);
    expect(await hrefOf(page, "Voir les tarifs")).toBe("/tarifs");
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
  });

  it("/prestations/naissances: three steps with the newborn timings, a style gallery, contact and prices", async () => {
    const page = await openPage("/prestations/naissances");
    const main = page.locator("main");
    expect(await main.locator("ol > li").count()).toBe(3);
    expect(await main.locator('section[aria-labelledby="styles"] figure').count()).toBeGreaterThan(
      0,
    );
    const text = await mainText(page);
    expect(text).toContain("entre le 7e et le 15e jour de vie");
    expect(text).toContain("1 h 30 à 2 h 30");
    expect(text).toContain("Séance naissance à 99 €");
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
    expect(await hrefOf(page, "Voir les tarifs")).toBe("/tarifs");
  });

  it("/prestations/mariages: booking delay, delivery, prices and contact", async () => {
    const page = await openPage("/prestations/mariages");
    const text = await mainText(page);
    expect(text).toContain("au moins 30 jours à l'avance");
    expect(text).toContain("à J+15");
    expect(text).toContain("à partir de 990 €");
    expect(await hrefOf(page, "Voir les tarifs")).toBe("/tarifs?onglet=pro");
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
  });

  it("/seances-a-offrir: four sessions with their prices, each booked on the external service in a new tab", async () => {
    const page = await openPage("/seances-a-offrir");
    const text = await mainText(page);
    for (const [name, price, slug] of [
      ["Séance Iris", "49 €", "seance-iris"],
      ["Séance Fashion", "195 €", "seance-fashion"],
      ["Séance Super-Héros", "49 €", "seance-super-heros"],
      ["Séance Princesse", "49 €", "seance-princesse"],
    ] as const) {
      await expectExternal(page, new RegExp(`^${name}`), `https://cadeaux.example.com/${slug}`);
      const card = page.locator("main article", { hasText: name });
      expect((await card.innerText()).replace(/[\u00a0\u202f]/g, " ")).toContain(price);
    }
    expect(text).toContain("Nos séances cadeaux");
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
  });

  it("/galerie: nineteen galleries, each with a cover and a title, opening the delivery service in a new tab", async () => {
    const page = await openPage("/galerie");
    const items = page.locator("main li a");
    expect(await items.count()).toBe(19);
    const links = await items.evaluateAll((anchors) =>
      anchors.map((anchor) => ({
        href: anchor.getAttribute("href"),
        target: anchor.getAttribute("target"),
        rel: anchor.getAttribute("rel"),
        images: anchor.querySelectorAll("img").length,
        text: anchor.textContent ?? "",
      })),
    );
    for (const link of links) {
      expect(link.href).toMatch(/^https:\/\/galeries\.example\.com\/[a-z0-9-]+$/);
      expect(link.target).toBe("_blank");
      expect(link.rel).toBe("noopener noreferrer");
      expect(link.images).toBe(1);
      expect(link.text).toMatch(/(Mariage|Famille|Événement).{5,}/);
    }
    expect(new Set(links.map((link) => link.href)).size).toBe(19);
    expect(await mainText(page)).toContain("Mariage de Camille et Thomas");
  });

  it("/boudoir: the gallery comes soon, with contact and services", async () => {
    const page = await openPage("/boudoir");
    expect(await mainText(page)).toContain("Galerie disponible prochainement");
    expect(await hrefOf(page, "Nous contacter")).toBe("/contact");
    expect(await hrefOf(page, "Voir nos prestations")).toBe("/prestations");
  });
});

describe("services, prices and gallery pages: accessibility and small screens", () => {
  it.each(pages)(
    "$path has no axe violation and no horizontal scroll at 390 px",
    async ({ path }) => {
      const page = await openPage(path, { viewport: { width: 390, height: 844 } });
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
    },
  );

  it.each(pages)("$path has no axe violation on a large screen", async ({ path }) => {
    const page = await openPage(path, { viewport: { width: 1280, height: 900 } });
    expect(await axeViolations(page)).toEqual([]);
  });
});
