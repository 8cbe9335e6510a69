import { NavLink } from "react-router";
import { cn } from "~/lib/utils";

const sections = [
  { to: "/admin/reservations", label: "Agenda", end: true },
  { to: "/admin/reservations/seances", label: "Séances", end: false },
  { to: "/admin/reservations/reglages", label: "Photographes et agenda", end: false },
];

/** The sections of /admin/reservations: the agenda, the session types, the settings. */
export function ReservationsNav() {
  return (
    <nav aria-label="Sections des réservations">
      <ul className="flex flex-wrap gap-2">
        {sections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
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
