import type { Route } from "./+types/index";
import { parseIntent } from "~/lib/forms";
import { stateFilter, subscriberStateFilters } from "~/lib/newsletter-admin";
import { requireAdmin } from "~/server/admin/guard.server";
import { listPath, pagePosition, searchParam } from "~/server/db/keyset.server";
import {
  activeEmailList,
  activeSubscribersToCopy,
  deleteSubscriber,
  SUBSCRIBER_LIST_ORDER,
  subscriberCounts,
  subscriberPage,
  unsubscribeSubscriber,
} from "~/server/newsletter/subscribers.server";
import { refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

/** What the list's address keeps when an action brings the owner back to it. */
const LIST_PARAMS = ["statut", "q", "apres", "avant"];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filter = stateFilter(params.get("statut"));
  const search = searchParam(params);
  try {
    // A page of the list, counts by the database, and the addresses to copy only when they are few
    // (decision 0130): never every subscriber in the page.
    const [list, counts, toCopy] = await Promise.all([
      subscriberPage(
        { state: filter ? subscriberStateFilters[filter] : null, search },
        pagePosition(SUBSCRIBER_LIST_ORDER, params),
      ),
      subscriberCounts(),
      activeSubscribersToCopy(),
    ]);
    return {
      ...list,
      matching: list.matching ?? counts.pending + counts.active + counts.unsubscribed,
      counts,
      filter,
      search,
      activeEmails: toCopy ? activeEmailList(toCopy) : null,
      loadError: null,
    };
  } catch (error) {
    log.error("admin_subscribers_load_failed", { error });
    return {
      rows: [],
      matching: 0,
      previous: null,
      next: null,
      counts: { pending: 0, active: 0, unsubscribed: 0 },
      filter,
      search,
      activeEmails: "",
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les abonnés",
      },
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = parseIntent(await request.formData(), ["unsubscribe", "delete"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Abonné inconnu");
  const { intent, id } = parsed;
  // Back to the list as it was: its filter, search and page (request.url may be the `.data` request's).
  const back = listPath("/admin/subscribers", new URL(request.url).searchParams, LIST_PARAMS);
  const gone = { type: "error", title: "Erreur", description: "Cet abonné n'existe plus" } as const;
  try {
    if (intent === "delete") {
      const deleted = await deleteSubscriber(id);
      if (!deleted) return redirectWithToast(back, gone);
      return redirectWithToast(back, {
        type: "success",
        title: "Abonné supprimé",
        description: `${deleted.email} et sa preuve de consentement sont effacés.`,
      });
    }
    const result = await unsubscribeSubscriber(id);
    if (result.outcome === "missing") return redirectWithToast(back, gone);
    return redirectWithToast(
      back,
      result.outcome === "unsubscribed"
        ? {
            type: "success",
            title: "Désabonnement enregistré",
            description: `${result.email} ne recevra plus la newsletter.`,
          }
        : {
            type: "info",
            title: "Déjà désabonné·e",
            description: `${result.email} ne recevait déjà plus la newsletter.`,
          },
    );
  } catch (error) {
    log.error("admin_subscriber_update_failed", { error, intent });
    return redirectWithToast(back, {
      type: "error",
      title: "Erreur",
      description:
        intent === "delete"
          ? "Impossible de supprimer l'abonné"
          : "Impossible de désabonner l'abonné",
    });
  }
}
