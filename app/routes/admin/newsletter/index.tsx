import { Upload, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AdminSection, AdminTable, cellClass } from "~/components/admin/admin-table";
import { MailSettingsPanel } from "~/components/admin/mail-settings-panel";
import { buttonVariants } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { formatDateTimeFr } from "~/lib/dates";
import {
  formatCount,
  mailKindLabel,
  type SubscriberStateFilter,
  type SubscriberState,
} from "~/lib/newsletter-admin";
import { StatusBadge } from "~/components/admin/status-badge";

export { loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Newsletter - Administration" }];

const stateCards: Array<{ state: SubscriberState; filter: SubscriberStateFilter; label: string }> =
  [
    { state: "pending", filter: "en-attente", label: "En attente de confirmation" },
    { state: "active", filter: "actifs", label: "Actifs" },
    { state: "unsubscribed", filter: "desabonnes", label: "Désabonnés" },
  ];

export default function Newsletter({ loaderData }: Route.ComponentProps) {
  const { settings, waiting, counts, sendings, failures, loadError } = loaderData;
  useServerToast(loadError);

  return (
    <div className="space-y-8">
      <AdminPageHeader
        title="Newsletter"
        summary="Les abonnés, les envois d'articles, les erreurs d'envoi et les réglages de l'envoi d'e-mails."
        actions={
          <>
            <Link to="/admin/subscribers" className={buttonVariants({ variant: "outline" })}>
              <Users aria-hidden="true" />
              Voir les abonnés
            </Link>
            <Link
              to="/admin/subscribers/importer"
              className={buttonVariants({ variant: "outline" })}
            >
              <Upload aria-hidden="true" />
              Importer des abonnés
            </Link>
          </>
        }
      />

      <AdminSection id="reglages-titre" title="Envoi des e-mails">
        <MailSettingsPanel settings={settings} waiting={waiting} />
      </AdminSection>

      <AdminSection id="abonnes-titre" title="Abonnés">
        {counts ? (
          <ul className="grid gap-4 sm:grid-cols-3">
            {stateCards.map((card) => (
              <li key={card.state}>
                <Link
                  to={`/admin/subscribers?statut=${card.filter}`}
                  className="block rounded-xl border border-border p-4 hover:bg-muted"
                >
                  <span className="block text-sm text-muted-foreground">{card.label}</span>
                  <span className="mt-1 block text-3xl font-bold">
                    {formatCount(counts[card.state])}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">Impossible de charger les abonnés.</p>
        )}
        <p className="mt-4 text-sm">
          <Link to="/admin/subscribers" className="underline underline-offset-4">
            Voir la liste des abonnés
          </Link>
        </p>
      </AdminSection>

      <AdminSection id="envois-titre" title="Derniers envois">
        {sendings.length === 0 ? (
          <p className="text-muted-foreground">
            Aucun article n'a encore été envoyé. Envoyez un article publié depuis le tableau de
            bord.
          </p>
        ) : (
          <AdminTable
            columns={[
              { label: "Objet" },
              { label: "Date" },
              { label: "État" },
              { label: "Envoyés", numeric: true },
              { label: "Échecs", numeric: true },
              { label: "En attente", numeric: true },
            ]}
          >
            {sendings.map((sending) => (
              <tr key={sending.id}>
                <td className={cellClass()}>
                  <Link
                    to={`/admin/newsletter/envois/${sending.id}`}
                    className="font-medium underline underline-offset-4"
                  >
                    {sending.subject}
                  </Link>
                </td>
                <td className={cellClass(false, "whitespace-nowrap")}>
                  {formatDateTimeFr(sending.createdAt)}
                </td>
                <td className={cellClass()}>
                  {sending.status === "done" ? (
                    <>
                      Terminé
                      {sending.finishedAt ? (
                        <span className="block text-xs text-muted-foreground">
                          le {formatDateTimeFr(sending.finishedAt)}
                        </span>
                      ) : null}
                    </>
                  ) : (
                    <span className="font-semibold text-amber-900">En cours</span>
                  )}
                </td>
                <td className={cellClass(true, "whitespace-nowrap")}>
                  {formatCount(sending.sent)} sur {formatCount(sending.total)}
                </td>
                <td className={cellClass(true)}>{formatCount(sending.failed)}</td>
                <td className={cellClass(true)}>{formatCount(sending.pending)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>

      <AdminSection id="erreurs-titre" title="Dernières erreurs d'envoi">
        {failures.length === 0 ? (
          <p className="text-muted-foreground">Aucune erreur d'envoi ces 30 derniers jours.</p>
        ) : (
          <AdminTable
            columns={[
              { label: "Date" },
              { label: "E-mail" },
              { label: "Destinataire" },
              { label: "Erreur" },
              { label: "Suite" },
            ]}
          >
            {failures.map((failure) => (
              <tr key={failure.id}>
                <td className={cellClass(false, "whitespace-nowrap")}>
                  {formatDateTimeFr(failure.at)}
                </td>
                <td className={cellClass()}>{mailKindLabel(failure.kind)}</td>
                <td className={cellClass(false, "break-all")}>{failure.recipient ?? "—"}</td>
                <td className={cellClass()}>{failure.error}</td>
                <td className={cellClass(false, "whitespace-nowrap")}>
                  <StatusBadge tone={failure.final ? "danger" : "warning"}>
                    {failure.final ? "abandonné" : "nouvel essai prévu"}
                  </StatusBadge>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </div>
  );
}
