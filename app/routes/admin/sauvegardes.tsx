import { DatabaseBackup, Download, RefreshCw, RotateCcw, ShieldCheck } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, useNavigation, useRevalidator } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/sauvegardes";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AdminSection, AdminTable, cellClass } from "~/components/admin/admin-table";
import { BackupStatus } from "~/components/admin/backup-status";
import { Field, Input } from "~/components/admin/field";
import { StatusBadge } from "~/components/admin/status-badge";
import {
  backupDate,
  backupDateOfFile,
  formatSizeFr,
  RunProgress,
  RunReport,
} from "~/components/backups/run-views";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { useServerToast } from "~/components/ui/server-toast";
import { RESTORE_WORD } from "~/lib/backups";
import { type FormAnswer, parseForm } from "~/lib/forms";
import { POLL_INTERVAL_MS } from "~/lib/use-polled";
import { requireAdmin } from "~/server/admin/guard.server";
import {
  listBackups,
  requestBackup,
  requestCheck,
  requestRestore,
} from "~/server/backup/service.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import { backupsPage } from "./sauvegardes.server";

export const meta: Route.MetaFunction = () => [{ title: "Sauvegardes - Administration" }];

/** The search parameter that opens a backup's restore confirmation (works without JavaScript). */
const RESTORE_PARAM = "restaurer";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const page = await backupsPage(admin.id);
  const asked = new URL(request.url).searchParams.get(RESTORE_PARAM);
  const restoreTarget = page.backups.find((backup) => backup.name === asked) ?? null;
  return data(
    { ...page, restoreTarget: restoreTarget?.name ?? null },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const backupName = z.string().regex(/^sauvegarde-[0-9-]+\.tar(\.enc)?$/, "Sauvegarde inconnue");

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("backup") }),
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

/** While work is under way: the page's data again every 2 s (with JavaScript; without, a refresh). */
function useRefreshWhile(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "hidden" && revalidator.state === "idle") {
        void revalidator.revalidate();
      }
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [active, revalidator]);
}

type LoaderData = Route.ComponentProps["loaderData"];

export default function Sauvegardes({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData && "status" in actionData ? actionData : undefined;
  useServerToast(answer?.status === "failed" ? answer.toast : undefined);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const active = loaderData.active.length > 0;
  useRefreshWhile(active);
  const restoring = loaderData.restoreTarget ?? answer?.values.sauvegarde ?? null;

  if (restoring && (loaderData.restoreTarget || answer?.values.intent === "restore")) {
    return <RestoreConfirmation name={restoring} answer={answer} busy={busy} />;
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
            <dd>{loaderData.destination}.</dd>
            <dt className="font-semibold">Chiffrement</dt>
            <dd>
              {loaderData.encrypted
                ? "Oui : les nouvelles sauvegardes sont chiffrées ; sans leur clé (BACKUP_KEY), personne ne peut les lire. Gardez cette clé hors du serveur."
                : "Non : demandez à la personne qui héberge le site de définir une clé (BACKUP_KEY) pour les chiffrer."}
            </dd>
          </dl>
        </div>
      </AdminSection>

      {active ? <UnderWay runs={loaderData.active} /> : null}

      {loaderData.lastRestore &&
      loaderData.lastRestore.status !== "queued" &&
      loaderData.lastRestore.status !== "running" ? (
        <AdminSection id="derniere-restauration" title="Dernière restauration">
          <RunReport run={loaderData.lastRestore} />
        </AdminSection>
      ) : null}

      <BackupList loaderData={loaderData} busy={busy} />
    </div>
  );
}

function UnderWay({ runs }: { runs: LoaderData["active"] }) {
  return (
    <AdminSection id="en-cours" title="En cours">
      {/* Without JavaScript the page reloads itself while work is under way. */}
      <noscript>
        <meta httpEquiv="refresh" content="3" />
      </noscript>
      <div className="space-y-4" aria-live="polite">
        {runs.map((run) => (
          <RunProgress key={run.id} run={run} />
        ))}
        <Link
          to="/admin/sauvegardes"
          className="inline-flex h-9 items-center gap-2 rounded-full border border-current px-4 text-sm font-semibold hover:bg-black/5"
        >
          <RefreshCw aria-hidden="true" className="size-4" />
          Actualiser
        </Link>
      </div>
    </AdminSection>
  );
}

function BackupList({ loaderData, busy }: { loaderData: LoaderData; busy: boolean }) {
  const { backups, listError } = loaderData;
  return (
    <AdminSection id="liste-sauvegardes" title="Sauvegardes disponibles">
      {listError ? (
        <p role="alert" className="text-sm text-red-900">
          {listError}
        </p>
      ) : backups.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Aucune sauvegarde pour l'instant : la première sera faite cette nuit, ou tout de suite
          avec « Sauvegarder maintenant ».
        </p>
      ) : (
        <AdminTable
          columns={[
            { label: "Date" },
            { label: "Taille", numeric: true },
            { label: "Vérification" },
            { label: "Actions" },
          ]}
        >
          {backups.map((backup) => {
            const date = backupDate(backup.createdAt);
            const checking =
              backup.check?.status === "queued" || backup.check?.status === "running";
            return (
              <tr key={backup.name} className="border-b border-border align-top last:border-0">
                <th scope="row" className={cellClass(false, "text-left font-semibold")}>
                  {date}
                  {backup.encrypted ? (
                    <span className="ml-2">
                      <StatusBadge tone="info">chiffrée</StatusBadge>
                    </span>
                  ) : null}
                </th>
                <td className={cellClass(true, "whitespace-nowrap tabular-nums")}>
                  {formatSizeFr(backup.size)}
                </td>
                <td className={cellClass()}>
                  {checking ? (
                    <p className="text-sm">Vérification en cours…</p>
                  ) : backup.check ? (
                    <RunReport run={backup.check} />
                  ) : (
                    <p className="text-sm text-muted-foreground">Pas encore vérifiée</p>
                  )}
                </td>
                <td className={cellClass()}>
                  <div className="flex flex-wrap gap-2">
                    <a
                      href={backup.downloadUrl}
                      download={backup.name}
                      className="inline-flex h-9 items-center gap-2 rounded-full border border-current px-4 text-sm font-semibold hover:bg-black/5"
                    >
                      <Download aria-hidden="true" className="size-4" />
                      Télécharger<span className="sr-only"> la sauvegarde du {date}</span>
                    </a>
                    <Form method="post">
                      <input type="hidden" name="sauvegarde" value={backup.name} />
                      <Button
                        type="submit"
                        name="intent"
                        value="check"
                        variant="outline"
                        size="sm"
                        disabled={busy || checking}
                      >
                        <ShieldCheck aria-hidden="true" />
                        Vérifier cette sauvegarde
                        <span className="sr-only"> du {date}</span>
                      </Button>
                    </Form>
                    <Link
                      to={`/admin/sauvegardes?${RESTORE_PARAM}=${encodeURIComponent(backup.name)}`}
                      className="inline-flex h-9 items-center gap-2 rounded-full px-4 text-sm font-semibold text-destructive hover:bg-red-50"
                    >
                      <RotateCcw aria-hidden="true" className="size-4" />
                      Restaurer<span className="sr-only"> la sauvegarde du {date}</span>
                    </Link>
                  </div>
                </td>
              </tr>
            );
          })}
        </AdminTable>
      )}
    </AdminSection>
  );
}

