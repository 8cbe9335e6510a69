export type NavLinkItem = { label: string; to: string };

/**
 * Header links (SPEC §2 "Shared layout"). Between the two groups, « Studios » is a menu of the studios'
 * pages, which are data (the site layout's loader gives them, in the owner's order).
 */
export const headerLinks = {
  beforeStudios: [
    { label: "Accueil", to: "/" },
    { label: "Prestations", to: "/prestations" },
  ],
  afterStudios: [
    { label: "Tarifs", to: "/tarifs" },
    { label: "Galerie", to: "/galerie" },
    { label: "Blog", to: "/blog" },
    { label: "Contact", to: "/contact" },
  ],
} satisfies Record<string, NavLinkItem[]>;

export const footerLinks: NavLinkItem[] = [
  { label: "Accueil", to: "/" },
  { label: "Prestations", to: "/prestations" },
  { label: "Professionnels", to: "/professionnels" },
  { label: "Tarifs", to: "/tarifs" },
  { label: "Contact", to: "/contact" },
  { label: "Mentions légales", to: "/mentions-legales" },
  { label: "Données personnelles", to: "/donnees-personnelles" },
  { label: "Politique cookies", to: "/politique-cookies" },
];
