import { Copy, Download, Upload, UserX } from "lucide-react";
import { ListFilters } from "~/components/admin/list-filters";
import { Link } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { DeleteForm } from "~/components/admin/delete-form";
import { Pager } from "~/components/admin/pager";
import { Button, buttonVariants } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { formatDateFr } from "~/lib/dates";
import {
  formatCount,
  type subscriberStateFilters,
  subscriberStateLabels,
  type SubscriberState,
} from "~/lib/newsletter-admin";
import { cn } from "~/lib/utils";
import { StatusBadge } from "~/components/admin/status-badge";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Abonnés - Administration" }];

/** The search parameter that opens a row's unsubscribe confirmation without JavaScript. */
const CONFIRM_UNSUBSCRIBE_PARAM = "desabonner";

const filterLabels: Record<keyof typeof subscriberStateFilters, string> = {
  "en-attente": "En attente de confirmation",
  actifs: "Actifs",
  desabonnes: "Désabonnés",
};

/** Where a subscriber consented. */
const sourceLabels: Record<string, string> = {
  blog: "Blog",
  article: "Article",
  import: "Import",
};

const STATE_TONES = { active: "success", pending: "warning", unsubscribed: "muted" } as const;

function StateBadge({ state }: { state: SubscriberState }) {
  return <StatusBadge tone={STATE_TONES[state]}>{subscriberStateLabels[state]}</StatusBadge>;
}

/** The date that goes with the state: when the person confirmed (or consented, imported), or left. */
function stateDate(subscriber: {
  status: SubscriberState;
  consentSource: string;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}): string | null {
  if (subscriber.status === "unsubscribed") {
    return subscriber.unsubscribedAt ? `le ${formatDateFr(subscriber.unsubscribedAt)}` : null;
  }
  if (subscriber.status === "pending") return "de confirmation";
  if (!subscriber.confirmedAt) return null;
  return subscriber.consentSource === "import"
    ? `consentement du ${formatDateFr(subscriber.confirmedAt)}`
    : `confirmé le ${formatDateFr(subscriber.confirmedAt)}`;
}

export default function Subscribers({ loaderData }: Route.ComponentProps) {
  const { rows, counts, matching, previous, next, filter, search, activeEmails, loadError } =
    loaderData;
  useServerToast(loadError);
  const total = counts.pending + counts.active + counts.unsubscribed;
  const activeCount = counts.active;

  async function copyEmails() {
    try {
      await navigator.clipboard.writeText(activeEmails ?? "");
      toast.success("Emails copiés", {
        description: `${activeCount} adresse${activeCount > 1 ? "s" : ""} copiée${activeCount > 1 ? "s" : ""}`,
      });
    } catch {
      toast.error("Erreur", { description: "Impossible de copier les emails" });
    }
  }

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Abonnés"
        summary={
          <>
            {formatCount(total)} inscrit{total > 1 ? "s" : ""}, dont {formatCount(activeCount)}{" "}
            actif
            {activeCount > 1 ? "s" : ""}
            {counts.pending > 0
              ? `, ${formatCount(counts.pending)} en attente de confirmation`
              : ""}
          </>
        }
        actions={
          <>
            {activeEmails === null ? (
              // Too many addresses to paste anywhere, or to hold in the page: a file (decision 0130).
              <a
                href="/admin/subscribers/export.csv?statut=actifs"
                download
                className={buttonVariants()}
              >
                <Download aria-hidden="true" />
                Télécharger les emails actifs
              </a>
            ) : (
              <Button type="button" onClick={() => void copyEmails()} disabled={activeCount === 0}>
                <Copy aria-hidden="true" />
                Copier les emails
              </Button>
            )}
            <a
              href="/admin/subscribers/export.csv"
              download
              className={buttonVariants({ variant: "outline" })}
            >
              <Download aria-hidden="true" />
              Exporter en CSV
            </a>
            <Link
              to="/admin/subscribers/importer"
              className={buttonVariants({ variant: "outline" })}
            >
              <Upload aria-hidden="true" />
              Importer
            </Link>
          </>
        }
      />

      <ListFilters
        label="Filtrer les abonnés"
        searchLabel="Adresse contenant"
        search={search}
        states={filterLabels}
        state={filter}
      />

      <section
        // `relative`: the screen-reader-only texts of the rows (positioned) scroll with the table instead
        // of widening the page on a phone.
        className="relative overflow-x-auto rounded-xl border border-border bg-white"
        aria-label="Liste des abonnés"
      >
        {rows.length === 0 ? (
          <p className="px-5 py-8 text-muted-foreground">
            {loadError
              ? "Impossible de charger les abonnés"
              : filter || search
                ? "Aucun abonné ne correspond à ces critères."
                : "Aucun abonné pour le moment."}
          </p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-border bg-muted/50">
              <tr>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Email
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Inscription
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Statut
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Origine
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {rows.map((subscriber) => {
                const date = stateDate(subscriber);
                return (
                  <tr
                    key={subscriber.id}
                    className={cn(subscriber.status === "unsubscribed" && "text-stone-500")}
                  >
                    <td className="px-5 py-3 break-all">{subscriber.email}</td>
                    <td className="px-5 py-3 whitespace-nowrap">
                      {formatDateFr(subscriber.subscribedAt)}
                    </td>
                    <td className="px-5 py-3">
                      <StateBadge state={subscriber.status} />
                      {date ? <span className="mt-1 block text-xs">{date}</span> : null}
                    </td>
                    <td className="px-5 py-3">
                      {sourceLabels[subscriber.consentSource] ?? subscriber.consentSource}
                    </td>
                    <td className="px-5 py-3">
                      <div className="flex flex-wrap justify-end gap-2">
                        {subscriber.status === "unsubscribed" ? null : (
                          <ConfirmedActionForm
                            id={subscriber.id}
                            intent="unsubscribe"
                            param={CONFIRM_UNSUBSCRIBE_PARAM}
                            confirmation="Désabonner cette adresse de la newsletter ?"
                            itemLabel={subscriber.email}
                            variant="default"
                            label={
                              <>
                                <UserX aria-hidden="true" />
                                Désabonner
                              </>
                            }
                          />
                        )}
                        <DeleteForm
                          id={subscriber.id}
                          confirmation="Êtes-vous sûr de vouloir supprimer cet abonné ?"
                          itemLabel={subscriber.email}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      {rows.length > 0 && (filter || search) ? (
        <p className="text-sm">
          {formatCount(matching)} abonné{matching > 1 ? "s" : ""} correspond
          {matching > 1 ? "ent" : ""} à ces critères.
        </p>
      ) : null}
      <Pager previous={previous} next={next} label="Pages des abonnés" />
    </div>
  );
}
