import type { Route } from "./+types/telecharger";
import { requireAdmin } from "~/server/admin/guard.server";
import { backupDownload, checkDownloadLink, downloadRefusal as refusal } from "./index.server";

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
  return backupDownload(request, name, admin.email);
}
