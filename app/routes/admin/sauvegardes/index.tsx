import { DatabaseBackup } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
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
import { RESTORE_WORD } from "~/lib/backups";
import { type FormAnswer, parseForm } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  listBackups,
  requestBackup,
  requestCheck,
  requestRestore,
} from "~/server/backup/service.server";
import { erasedSince } from "~/server/backup/since-backup.server";
import { monthlyLinkSetting, setMonthlyLink } from "~/server/backup/monthly-link.server";
import { log } from "~/server/logger.server";
import { mailConfig } from "~/server/mail/transport.server";
import { redirectWithToast } from "~/server/toast.server";
import { backupsPage } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Sauvegardes - Administration" }];

/** The search parameter that opens a backup's restore confirmation (works without JavaScript). */
const RESTORE_PARAM = "restaurer";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const [page, monthly] = await Promise.all([backupsPage(admin.id), monthlyLinkSetting(admin.id)]);
  const asked = new URL(request.url).searchParams.get(RESTORE_PARAM);
  const restoreTarget = page.backups.find((backup) => backup.name === asked) ?? null;
  // What the restore would erase, read before she types the word (decision 0128).
  const erased = restoreTarget ? await erasedSince(new Date(restoreTarget.createdAt)) : null;
  return data(
    {
      ...page,
      restoreTarget: restoreTarget?.name ?? null,
      erased,
      monthlyLink: {
        enabled: monthly.enabled,
        email: admin.email,
        lastSentAt: monthly.lastSentAt?.toISOString() ?? null,
        mailConfigured: mailConfig() !== null,
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const backupName = z.string().regex(/^sauvegarde-[0-9-]+\.tar(\.enc)?$/, "Sauvegarde inconnue");

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("backup") }),
  // The monthly e-mailed link (decision 0139): the box sends « on » when ticked, nothing when not.
  z.object({ intent: z.literal("monthly-link"), envoyer: z.literal("on").optional() }),
  z.object({ intent: z.literal("check"), sauvegarde: backupName }),
  z.object({
    intent: z.literal("restore"),
    sauvegarde: backupName,
    confirmation: z
      .string()
      .trim()
      .refine(
        (typed) => typed.toUpperCase() === RESTORE_WORD,
        `Tapez ${RESTORE_WORD} pour confirmer la restauration.`,
      ),
  }),
]);

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const parsed = parseForm(await request.formData(), actionSchema);
  if (!parsed.ok) {
    return data<FormAnswer>(
      {
        status: "invalid",
        values: parsed.values,
        errors: parsed.errors,
        toast: {
          type: "error",
          title: "Rien n'a été fait",
          description:
            parsed.errors.confirmation ?? parsed.errors.sauvegarde ?? "Demande inconnue.",
        },
      },
      { status: 400 },
    );
  }
  const who = admin.name || admin.email;
  const form = parsed.data;
  try {
    if (form.intent === "backup") {
      await requestBackup(who);
      return redirectWithToast("/admin/sauvegardes", {
        type: "success",
        title: "Sauvegarde demandée",
        description: "Elle commence dans un instant : sa progression s'affiche sur cette page.",
      });
    }
    if (form.intent === "monthly-link") {
      const enabled = form.envoyer === "on";
      await setMonthlyLink(admin.id, enabled);
      return redirectWithToast("/admin/sauvegardes", {
        type: "success",
        title: enabled ? "E-mail mensuel activé" : "E-mail mensuel arrêté",
        description: enabled
          ? `Un lien pour télécharger la dernière sauvegarde sera envoyé chaque mois à ${admin.email}.`
          : "Vous ne recevrez plus de lien par e-mail.",
      });
    }
    const listed = (await listBackups()).some((backup) => backup.name === form.sauvegarde);
    if (!listed) {
      return redirectWithToast("/admin/sauvegardes", {
        type: "error",
        title: "Cette sauvegarde n'existe plus",
      });
    }
    if (form.intent === "check") {
      await requestCheck(form.sauvegarde, who);
      return redirectWithToast("/admin/sauvegardes", {
        type: "success",
        title: "Vérification demandée",
        description:
          "La sauvegarde est restaurée à part, sans toucher au site ; le résultat s'affiche sur cette page.",
      });
    }
    const runId = await requestRestore(form.sauvegarde, who);
    return redirectWithToast(`/admin/sauvegardes/restauration/${runId}`, {
      type: "info",
      title: "Restauration demandée",
    });
  } catch (error) {
    log.error("admin_backup_request_failed", { error, intent: form.intent });
    return data<FormAnswer>(
      {
        status: "failed",
        values: parsed.values,
        toast: {
          type: "error",
          title: "Erreur",
          description: "La demande n'a pas pu être enregistrée. Réessayez dans un instant.",
        },
      },
      { status: 500 },
    );
  }
}

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
