import { Readable } from "node:stream";
import { isCutOff } from "~/server/backup/service.server";
import {
  backupHealth,
  type BackupSettings,
  backupSettings,
  destinationOf,
  listBackups,
  readBackup,
  recentRuns,
} from "~/server/backup/service.server";
import type { RunView } from "~/components/backups/run-views";
import { log } from "~/server/logger.server";
import { signLinkToken, verifyLinkToken } from "~/server/signed-link.server";

/*
 * What /admin/sauvegardes shows and the signed download links of its backups (decision 0118). A link
 * is for one administrator and ten minutes: copied into a chat or left in a history it is soon useless,
 * and the administrator's session is asked for as well.
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
