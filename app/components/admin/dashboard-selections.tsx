import { Link } from "react-router";
import { StatusBadge } from "~/components/admin/status-badge";
import { formatLongDateTimeFr } from "~/lib/dates";
import { adminGallerySelectionPath } from "~/lib/gallery-urls";

export type DashboardSelection = {
  id: string;
  title: string;
  clientName: string;
  /** ISO instant of the validation. */
  validatedAt: string;
  favourites: number;
};

/** The selections clients sent lately (decision 0134), each leading to what she chose. */
export function DashboardSelections({ selections }: { selections: readonly DashboardSelection[] }) {
  if (selections.length === 0) return null;
  return (
    <section
      aria-labelledby="selections-titre"
      className="space-y-3 rounded-xl border border-border bg-white p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="selections-titre" className="text-xl font-semibold">
          Galeries clients
        </h2>
        <Link
          to="/admin/galeries"
          className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
        >
          Toutes les galeries
        </Link>
      </div>
      <ul className="divide-y divide-border">
        {selections.map((selection) => (
          <li key={selection.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <StatusBadge tone="success">Sélection reçue</StatusBadge>
            <Link
              to={adminGallerySelectionPath(selection.id)}
              className="font-semibold underline-offset-4 hover:underline"
            >
              {selection.title}
            </Link>
            <span className="text-sm text-muted-foreground">
              {selection.clientName} ·{" "}
              {selection.favourites === 1 ? "1 photo" : `${selection.favourites} photos`} · le{" "}
              {formatLongDateTimeFr(selection.validatedAt)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
