/**
 * Which public pages are light (decision 0090): complete server HTML with no framework JavaScript,
 * only the small plain script of `app/light-script.ts` (header, menus, price tabs, video, the blog's « Copier
 * le lien », the contact form sent in place); every other page loads React and hydrates. This file is the one place that decides:
 * `app/root.tsx` reads it to render a page's scripts, and hydrated pages read it to reach a light page by a
 * document navigation. It ships in the hydrated pages' JavaScript, hence reasons in comments rather than
 * strings.
 *
 * Light: the page only reads, links and posts plain forms answered by a new page; the header's menus,
 * `#studios` (CSS smooth scrolling), the tabs and the video are the plain script's or the platform's. The
 * addresses of each route (`app/routes.ts`):
 */
const LIGHT: ReadonlyArray<{ path: RegExp; light?: (loaderData: unknown) => boolean }> = [
  { path: /^\/$/ }, // routes/accueil
  { path: /^\/prestations(?:\/(?:grossesse|naissances|mariages))?\/?$/ }, // routes/prestations/(.*)
  { path: /^\/(?:portrait-famille|boudoir|professionnels|scolaire|seances-a-offrir)\/?$/ }, // one route each
  { path: /^\/gendarmerie\/?$/ }, // routes/gendarmerie: the click-to-load video is the script's
  { path: /^\/tarifs\/?$/ }, // routes/tarifs: tabs are links (?onglet=), made WAI-ARIA tabs by the script
  { path: /^\/galerie\/?$/ }, // routes/galerie
  { path: /^\/(?:mentions-legales|donnees-personnelles|politique-cookies)\/?$/ }, // legal pages
  // routes/reserver/*, routes/reservation/ (decision 0115): every step of booking is links and plain forms.
  { path: /^\/reserver(?:\/[a-z0-9-]+(?:\/[a-z0-9-]+(?:\/coordonnees)?)?)?\/?$/ },
  { path: /^\/reservation\/[A-Za-z0-9_-]+\/?$/ },
  // routes/bons-cadeaux, routes/commande/ (decision 0166): a plain form, and the order's page (its
  // « paiement en cours » refreshes by <meta>); an unknown order is the 404, an error page.
  { path: /^\/bons-cadeaux\/?$/ },
  { path: /^\/commande\/[A-Za-z0-9_-]+\/?$/, light: (loaderData) => loaderData !== undefined },
  // routes/blog/, routes/blog/article, routes/blog/categorie (decision 0137): the search is a GET form,
  // pages and categories are links, the newsletter form a plain post answered in the page; the script
  // adds « Copier le lien » and holds a form's second submit. An unknown article or category is a 404,
  // an error page (no loader data), hence hydrated. (/blog/rss.xml matches too: a document load is what
  // a link to it needs.)
  {
    path: /^\/blog(?:\/categorie)?(?:\/[^/]+)?\/?$/,
    light: (loaderData) => loaderData !== undefined,
  },
  // routes/contact and routes/page's contact pages (decision 0137): the form is a plain post answered by
  // the page (errors at the fields, what was typed kept); the script sends it in place, says « Envoi en
  // cours... » and shows the answer 1 s after the click at the soonest.
  { path: /^\/contact\/?$/ },
  // routes/page: a studio's page or its contact page; the same route answers an unknown address of this
  // shape with the 404.
  {
    path: /^\/(?:contact-)?studio-[a-z0-9]+(?:-[a-z0-9]+)*\/?$/,
    light: (loaderData) => {
      const kind = (loaderData as { kind?: string } | undefined)?.kind;
      return kind === "studio" || kind === "contact";
    },
  },
];

/*
 * Hydrated (anything not above), and why:
 * - /newsletter/confirmation, /newsletter/desabonnement: the e-mailed links' answers, a form, toasts.
 * - the 404 pages (routes/not-found, routes/page) and every error page: the 404 logs the address to the
 *   console (SPEC §2), and an error page is rare and must show as it always has.
 * - /admin/*: the owner's tools.
 * - /galerie-client/{id} (routes/galerie-client/, decision 0103): the client's gallery: the full-screen
 *   viewer (zoom, swipe), favourites and comments answered in place, the thumbhash placeholders decoded in
 *   the browser; the code form and the single-photo view work without JavaScript all the same.
 */

/** Whether the page at this address is light (for links: hydrated pages reach it by a document load). */
export function isLightPath(pathname: string): boolean {
  return LIGHT.some((entry) => entry.path.test(pathname));
}

type Match = { pathname: string; loaderData?: unknown };

/** Whether the page rendered for these route matches is light; an error page (`error` set) never is. */
export function isLightPage(matches: readonly Match[], error: unknown): boolean {
  const leaf = matches.at(-1);
  if (error || !leaf) return false;
  const entry = LIGHT.find(({ path }) => path.test(leaf.pathname));
  return entry !== undefined && (entry.light?.(leaf.loaderData) ?? true);
}
