import { expect } from "vitest";
import { textOf, type FetchedPage } from "./html";

/** The titles of a file route's refusal page (decision 0202). */
export const FILE_REFUSAL_TITLES = {
  400: "Requête invalide",
  401: "Connexion requise",
  403: "Téléchargement refusé",
  404: "Fichier introuvable",
  410: "Lien expiré",
} as const;

/**
 * A file route's refusal as a person's browser shows it (decision 0202): a small French HTML page with the
 * site's name, the refusal's title, its sentence and a way home, never JSON nor a bare line; never stored
 * by a cache, never indexed. Returns the text of its <main>.
 */
export function expectFileRefusal(
  page: FetchedPage,
  status: keyof typeof FILE_REFUSAL_TITLES,
  what = "",
): string {
  expect(page.status, what).toBe(status);
  expect(page.headers.get("content-type"), what).toBe("text/html; charset=utf-8");
  expect(page.headers.get("cache-control"), what).toBe("no-store");
  // (A client gallery's answers all say more: cache-policy.server.ts.)
  expect(page.headers.get("x-robots-tag"), what).toMatch(/^noindex\b/);
  const { document } = page;
  expect(document.documentElement.getAttribute("lang"), what).toBe("fr");
  expect(textOf(document.querySelector("h1")), what).toBe(FILE_REFUSAL_TITLES[status]);
  // The site's name leads home, and so does the last link.
  const brand = document.querySelector('header a[href="/"]');
  expect(textOf(brand), what).not.toBe("");
  expect(document.title, what).toBe(`${FILE_REFUSAL_TITLES[status]} – ${textOf(brand)}`);
  expect(textOf(document.querySelector('main a[href="/"]')), what).toBe("Retour à l'accueil");
  return textOf(document.querySelector("main"));
}
