// The pages measured by Lighthouse and for weight, their kind (light or hydrated, decision 0090) and their budgets;
// no server here, so that the report (issue13.ts) can read the list without starting anything.
import { benchArticleSlug, benchCategorySlug } from "./seed.ts";

/**
 * « light »: a page that needs no client code (decision 0090; the blog's pages and the contact pages since
 * decision 0137): its JavaScript budget is that of a few lines of plain script. « hydrated »: a page that
 * keeps React Router (none of the public pages measured here since decision 0137).
 */
export type PageKind = "light" | "hydrated";

export type MeasuredPage = {
  name: string;
  path: string;
  kind: PageKind;
  /** Measured by Lighthouse too (median of 3 runs per page: only the pages decision 0095 budgets). */
  lighthouse: boolean;
};

export const measuredPages: MeasuredPage[] = [
  { name: "accueil", path: "/", kind: "light", lighthouse: true },
  { name: "tarifs", path: "/tarifs", kind: "light", lighthouse: true },
  { name: "studio Brive", path: "/studio-brive", kind: "light", lighthouse: true },
  { name: "prestations", path: "/prestations", kind: "light", lighthouse: false },
  { name: "grossesse", path: "/prestations/grossesse", kind: "light", lighthouse: false },
  { name: "naissances", path: "/prestations/naissances", kind: "light", lighthouse: false },
  { name: "mariages", path: "/prestations/mariages", kind: "light", lighthouse: false },
  { name: "portrait de famille", path: "/portrait-famille", kind: "light", lighthouse: false },
  { name: "boudoir", path: "/boudoir", kind: "light", lighthouse: false },
  { name: "professionnels", path: "/professionnels", kind: "light", lighthouse: false },
  { name: "gendarmerie", path: "/gendarmerie", kind: "light", lighthouse: false },
  { name: "scolaire", path: "/scolaire", kind: "light", lighthouse: false },
  { name: "séances à offrir", path: "/seances-a-offrir", kind: "light", lighthouse: false },
  { name: "galerie", path: "/galerie", kind: "light", lighthouse: false },
  { name: "mentions légales", path: "/mentions-legales", kind: "light", lighthouse: false },
  { name: "données personnelles", path: "/donnees-personnelles", kind: "light", lighthouse: false },
  { name: "politique cookies", path: "/politique-cookies", kind: "light", lighthouse: false },
  { name: "réserver Brive", path: "/reserver/brive", kind: "light", lighthouse: true },
  { name: "contact", path: "/contact", kind: "light", lighthouse: false },
  { name: "contact Brive", path: "/contact-studio-brive", kind: "light", lighthouse: true },
  // Light since decision 0137.
  { name: "blog", path: "/blog", kind: "light", lighthouse: true },
  { name: "article", path: `/blog/${benchArticleSlug(1)}`, kind: "light", lighthouse: true },
  {
    name: "catégorie",
    path: `/blog/categorie/${benchCategorySlug}`,
    kind: "light",
    lighthouse: false,
  },
];

/** Decision 0094: compressed JavaScript loaded before any interaction, in KB (1,024 bytes). */
export const jsBudgetKiB: Record<PageKind, number> = { light: 5, hydrated: 115 };

/** Decision 0095: Lighthouse performance score (median of 3); LCP ≤ 1.2 s on every measured page. */
export const performanceBudget: Record<PageKind, { min?: number; equals?: number }> = {
  light: { equals: 100 },
  hydrated: { min: 95 },
};
export const lcpBudgetSeconds = 1.2;

/**
 * Decision 0132: every page as fast as a light one: LCP ≤ 1.0 s, performance 100 and total blocking time under
 * 100 ms on every measured page (median of 3), hydrated JavaScript ≤ 100 KB. The sections measure these;
 * the earlier budgets (decision 0050) stay in its before / after table.
 */
export const pageBudgets = {
  lcpSeconds: 1.0,
  performance: { equals: 100 },
  totalBlockingTimeMs: 99.9,
  jsKiB: { light: 5, hydrated: 100 } satisfies Record<PageKind, number>,
};
