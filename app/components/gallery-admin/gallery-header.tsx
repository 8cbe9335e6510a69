import { ExternalLink } from "lucide-react";
import { NavLink } from "react-router";
import { StatusBadge } from "~/components/admin/status-badge";
import { formatDateFr } from "~/lib/dates";
import {
  adminGalleryPath,
  adminGallerySelectionPath,
  adminGallerySettingsPath,
  clientGalleryPath,
} from "~/lib/gallery-urls";
import { cn } from "~/lib/utils";
import type { GalleryHeaderData } from "~/server/galleries/admin-pages.server";
import type { GalleryState } from "~/server/galleries/galleries.server";

/** A gallery's state as a pill of the admin's lists. */
export function GalleryStateBadge({ state }: { state: GalleryState }) {
  switch (state.kind) {
    case "deleting":
      return <StatusBadge tone="danger">Suppression en cours</StatusBadge>;
    case "expired":
      return (
        <>
          <StatusBadge tone="muted">Expirée</StatusBadge>{" "}
          <StatusBadge tone="danger">Suppression le {formatDateFr(state.purgeAt)}</StatusBadge>
        </>
      );
    case "selection":
      return <StatusBadge tone="success">Sélection reçue</StatusBadge>;
    case "sent":
      return <StatusBadge tone="info">Lien envoyé</StatusBadge>;
    case "draft":
      return <StatusBadge tone="neutral">Brouillon</StatusBadge>;
  }
}

/**
 * The top of every page of one gallery: its title, client and state, its tabs (photos, settings,
 * selection, sending) and the client's view in a new tab.
 */
export function GalleryHeader({ gallery }: { gallery: GalleryHeaderData }) {
  const tabs = [
    { to: adminGalleryPath(gallery.id), label: "Photos", end: true },
    { to: adminGallerySettingsPath(gallery.id), label: "Réglages", end: true },
    { to: adminGallerySelectionPath(gallery.id), label: "Sélection", end: true },
    { to: `${adminGalleryPath(gallery.id)}/envoyer`, label: "Envoyer au client", end: true },
  ];
  return (
    <header className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <NavLink to="/admin/galeries" className="text-sm underline underline-offset-4">
            Galeries clients
          </NavLink>
          <h1 className="mt-1 text-3xl font-bold">{gallery.title}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>{gallery.clientName}</span>
            <GalleryStateBadge state={gallery.state} />
          </p>
        </div>
        <a
          href={clientGalleryPath(gallery.id)}
          target="_blank"
          rel="noopener"
          className="inline-flex min-h-11 items-center gap-1 text-sm underline underline-offset-4"
        >
          Voir comme le client
          <ExternalLink aria-hidden="true" className="size-4" />
          <span className="sr-only"> (nouvel onglet)</span>
        </a>
      </div>
      <nav aria-label="Pages de la galerie">
        <ul className="flex flex-wrap gap-1 border-b border-border">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end={tab.end}
                className={({ isActive }) =>
                  cn(
                    "-mb-px block border-b-2 px-3 py-2 text-sm",
                    isActive
                      ? "border-foreground font-semibold"
                      : "border-transparent text-muted-foreground hover:text-foreground",
                  )
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
