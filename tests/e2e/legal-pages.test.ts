import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

const pages = [
  {
    path: "/mentions-legales",
    title: "Mentions légales",
    texts: [
      "Éditeur du site",
      "Forme juridique",
      "19 rue du 4 Septembre, 19200 Ussel",
      "RCS",
      "SIRET",
      "TVA intracommunautaire",
      "Directeur de la publication",
      "Hébergeur",
    ],
  },
  {
    path: "/donnees-personnelles",
    title: "Données personnelles",
    texts: [
      "Messages des formulaires de contact",
      "Newsletter du blog",
      "Galeries clients",
      "aucune donnée de localisation",
      "par défaut 30 jours après sa date",
      "Comptes administrateurs",
      "18 mois",
      "dans un délai de 2 mois",
      "Réclamation auprès de la CNIL",
      "faire effacer",
    ],
  },
  {
    path: "/politique-cookies",
    title: "Politique cookies",
    texts: [
      "strictement nécessaires",
      "studio.session_token",
      "galerie-{identifiant}",
      "Pourquoi pas de bandeau de consentement ?",
      "youtube-nocookie.com",
    ],
  },
];

describe("legal pages", () => {
  for (const { path, title, texts } of pages) {
    it(`${path} sends its title, description and content in the raw HTML`, async () => {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(200);
      // React separates adjacent text nodes with empty comments in server HTML.
      const html = (await response.text()).replaceAll("<!-- -->", "");
      expect(html).toContain(`<title>${title} | Studio Photo Exemple</title>`);
      expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
      expect(html).toContain(`<link rel="canonical" href="${baseUrl}${path}"`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
      for (const text of texts) expect(html).toContain(text);
    });

    it(`${path} leaves no cookie on a visitor and has no accessibility violation`, async () => {
      const page = await openPage(path, { viewport: { width: 390, height: 844 } });
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.context().cookies()).toEqual([]);
    });
  }
});
