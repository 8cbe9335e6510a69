import { Archive, ArchiveRestore, Plus } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { EditAndArchiveActions } from "~/components/admin/edit-and-archive";
import { StatusBadge } from "~/components/admin/status-badge";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { Button } from "~/components/ui/button";
import { SESSION_TYPES_PAGE } from "~/lib/booking/session-type-form";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Séances - Administration" }];

/** The search parameter that opens the confirmation of an archiving without JavaScript. */
const CONFIRM_ARCHIVE_PARAM = "archiver";

export default function SessionTypes({ loaderData }: Route.ComponentProps) {
  const { sessionTypes } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Séances"
        summary="Ce que vos clients peuvent réserver en ligne, studio par studio."
        actions={
          <Button asChild>
            <Link to={`${SESSION_TYPES_PAGE}/nouvelle`}>
              <Plus aria-hidden="true" />
              Nouvelle séance
            </Link>
          </Button>
        }
      />
      <ReservationsNav />
      <section className="rounded-xl border border-border bg-white" aria-label="Liste des séances">
        {sessionTypes.length === 0 ? (
          <p className="px-5 py-4 text-sm text-muted-foreground">
            Aucune séance pour l'instant : créez la première avec « Nouvelle séance ».
          </p>
        ) : (
          <ul className="divide-y divide-border">
            {sessionTypes.map((type) => (
              <li
                key={type.id}
                className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-center"
              >
                <div className="min-w-0 flex-1">
                  <h2 className="flex flex-wrap items-center gap-2 font-sans text-base font-semibold">
                    {type.name}
                    {type.archived ? <StatusBadge tone="neutral">Archivée</StatusBadge> : null}
                    {type.private ? <StatusBadge tone="info">Lien privé</StatusBadge> : null}
                    {type.request ? <StatusBadge tone="warning">Sur demande</StatusBadge> : null}
                  </h2>
                  <p className="text-sm text-muted-foreground">
                    {[type.duration, type.priceText, type.studios.join(", ") || "aucun studio"]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                <EditAndArchiveActions
                  id={type.id}
                  name={type.name}
                  editTo={`${SESSION_TYPES_PAGE}/${type.id}`}
                  archived={type.archived}
                  archive={{
                    intent: "archive",
                    param: CONFIRM_ARCHIVE_PARAM,
                    confirmation:
                      "Archiver cette séance ? Elle ne sera plus proposée à la réservation ; ses réservations restent dans l'agenda. Vous pourrez la proposer de nouveau.",
                    label: (
                      <>
                        <Archive aria-hidden="true" />
                        Archiver
                      </>
                    ),
                  }}
                  restore={{
                    intent: "unarchive",
                    label: (
                      <>
                        <ArchiveRestore aria-hidden="true" />
                        Proposer de nouveau
                      </>
                    ),
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
