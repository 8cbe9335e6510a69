/**
 * Which public pages load React (hydrated) and which are light: complete server HTML with no framework
 * JavaScript, only the small plain script of `app/light-script.ts` for the header, the price tabs and the
 * video (issue 13, decision 0090). This table is the one place that decides; `app/root.tsx` reads it to
 * render a page's scripts, and hydrated pages read it to reach a light page by a document navigation.
 *
 * Each entry: the route module (its id), the addresses it serves, light or hydrated (or a function of the
 * route's loader data when one route serves both kinds), and why. A route or an address not listed is
 * hydrated (admin, resource routes); so is every error page, whatever its address.
 */

type PageEntry = {
  route: string;
  path: RegExp;
  light: boolean | ((loaderData: unknown) => boolean);
  reason: string;
};

const READING = "reading and links only: the header, menus and anchors need no framework";

export const PAGES: readonly PageEntry[] = [
  {
    route: "routes/home",
    path: /^\/$/,
    light: true,
    reason: `${READING}; #studios scrolls by CSS`,
  },
  { route: "routes/prestations", path: /^\/prestations\/?$/, light: true, reason: READING },
  {
    route: "routes/prestations.grossesse",
    path: /^\/prestations\/grossesse\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/prestations.naissances",
    path: /^\/prestations\/naissances\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/prestations.mariages",
    path: /^\/prestations\/mariages\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/portrait-famille",
    path: /^\/portrait-famille\/?$/,
    light: true,
    reason: READING,
  },
  { route: "routes/boudoir", path: /^\/boudoir\/?$/, light: true, reason: READING },
  { route: "routes/professionnels", path: /^\/professionnels\/?$/, light: true, reason: READING },
  {
    route: "routes/gendarmerie",
    path: /^\/gendarmerie\/?$/,
    light: true,
    reason: `${READING}; the click-to-load video is the plain script's`,
  },
  { route: "routes/scolaire", path: /^\/scolaire\/?$/, light: true, reason: READING },
  {
    route: "routes/seances-a-offrir",
    path: /^\/seances-a-offrir\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/tarifs",
    path: /^\/tarifs\/?$/,
    light: true,
    reason: `${READING}; the tabs are links (?onglet=) the plain script turns into WAI-ARIA tabs`,
  },
  { route: "routes/galerie", path: /^\/galerie\/?$/, light: true, reason: READING },
  {
    route: "routes/mentions-legales",
    path: /^\/mentions-legales\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/donnees-personnelles",
    path: /^\/donnees-personnelles\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/politique-cookies",
    path: /^\/politique-cookies\/?$/,
    light: true,
    reason: READING,
  },
  {
    route: "routes/page",
    path: /^\/studio-[a-z0-9]+(?:-[a-z0-9]+)*\/?$/,
    // The same route answers an unknown address with the 404 page, which is hydrated (below).
    light: (loaderData) => (loaderData as { kind?: string } | undefined)?.kind === "studio",
    reason: `a studio's page: ${READING}`,
  },
  {
    route: "routes/page",
    path: /^\/contact-studio-/,
    light: false,
    reason: "a form (its answer, kept input, toasts) is React's; the 404 logs to the console",
  },
  {
    route: "routes/contact",
    path: /^\/contact\/?$/,
    light: false,
    reason: "the contact form: answers in place, keeps the input, toasts",
  },
  {
    route: "routes/blog",
    path: /^\/blog(?:\/|$)/,
    light: false,
    reason: "newsletter form, search, copy-link buttons, client navigation between articles",
  },
  {
    route: "routes/blog-article",
    path: /^\/blog\//,
    light: false,
    reason: "newsletter form and copy-link button",
  },
  {
    route: "routes/blog-category",
    path: /^\/blog\/categorie\//,
    light: false,
    reason: "newsletter form and search",
  },
  {
    route: "routes/newsletter.confirmation",
    path: /^\/newsletter\//,
    light: false,
    reason: "answers of the e-mailed links, with their form (unsubscribe) and toasts",
  },
  {
    route: "routes/newsletter.desabonnement",
    path: /^\/newsletter\//,
    light: false,
    reason: "the unsubscribe form",
  },
  {
    route: "routes/not-found",
    path: /./,
    light: false,
    reason: "the 404 page logs the missing address to the console (SPEC §2)",
  },
];

/** Whether the page at this address is light (for links: hydrated pages reach it by a document load). */
export function isLightPath(pathname: string): boolean {
  return PAGES.some((entry) => entry.light !== false && entry.path.test(pathname));
}

type Match = { id: string; pathname: string; loaderData?: unknown };

/**
 * Whether the page rendered for these matches is light: its deepest route's entry for the address says
 * so. An error page (`error` set) never is.
 */
export function isLightPage(matches: readonly Match[], error: unknown): boolean {
  if (error) return false;
  const leaf = matches.at(-1);
  if (!leaf) return false;
  const entry = PAGES.find((page) => page.route === leaf.id && page.path.test(leaf.pathname));
  if (!entry) return false;
  return typeof entry.light === "function" ? entry.light(leaf.loaderData) : entry.light;
}
