import type { Route } from "./+types/derniere";
import { getAdmin, hasSession } from "~/server/admin/guard.server";
import { withReturnPath } from "~/server/admin/return-path.server";
import { checkMonthlyLink, latestBackup } from "~/server/backup/monthly-link.server";
import { log } from "~/server/logger.server";
import { backupDownload, downloadRefusal } from "./index.server";

/**
 * The latest backup from the link e-mailed each month (decision 0139): the administrator's session AND a
 * link signed for her, valid 7 days. Signed out, she is asked to sign in (the sign-in comes back here), and
 * nothing says whether the link is valid: a leaked e-mail alone opens nothing and tells nothing.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await getAdmin(request);
  if (!admin && (await hasSession(request))) {
    return downloadRefusal(
      403,
      "Accès réservé aux administrateurs",
      "Ce compte n'est pas celui d'un administrateur du site.",
      { href: "/", label: "Retour au site" },
    );
  }
  if (!admin) {
    const url = new URL(request.url);
    // The sign-in comes back here (the token is checked then, with her session).
    const signIn = withReturnPath("/admin/login", `${url.pathname}${url.search}`);
    return downloadRefusal(
      401,
      "Connectez-vous pour télécharger la sauvegarde",
      "Pour votre sécurité, la sauvegarde ne se télécharge qu'une fois connectée à l'administration du site. Une fois connectée, le téléchargement commence.",
      { href: signIn.replaceAll("&", "&amp;"), label: "Se connecter" },
    );
  }
  const check = await checkMonthlyLink(admin.id, new URL(request.url).searchParams.get("jeton"));
  if (check === "expired") {
    return downloadRefusal(
      410,
      "Ce lien de téléchargement a expiré",
      "Pour votre sécurité, le lien de l'e-mail mensuel ne sert que 7 jours. La page des sauvegardes a un lien « Télécharger » pour chacune.",
    );
  }
  if (check !== "ok") {
    return downloadRefusal(
      403,
      "Ce lien de téléchargement n'est pas valable",
      "Il a été modifié, ou il a été envoyé à un autre administrateur. La page des sauvegardes a un lien « Télécharger » pour chacune.",
    );
  }
  let latest: Awaited<ReturnType<typeof latestBackup>>;
  try {
    latest = await latestBackup();
  } catch (error) {
    log.error("backup_list_failed", { error });
    return downloadRefusal(
      503,
      "La sauvegarde n'a pas pu être lue",
      "L'endroit où sont gardées les sauvegardes ne répond pas. Réessayez dans un instant.",
    );
  }
  if (!latest) {
    return downloadRefusal(
      404,
      "Aucune sauvegarde à télécharger",
      "Il n'y a pas encore de sauvegarde. La page des sauvegardes permet d'en faire une tout de suite.",
    );
  }
  return backupDownload(request, latest.name, admin.email);
}
