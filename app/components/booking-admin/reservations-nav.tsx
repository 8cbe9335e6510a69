import { SectionNav } from "~/components/admin/section-nav";

const sections = [
  { to: "/admin/reservations", label: "Agenda", end: true },
  { to: "/admin/reservations/seances", label: "Séances", end: false },
  { to: "/admin/reservations/reglages", label: "Photographes et agenda", end: false },
];

/** The sections of /admin/reservations: the agenda, the session types, the settings. */
export function ReservationsNav() {
  return <SectionNav label="Sections des réservations" sections={sections} />;
}
