import { auth } from "../auth.server";
import { db } from "../db/client.server";
import { env } from "../env.server";
import { log } from "../logger.server";
import { upsertAccount } from "./administrators.server";
import { firstAdministratorLink } from "./first-administrator.server";
import { startRetentionJob } from "./retention.server";

/**
 * What the admin area needs once the database is migrated: the administrator of ADMIN_EMAIL/ADMIN_PASSWORD
 * (operating contract) and the daily purge of personal data past its retention period.
 */
export async function startAdminServices(): Promise<void> {
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
  startRetentionJob(db());
}
