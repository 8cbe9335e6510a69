import { Readable } from "node:stream";
import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/index";
import { isCutOff } from "~/server/backup/service.server";
import {
  backupHealth,
  type BackupSettings,
  backupSettings,
  destinationOf,
  listBackups,
  readBackup,
  recentRuns,
  requestBackup,
  requestCheck,
  requestRestore,
} from "~/server/backup/service.server";
import type { RunView } from "~/components/backups/run-views";
import { RESTORE_PARAM, RESTORE_WORD } from "~/lib/backups";
import { type FormAnswer, parseForm } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { erasedSince } from "~/server/backup/since-backup.server";
import { monthlyLinkSetting, setMonthlyLink } from "~/server/backup/monthly-link.server";
import { log } from "~/server/logger.server";
import { mailConfig } from "~/server/mail/transport.server";
import { signLinkToken, verifyLinkToken } from "~/server/signed-link.server";
import { redirectWithToast } from "~/server/toast.server";

/*
 * What /admin/sauvegardes shows and does, and the signed download links of its backups (decision
 * 0118). A link is for one administrator and ten minutes: copied into a chat or left in a history
 * it is soon useless, and the administrator's session is asked for as well.
 */

const DOWNLOAD_LIFETIME_SECONDS = 10 * 60;

/** The signed address of one backup's download, for this administrator. */
export async function downloadLink(adminId: string, name: string): Promise<string> {
  const token = await signLinkToken("backup-download", `${adminId}/${name}`, {
    lifetimeSeconds: DOWNLOAD_LIFETIME_SECONDS,
  });
  return `/admin/sauvegardes/telecharger/${encodeURIComponent(name)}?jeton=${token}`;
}

/** Whether a download link is this administrator's for this backup, and still valid. */
export async function checkDownloadLink(
  adminId: string,
  name: string,
  token: string | null,
): Promise<"ok" | "invalid" | "expired"> {
  const check = await verifyLinkToken("backup-download", token);
  if (!check.ok) return check.reason;
  return check.subject === `${adminId}/${name}` ? "ok" : "invalid";
}

type RunRow = Awaited<ReturnType<typeof recentRuns>>[number];

export function runView(run: RunRow, now = new Date()): RunView {
  const cutOff = isCutOff(run, now);
  return {
    id: run.id,
    kind: run.kind,
    reason: run.reason,
    origin: run.origin,
    requestedBy: run.requestedBy,
    status: cutOff ? "failed" : run.status,
    file: run.file,
    progress: run.progress,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    error: cutOff ? (run.error ?? "interrompue (le serveur s'est arrêté)") : run.error,
    report: run.report,
  };
}

/** Where the backups go, in the owner's words, without a secret. */
function destinationWords(settings: BackupSettings): string {
  const where = destinationOf(settings).description;
  if (where.kind === "local") return `sur ce serveur, dans le dossier ${where.directory}`;
  const host = where.endpoint ? ` chez ${new URL(where.endpoint).host}` : " (Amazon S3)";
  return `dans l'espace S3 « ${where.bucket}${where.prefix ? `/${where.prefix.replace(/\/+$/, "")}` : ""} »${host}, hors de ce serveur`;
}

/** Everything the page shows: health, schedule, destination, the backups and the work under way. */
export async function backupsPage(adminId: string, settings: BackupSettings = backupSettings()) {
  const now = new Date();
  const [health, runs] = await Promise.all([backupHealth(now), recentRuns(100)]);
  const views = runs.map((run) => runView(run, now));
  let listError: string | null = null;
  let files: Awaited<ReturnType<typeof listBackups>> = [];
  try {
    files = await listBackups(settings);
  } catch (error) {
    log.error("backup_list_failed", { error });
    listError =
      settings.s3 !== undefined
        ? "L'espace S3 des sauvegardes n'a pas répondu à temps : la liste des sauvegardes n'a pas pu être lue. Réessayez dans un instant ; si cela dure, prévenez la personne qui héberge le site."
        : "Le dossier des sauvegardes n'a pas pu être lu.";
  }
  const backups = await Promise.all(
    files.map(async (file) => ({
      name: file.name,
      size: file.size,
      createdAt: file.createdAt.toISOString(),
      encrypted: file.encrypted,
      downloadUrl: await downloadLink(adminId, file.name),
      check: views.find((run) => run.kind === "check" && run.file === file.name) ?? null,
      made: views.find((run) => run.kind === "backup" && run.file === file.name) ?? null,
    })),
  );
  return {
    health: {
      state: health.state,
      lastSuccess: health.lastSuccess
        ? {
            at: health.lastSuccess.at.toISOString(),
            file: health.lastSuccess.file,
            bytes: health.lastSuccess.bytes,
          }
        : null,
      lastFailure: health.lastFailure
        ? { ...health.lastFailure, at: health.lastFailure.at.toISOString() }
        : null,
    },
    hour: settings.hour,
    destination: destinationWords(settings),
    offServer: settings.s3 !== undefined,
    retention: settings.retention,
    encrypted: settings.key !== undefined,
    backups,
    listError,
    active: views.filter((run) => run.status === "queued" || run.status === "running"),
    lastRestore: views.find((run) => run.kind === "restore") ?? null,
  };
}

/** A backup's archive streamed from its destination, or a short French page when it cannot be. */
export async function backupDownload(
  request: Request,
  name: string,
  by: string,
): Promise<Response> {
  let found: Awaited<ReturnType<typeof readBackup>>;
  try {
    found = await readBackup(name);
  } catch (error) {
    log.error("backup_download_failed", { error, name });
    return downloadRefusal(
      503,
      "La sauvegarde n'a pas pu être lue",
      "L'endroit où sont gardées les sauvegardes ne répond pas. Réessayez dans un instant.",
    );
  }
  if (!found) {
    return downloadRefusal(
      404,
      "Cette sauvegarde n'existe plus",
      "Elle a été supprimée depuis (les plus anciennes le sont chaque nuit).",
    );
  }
  const body = found.body;
  request.signal.addEventListener("abort", () => body.destroy(), { once: true });
  log.info("backup_downloaded", { name, by });
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/x-tar",
      "Content-Length": String(found.size),
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A short French page: why the download is refused, and the way back. */
export function downloadRefusal(
  status: number,
  title: string,
  text: string,
  back = { href: "/admin/sauvegardes", label: "Retour aux sauvegardes" },
): Response {
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; line-height: 1.5">
<main>
<h1>${title}</h1>
<p>${text}</p>
<p><a href="${back.href}">${back.label}</a></p>
</main>
</body>
</html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

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
