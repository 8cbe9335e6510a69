import { auth } from "../auth/auth.server";
import { env } from "../env.server";
import { log } from "../logger.server";
import { upsertAccount } from "../admin/administrators.server";
import { firstAdministratorLink } from "../admin/first-administrator.server";

/**
 * What the admin area needs once the database is migrated: the administrator of ADMIN_EMAIL/ADMIN_PASSWORD
 * (operating contract), else on a new site the link that creates the first one.
 */
export async function ensureAdministrator(): Promise<void> {
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = env();
  if (ADMIN_EMAIL && ADMIN_PASSWORD) {
    const { created } = await upsertAccount(await auth(), {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    log.info("administrator_ensured", { created });
  }
  // A new site: one line with the link that creates its first administrator (at warn, so that it shows
  // whatever LOG_LEVEL says).
  const link = await firstAdministratorLink();
  if (link) {
    log.warn("first_administrator_link", {
      message:
        "Aucun administrateur : ouvrez ce lien pour créer le premier (valable 24 h, une seule fois).",
      url: link,
    });
  }
}
