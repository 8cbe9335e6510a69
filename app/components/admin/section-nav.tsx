import { NavLink } from "react-router";
import { cn } from "~/lib/utils";

export type Section = { to: string; label: string; end: boolean };

/**
 * The sub-pages of an admin area (the prices' documents, the booking's agenda and settings…) as pill links,
 * the current one filled.
 */
export function SectionNav({ label, sections }: { label: string; sections: readonly Section[] }) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {sections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              // `cn` does not settle Tailwind conflicts: the two states share no colour class, or the
              // stylesheet's order would pick one (white on white).
              className={({ isActive }) =>
                cn(
                  "inline-flex min-h-11 items-center rounded-full border px-4 text-sm",
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
