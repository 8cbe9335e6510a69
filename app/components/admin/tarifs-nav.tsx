import { SectionNav } from "./section-nav";

const sections = [
  { to: "/admin/tarifs", label: "Tarifs", end: true },
  { to: "/admin/tarifs/gendarmerie", label: "Offre gendarmerie", end: false },
  { to: "/admin/tarifs/seances-a-offrir", label: "Séances à offrir", end: false },
  { to: "/admin/tarifs/temoignages", label: "Témoignages", end: false },
];

/** The sections of /admin/tarifs: one document each, each with its own history. */
export function TarifsNav() {
  return <SectionNav label="Sections des tarifs" sections={sections} />;
}

/** The site's pages a card's « En savoir plus » may lead to. */
export const SITE_PAGES: ReadonlyArray<{ path: string; label: string }> = [
  { path: "/", label: "Accueil" },
  { path: "/prestations", label: "Prestations" },
  { path: "/portrait-famille", label: "Portrait & Famille" },
  { path: "/prestations/grossesse", label: "Grossesse" },
  { path: "/prestations/naissances", label: "Naissances" },
  { path: "/prestations/mariages", label: "Mariages" },
  { path: "/seances-a-offrir", label: "Séances à offrir" },
  { path: "/professionnels", label: "Professionnels" },
  { path: "/gendarmerie", label: "Gendarmerie" },
  { path: "/scolaire", label: "Scolaire" },
  { path: "/tarifs", label: "Tarifs" },
  { path: "/galerie", label: "Galerie" },
  { path: "/boudoir", label: "Boudoir" },
  { path: "/contact", label: "Contact" },
  { path: "/blog", label: "Blog" },
];
