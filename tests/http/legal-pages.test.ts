import { describe, expect, it } from "vitest";
import { fetchPage, metaContent, textOf } from "../support/html";
import { serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();

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
      // Decision 0176: the demo is under the franchise, and names its (demo) mediator.
      "TVA non applicable, art. 293 B du CGI",
      "Médiation de la consommation",
      "Médiateur de la consommation Exemple",
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
  it.each(pages)(
    "$path sends its title, description and content in the server HTML",
    async ({ path, title, texts }) => {
      const { status, document } = await fetchPage(path);
      expect(status).toBe(200);
      expect(textOf(document.querySelector("title"))).toBe(`${title} | Studio Photo Exemple`);
      expect(metaContent(document, "description")?.length).toBeGreaterThanOrEqual(40);
      expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
        `${baseUrl}${path}`,
      );
      expect([...document.querySelectorAll("h1")].map(textOf)).toContain(title);
      const text = textOf(document.body);
      for (const expected of texts) expect(text).toContain(expected);
    },
  );
});
