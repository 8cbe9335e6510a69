import { Upload, Users } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/newsletter";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
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
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/server/admin/guard.server";
import { mailSettings, waitingMail } from "~/server/admin/newsletter-overview.server";
import { subscriberCounts } from "~/server/admin/subscribers.server";
import { log } from "~/server/logger.server";
import { latestMailFailures } from "~/server/mail/failures.server";
import { sendingsProgress } from "~/server/newsletter/sending.server";

export const meta: Route.MetaFunction = () => [{ title: "Newsletter - Administration" }];

/** How many sendings and errors the page lists (the sendings' own pages have the rest). */
const LATEST_SENDINGS = 10;
const LATEST_FAILURES = 20;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const settings = await mailSettings();
  try {
    const [waiting, counts, sendings, failures] = await Promise.all([
      waitingMail(),
      subscriberCounts(),
      sendingsProgress({ limit: LATEST_SENDINGS }),
      latestMailFailures(LATEST_FAILURES),
    ]);
    return { settings, waiting, counts, sendings, failures, loadError: null };
  } catch (error) {
    log.error("admin_newsletter_load_failed", { error });
    return {
      settings,
      waiting: null,
      counts: null,
      sendings: [],
      failures: [],
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les abonnés et les envois",
      },
    };
  }
}

const stateCards: Array<{ state: SubscriberState; filter: SubscriberStateFilter; label: string }> =
  [
    { state: "pending", filter: "en-attente", label: "En attente de confirmation" },
    { state: "active", filter: "actifs", label: "Actifs" },
    { state: "unsubscribed", filter: "desabonnes", label: "Désabonnés" },
  ];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-border bg-white">
      <h2 id={id} className="border-b border-border px-5 py-4 text-xl font-semibold">
        {title}
      </h2>
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

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

      <Section id="reglages-titre" title="Envoi des e-mails">
        <MailSettingsPanel settings={settings} waiting={waiting} />
      </Section>

      <Section id="abonnes-titre" title="Abonnés">
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
      </Section>

      <Section id="envois-titre" title="Derniers envois">
        {sendings.length === 0 ? (
          <p className="text-muted-foreground">
            Aucun article n'a encore été envoyé. Envoyez un article publié depuis le tableau de
            bord.
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-border">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    Objet
                  </th>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    État
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">
                    Envoyés
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">
                    Échecs
                  </th>
                  <th scope="col" className="py-2 text-right font-semibold">
                    En attente
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {sendings.map((sending) => (
                  <tr key={sending.id}>
                    <td className="py-3 pr-4">
                      <Link
                        to={`/admin/newsletter/envois/${sending.id}`}
                        className="font-medium underline underline-offset-4"
                      >
                        {sending.subject}
                      </Link>
                    </td>
                    <td className="py-3 pr-4 whitespace-nowrap">
                      {formatDateTimeFr(sending.createdAt)}
                    </td>
                    <td className="py-3 pr-4">
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
                    <td className="py-3 pr-4 text-right whitespace-nowrap">
                      {formatCount(sending.sent)} sur {formatCount(sending.total)}
                    </td>
                    <td className="py-3 pr-4 text-right">{formatCount(sending.failed)}</td>
                    <td className="py-3 text-right">{formatCount(sending.pending)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      <Section id="erreurs-titre" title="Dernières erreurs d'envoi">
        {failures.length === 0 ? (
          <p className="text-muted-foreground">Aucune erreur d'envoi ces 30 derniers jours.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-border">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    E-mail
                  </th>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    Destinataire
                  </th>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    Erreur
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    Suite
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {failures.map((failure) => (
                  <tr key={failure.id}>
                    <td className="py-3 pr-4 whitespace-nowrap">{formatDateTimeFr(failure.at)}</td>
                    <td className="py-3 pr-4">{mailKindLabel(failure.kind)}</td>
                    <td className="py-3 pr-4 break-all">{failure.recipient ?? "—"}</td>
                    <td className="py-3 pr-4">{failure.error}</td>
                    <td className="py-3">
                      <span
                        className={cn(
                          "rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
                          failure.final ? "bg-red-100 text-red-900" : "bg-amber-100 text-amber-900",
                        )}
                      >
                        {failure.final ? "abandonné" : "nouvel essai prévu"}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}
