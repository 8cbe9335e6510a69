import { Check, Mail, Phone, RotateCcw } from "lucide-react";
import { ListFilters } from "~/components/admin/list-filters";
import { Form } from "react-router";
import type { Route } from "./+types/messages";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DeleteForm } from "~/components/admin/delete-form";
import { Pager } from "~/components/admin/pager";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { formatDateFr } from "~/lib/dates";
import { cn } from "~/lib/utils";
import { StatusBadge } from "~/components/admin/status-badge";

export { action, loader } from "./messages.server";

export const meta: Route.MetaFunction = () => [{ title: "Messages - Administration" }];

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { messages, previous, next, matching, counts, filters, loadError } = loaderData;
  useServerToast(loadError);
  const filtered = filters.state !== null || filters.search !== "";

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Messages"
        summary={
          <>
            {counts.total} message{counts.total > 1 ? "s" : ""}, dont {counts.waiting} à traiter.
            Les messages sont effacés automatiquement 18 mois après leur dernier traitement.
          </>
        }
      />

      <ListFilters
        label="Filtrer les messages"
        searchLabel="Nom ou adresse contenant"
        search={filters.search}
        states={{ "a-traiter": "À traiter", traites: "Traités" }}
        state={filters.state}
      />
      {filtered ? (
        <p className="text-sm">
          {matching} message{matching > 1 ? "s" : ""} correspond{matching > 1 ? "ent" : ""} à ces
          critères.
        </p>
      ) : null}

      {messages.length === 0 ? (
        <p className="rounded-xl border border-border bg-white px-5 py-8 text-muted-foreground">
          {loadError
            ? "Impossible de charger les messages"
            : filtered
              ? "Aucun message ne correspond à ces critères."
              : "Aucun message pour le moment."}
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Liste des messages">
          {messages.map((message) => {
            const name = `${message.prenom} ${message.nom}`;
            return (
              <li key={message.id}>
                <article
                  aria-label={`Message de ${name}`}
                  className={cn(
                    "rounded-xl border bg-white p-5",
                    message.handledAt ? "border-border" : "border-gold-dark/50 shadow-sm",
                  )}
                >
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div>
                      <h2 className="font-sans text-lg font-semibold">{name}</h2>
                      <p className="text-sm text-muted-foreground">
                        {formatDateFr(message.createdAt)} · {message.studioName} ·{" "}
                        {message.shootingTypeLabel}
                        {message.sourceLabel ? ` · Connu par : ${message.sourceLabel}` : ""}
                      </p>
                      {message.suspectedSpam ? (
                        <p className="mt-1 text-sm font-semibold text-red-800">
                          Indésirable probable : le champ caché anti-robots a été rempli (un robot,
                          ou le remplissage automatique du navigateur). Non transmis par e-mail.
                        </p>
                      ) : null}
                    </div>
                    <StatusBadge tone={message.handledAt ? "muted" : "warning"}>
                      {message.handledAt
                        ? `Traité le ${formatDateFr(message.handledAt)}`
                        : "À traiter"}
                    </StatusBadge>
                  </div>
                  <p className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
                    <a
                      href={`mailto:${message.email}`}
                      className="inline-flex items-center gap-1.5 underline-offset-4 hover:underline"
                    >
                      <Mail aria-hidden="true" className="size-4" />
                      {message.email}
                    </a>
                    {message.telephone ? (
                      <a
                        href={`tel:${message.telephone.replace(/[^\d+]/g, "")}`}
                        className="inline-flex items-center gap-1.5 underline-offset-4 hover:underline"
                      >
                        <Phone aria-hidden="true" className="size-4" />
                        {message.telephone}
                      </a>
                    ) : null}
                  </p>
                  <p className="mt-3 text-sm whitespace-pre-line">{message.message}</p>
                  <div className="mt-4 flex flex-wrap gap-2">
                    <Form method="post">
                      <input type="hidden" name="id" value={message.id} />
                      <Button
                        type="submit"
                        name="intent"
                        value={message.handledAt ? "unhandled" : "handled"}
                        variant="outline"
                        size="sm"
                      >
                        {message.handledAt ? (
                          <RotateCcw aria-hidden="true" />
                        ) : (
                          <Check aria-hidden="true" />
                        )}
                        {message.handledAt ? "Remettre à traiter" : "Marquer comme traité"}
                      </Button>
                    </Form>
                    <DeleteForm
                      id={message.id}
                      confirmation="Êtes-vous sûr de vouloir supprimer ce message ?"
                    />
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <Pager previous={previous} next={next} label="Pages des messages" />
    </div>
  );
}
