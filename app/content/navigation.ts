import { studios } from "./studios";

export type NavLinkItem = { label: string; to: string };

/** Header links (SPEC §2 "Shared layout"); Studios is a menu of the three studio pages. */
export const headerLinks = {
  beforeStudios: [
    { label: "Accueil", to: "/" },
    { label: "Prestations", to: "/prestations" },
  ],
  studios: studios.map((studio) => ({ label: studio.name, to: studio.pagePath })),
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