function RestoreConfirmation({
  name,
  answer,
  busy,
}: {
  name: string;
  answer: FormAnswer | undefined;
  busy: boolean;
}) {
  const date = backupDateOfFile(name) ?? name;
  return (
    <div className="space-y-6">
      <AdminPageHeader title={`Restaurer la sauvegarde du ${date}`} />
      <section
        aria-labelledby="restauration-titre"
        className="space-y-4 rounded-xl border border-red-300 bg-white p-6"
      >
        <h2 id="restauration-titre" className="font-sans text-lg font-semibold">
          Ce que fait une restauration
        </h2>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>
            Le site redevient exactement tel qu'il était le {date} : textes, tarifs, photos,
            galeries, abonnés, réservations et comptes. Ce qui a été ajouté ou modifié depuis
            disparaît du site.
          </li>
          <li>
            Avant de commencer, une sauvegarde de sécurité du site tel qu'il est maintenant est
            faite : vous pourrez y revenir.
          </li>
          <li>
            La sauvegarde est d'abord vérifiée entière : si elle est abîmée, rien n'est changé.
          </li>
          <li>Cela prend quelques minutes ; il faudra peut-être vous reconnecter ensuite.</li>
        </ul>
        <Form method="post" noValidate className="space-y-4">
          <FormAlert message={answer?.status === "invalid" ? answer.toast : undefined} />
          <input type="hidden" name="sauvegarde" value={name} />
          <Field
            name="confirmation"
            label={`Pour confirmer, tapez ${RESTORE_WORD}`}
            error={answer?.errors?.confirmation}
          >
            {(props) => (
              <Input
                {...props}
                name="confirmation"
                autoComplete="off"
                spellCheck={false}
                defaultValue=""
              />
            )}
          </Field>
          <div className="flex flex-wrap items-center gap-3">
            <Button
              type="submit"
              name="intent"
              value="restore"
              variant="destructive"
              disabled={busy}
            >
              <RotateCcw aria-hidden="true" />
              Restaurer cette sauvegarde
            </Button>
            <Link to="/admin/sauvegardes" className="text-sm underline underline-offset-4">
              Annuler
            </Link>
          </div>
        </Form>
      </section>
    </div>
  );
}
