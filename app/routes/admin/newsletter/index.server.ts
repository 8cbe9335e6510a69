import type { Route } from "./+types/index";
import { requireAdmin } from "~/server/admin/guard.server";
import { mailSettings, waitingMail } from "~/server/newsletter/overview.server";
import { subscriberCounts } from "~/server/newsletter/subscribers.server";
import { log } from "~/server/logger.server";
import { latestMailFailures } from "~/server/mail/failures.server";
import { sendingsProgress } from "~/server/newsletter/sending.server";

/** How many sendings and errors the page lists (the sendings' own pages have the rest). */
const LATEST_SENDINGS = 10;
const LATEST_FAILURES = 20;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const settings = await mailSettings();
  try {
    const [waiting, counts, sendings, failures] = await Promise.all([
      waitingMail(),
      subscriberCounts(),
      sendingsProgress({ limit: LATEST_SENDINGS }),
      latestMailFailures(LATEST_FAILURES),
    ]);
    return { settings, waiting, counts, sendings, failures, loadError: null };
  } catch (error) {
    log.error("admin_newsletter_load_failed", { error });
    return {
      settings,
      waiting: null,
      counts: null,
      sendings: [],
      failures: [],
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les abonnés et les envois",
      },
    };
  }
}
