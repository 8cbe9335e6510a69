import { NavLink } from "react-router";
import { cn } from "~/lib/utils";

const sections = [
  { to: "/admin/tarifs", label: "Tarifs", end: true },
  { to: "/admin/tarifs/gendarmerie", label: "Offre gendarmerie", end: false },
  { to: "/admin/tarifs/seances-a-offrir", label: "Séances à offrir", end: false },
  { to: "/admin/tarifs/temoignages", label: "Témoignages", end: false },
];

/** The sections of /admin/tarifs: one document each, each with its own history. */
export function TarifsNav() {
  return (
    <nav aria-label="Sections des tarifs">
      <ul className="flex flex-wrap gap-2">
        {sections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              // `cn` does not settle Tailwind conflicts: the two states share no colour class, or the
              // stylesheet's order would pick one (white on white, issue 24).
              className={({ isActive }) =>
                cn(
                  "inline-flex min-h-9 items-center rounded-full border px-4 text-sm",
                  isActive
                    ? "border-stone-800 bg-stone-800 font-semibold text-white hover:bg-stone-700"
                    : "border-border bg-white hover:bg-muted",
                )
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
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
