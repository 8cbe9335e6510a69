/**
 * Addresses of the old site that still circulate (search results, shared links, printed flyers). Each one
 * answers a permanent redirect (301) to its page here; the owner may add lines. SPEC §2 "Redirects".
 */
export const redirects: ReadonlyArray<{ from: string; to: string }> = [
  { from: "/accueil", to: "/" },

  { from: "/prestations/pour-les-pros", to: "/professionnels" },
  { from: "/pour-les-pros", to: "/professionnels" },
  { from: "/pro-portrait", to: "/professionnels" },
  { from: "/pro-reportage", to: "/professionnels" },
  { from: "/pro-evenement", to: "/professionnels" },
  { from: "/packshot", to: "/professionnels" },
  { from: "/immobilier", to: "/professionnels" },

  { from: "/prestations/maternite", to: "/prestations/grossesse" },
  { from: "/prestations/prestations-maternite", to: "/prestations/grossesse" },

  { from: "/photo-scolaire", to: "/scolaire" },

  { from: "/galerie-groupe", to: "/galerie" },
  { from: "/prestations/galerie", to: "/galerie" },
  { from: "/portfolio", to: "/galerie" },
  { from: "/fond-noir", to: "/galerie" },
  { from: "/fond-blanc", to: "/galerie" },
  { from: "/fond-couleur", to: "/galerie" },
  { from: "/fashion", to: "/galerie" },
  { from: "/animaux", to: "/galerie" },

  { from: "/enfant", to: "/portrait-famille" },
  { from: "/prestations/portraits-familles", to: "/portrait-famille" },

  { from: "/actualites", to: "/blog" },
  { from: "/category/naissances", to: "/blog" },
  { from: "/category/familles", to: "/blog" },
  // Three articles of the old WordPress blog (SPEC names them without their addresses).
  { from: "/minis-seances-de-noel", to: "/blog" },
  { from: "/seance-photo-fete-des-meres", to: "/blog" },
  { from: "/seance-photo-famille-en-studio", to: "/blog" },

  { from: "/faq", to: "/contact" },

  { from: "/contact-ussel", to: "/contact-studio-ussel" },
  { from: "/contact-brive", to: "/contact-studio-brive" },
  { from: "/contact-limoges", to: "/contact-studio-limoges" },
];

/** The redirect target for a path (trailing slash ignored), or undefined. */
export function redirectTarget(pathname: string): string | undefined {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return redirects.find((entry) => entry.from === normalised)?.to;
}
