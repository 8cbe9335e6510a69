import { DatabaseBackup } from "lucide-react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AdminSection } from "~/components/admin/admin-table";
import { BackupStatus } from "~/components/backups/backup-status";
import { BackupList } from "~/components/backups/backup-list";
import { MonthlyLinkSection } from "~/components/backups/monthly-link-section";
import { RestoreConfirmation } from "~/components/backups/restore-confirmation";
import { RunReport, UnderWay, useRefreshWhile } from "~/components/backups/run-views";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import { RESTORE_PARAM } from "~/lib/backups";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Sauvegardes - Administration" }];

export default function Sauvegardes({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData && "status" in actionData ? actionData : undefined;
  useServerToast(answer?.status === "failed" ? answer.toast : undefined);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const active = loaderData.active.length > 0;
  useRefreshWhile(active);
  const restoring = loaderData.restoreTarget ?? answer?.values.sauvegarde ?? null;

  if (restoring && (loaderData.restoreTarget || answer?.values.intent === "restore")) {
    return (
      <RestoreConfirmation
        name={restoring}
        answer={answer}
        busy={busy}
        erased={loaderData.erased}
      />
    );
  }

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Sauvegardes"
        summary="Tout le site (textes, tarifs, photos, galeries clients, abonnés, réservations) copié dans une archive que vous pouvez télécharger, vérifier ou restaurer."
        actions={
          <Form method="post">
            <Button type="submit" name="intent" value="backup" disabled={busy}>
              <DatabaseBackup aria-hidden="true" />
              Sauvegarder maintenant
            </Button>
          </Form>
        }
      />
      {answer?.status === "invalid" ? <FormAlert message={answer.toast} /> : null}

      <AdminSection id="etat-sauvegardes" title="État">
        <div className="space-y-4">
          <BackupStatus status={loaderData.health} />
          <dl className="grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
            <dt className="font-semibold">Quand</dt>
            <dd>
              Chaque nuit vers {loaderData.hour} h (heure de Paris), et quand vous cliquez sur «
              Sauvegarder maintenant ».
            </dd>
            <dt className="font-semibold">Où</dt>
            <dd className="space-y-1">
              <p>{loaderData.destination}.</p>
              {loaderData.offServer ? (
                <p>
                  Ces copies sont gardées hors de ce serveur : s'il tombe en panne ou disparaît,
                  elles restent disponibles pour remettre le site en ligne.
                </p>
              ) : (
                <p className="font-medium text-amber-900">
                  Ces copies sont sur le même serveur que le site : s'il tombe en panne, est piraté
                  ou disparaît, elles disparaissent avec lui. Téléchargez-en une de temps en temps
                  et gardez-la chez vous (sur votre ordinateur ou une clé USB), ou demandez à la
                  personne qui héberge le site de les envoyer dans un espace de stockage à part
                  (réglages BACKUP_S3_*).
                </p>
              )}
            </dd>
            <dt className="font-semibold">Combien</dt>
            <dd>{retentionWords(loaderData.retention)}</dd>
            <dt className="font-semibold">Chiffrement</dt>
            <dd>
              {loaderData.encrypted
                ? "Oui : les nouvelles sauvegardes sont chiffrées ; sans leur clé (BACKUP_KEY), personne ne peut les lire. Gardez cette clé hors du serveur."
                : "Non : demandez à la personne qui héberge le site de définir une clé (BACKUP_KEY) pour les chiffrer."}
            </dd>
          </dl>
        </div>
      </AdminSection>

      <MonthlyLinkSection setting={loaderData.monthlyLink} busy={busy} />

      {active ? <UnderWay runs={loaderData.active} refreshTo="/admin/sauvegardes" /> : null}

      {loaderData.lastRestore &&
      loaderData.lastRestore.status !== "queued" &&
      loaderData.lastRestore.status !== "running" ? (
        <AdminSection id="derniere-restauration" title="Dernière restauration">
          <RunReport run={loaderData.lastRestore} />
        </AdminSection>
      ) : null}

      <BackupList
        backups={loaderData.backups}
        listError={loaderData.listError}
        busy={busy}
        restoreParam={RESTORE_PARAM}
      />
    </div>
  );
}

/** The retention (BACKUP_KEEP_*) in the owner's words. */
function retentionWords(retention: { daily: number; weekly: number; monthly: number }): string {
  const kept = [
    retention.daily > 0 ? `de chacun des ${retention.daily} derniers jours` : null,
    retention.weekly > 0 ? `de chacune des ${retention.weekly} dernières semaines` : null,
    retention.monthly > 0 ? `de chacun des ${retention.monthly} derniers mois` : null,
  ].filter((part): part is string => part !== null);
  const last = kept.length > 1 ? `${kept.slice(0, -1).join(", ")} et ${kept.at(-1)}` : kept[0];
  return `Toutes celles des dernières 24 heures${last ? `, puis la dernière ${last}` : ""} ; les plus anciennes sont effacées après chaque sauvegarde.`;
}
