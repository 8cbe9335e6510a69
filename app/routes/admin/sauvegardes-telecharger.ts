import { Readable } from "node:stream";
import type { Route } from "./+types/sauvegardes-telecharger";
import { requireAdmin } from "~/server/admin/guard.server";
import { readBackup } from "~/server/backup/service.server";
import { log } from "~/server/logger.server";
import { checkDownloadLink } from "./sauvegardes.server";

/**
 * A backup's download (decision 0118): the administrator's session AND a link signed for her, valid ten
 * minutes. The archive is streamed from its destination (the server's folder or S3), never held in memory.
 * A link altered, another administrator's or too old answers a short French page (403, 410), never a 5xx.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const name = params.name;
  const token = new URL(request.url).searchParams.get("jeton");
  const check = await checkDownloadLink(admin.id, name, token);
  if (check === "expired") {
    return refusal(
      410,
      "Ce lien de téléchargement a expiré",
      "Pour votre sécurité, un lien de téléchargement ne sert que 10 minutes. Retournez à la page des sauvegardes : chaque sauvegarde y a un nouveau lien.",
    );
  }
  if (check !== "ok") {
    return refusal(
      403,
      "Ce lien de téléchargement n'est pas valable",
      "Il a été modifié, ou il a été fait pour un autre administrateur. Retournez à la page des sauvegardes et utilisez le lien « Télécharger » de la sauvegarde voulue.",
    );
  }
  let found: Awaited<ReturnType<typeof readBackup>>;
  try {
    found = await readBackup(name);
  } catch (error) {
    log.error("backup_download_failed", { error, name });
    return refusal(
      503,
      "La sauvegarde n'a pas pu être lue",
      "L'endroit où sont gardées les sauvegardes ne répond pas. Réessayez dans un instant.",
    );
  }
  if (!found) {
    return refusal(
      404,
      "Cette sauvegarde n'existe plus",
      "Elle a été supprimée depuis (les plus anciennes le sont chaque nuit).",
    );
  }
  const body = found.body;
  request.signal.addEventListener("abort", () => body.destroy(), { once: true });
  log.info("backup_downloaded", { name, by: admin.email });
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
function refusal(status: number, title: string, text: string): Response {
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; line-height: 1.5">
<main>
<h1>${title}</h1>
<p>${text}</p>
<p><a href="/admin/sauvegardes">Retour aux sauvegardes</a></p>
</main>
</body>
</html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
