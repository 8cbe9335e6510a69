import type { Route } from "./+types/dashboard";
import { salesOfDay } from "~/server/payments/admin-orders.server";
import { vouchersToDeliver } from "~/server/vouchers/queries.server";
import type { BackupStatusData } from "~/components/backups/backup-status";
import { parseIntent } from "~/lib/forms";
import {
  ARTICLE_LIST_ORDER,
  ARTICLE_STATE_FILTERS,
  articleCounts,
  countArticles,
  deleteArticle,
  listArticlesForAdmin,
  setArticlePublished,
  type ArticleStateFilter,
} from "~/server/blog/admin-articles.server";
import { listPath, pagePosition, searchParam } from "~/server/db/keyset.server";
import { sendingNotice } from "~/server/blog/article-form.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { backupHealth } from "~/server/backup/service.server";
import { dashboardBookings } from "~/server/booking/agenda.server";
import { goLiveChecklist } from "~/server/content/go-live.server";
import { bookingFacts } from "~/server/content/go-live-booking.server";
import { recentSelections } from "~/server/galleries/galleries.server";
import { siteContent } from "~/server/content/site-content.server";
import { refusedIntent } from "~/server/forms.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

const PAGE = "/admin/dashboard";

function stateFilter(value: string | null): ArticleStateFilter | null {
  return value !== null && Object.hasOwn(ARTICLE_STATE_FILTERS, value)
    ? (value as ArticleStateFilter)
    : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filters = { search: searchParam(params), state: stateFilter(params.get("statut")) };
  // Every panel's queries at once, not one panel after another (decision 0136).
  const [content, booking, bookings, backups, selections, articles, sales] = await Promise.all([
    siteContent(context),
    bookingFacts(),
    dashboardBookings(),
    backupStatus(),
    receivedSelections(),
    articlesPage(filters, params),
    todaysSales(),
  ]);
  return {
    ...articles,
    filters,
    checklist: goLiveChecklist(content, booking),
    bookings,
    backups,
    selections,
    sales,
  };
}

/** Today's sales and the gift vouchers leaving today at 9:00, each linking to its page. */
async function todaysSales() {
  const [paid, toDeliver] = await Promise.all([salesOfDay(), vouchersToDeliver()]);
  return {
    count: paid.count,
    totalCents: paid.totalCents,
    toDeliver: toDeliver.map((voucher) => ({
      id: voucher.id,
      orderId: voucher.orderId,
      code: voucher.code,
      label: voucher.label,
      recipientName: voucher.recipientName,
    })),
  };
}

/** One page of articles and counts by the database, never every article (decision 0130). */
async function articlesPage(
  filters: { search: string; state: ArticleStateFilter | null },
  params: URLSearchParams,
) {
  const filtered = filters.search !== "" || filters.state !== null;
  try {
    const [page, counts, matching] = await Promise.all([
      listArticlesForAdmin(filters, pagePosition(ARTICLE_LIST_ORDER, params)),
      articleCounts(),
      filtered ? countArticles(filters) : null,
    ]);
    return { ...page, counts, matching, loadError: null };
  } catch (error) {
    log.error("admin_articles_load_failed", { error });
    return {
      rows: [],
      previous: null,
      next: null,
      counts: { total: 0, published: 0 },
      matching: null,
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les articles",
      },
    };
  }
}

/** The selections clients sent lately (decision 0134; a failure to read them is not the dashboard's). */
async function receivedSelections() {
  try {
    return (await recentSelections()).map((selection) => ({
      ...selection,
      validatedAt: (selection.validatedAt ?? new Date()).toISOString(),
    }));
  } catch (error) {
    log.error("dashboard_selections_failed", { error });
    return [];
  }
}

/** The backups' health as the dashboard shows it (a failure to read it is not the dashboard's). */
async function backupStatus(): Promise<BackupStatusData> {
  try {
    const health = await backupHealth();
    return {
      state: health.state,
      lastSuccess: health.lastSuccess
        ? { at: health.lastSuccess.at.toISOString(), bytes: health.lastSuccess.bytes }
        : null,
      lastFailure: health.lastFailure
        ? { ...health.lastFailure, at: health.lastFailure.at.toISOString() }
        : null,
    };
  } catch (error) {
    log.error("backup_health_failed", { error });
    return { state: "failed", lastSuccess: null, lastFailure: null };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const parsed = parseIntent(await request.formData(), ["delete", "publish", "unpublish"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Article inconnu");
  const { intent, id } = parsed;
  // Back to the list as it was: its search, filter and page.
  const back = listPath(PAGE, new URL(request.url).searchParams, ["q", "statut", "apres", "avant"]);

  if (intent === "delete") {
    try {
      if (!(await deleteArticle(id))) throw new Error("not found");
      return redirectWithToast(back, { type: "success", title: "Article supprimé" });
    } catch (error) {
      log.error("admin_article_delete_failed", { error });
      return redirectWithToast(back, {
        type: "error",
        title: "Erreur",
        description: "Impossible de supprimer l'article",
      });
    }
  }
  const published = intent === "publish";
  try {
    const outcome = await setArticlePublished(id, published, { by: admin.id });
    if (!outcome) throw new Error("not found");
    return redirectWithToast(back, {
      type: "success",
      title: published ? "Article publié" : "Article dépublié",
      description: sendingNotice(outcome.sending),
    });
  } catch (error) {
    log.error("admin_article_publish_failed", { error });
    return redirectWithToast(back, {
      type: "error",
      title: "Erreur",
      description: "Impossible de modifier le statut de publication",
    });
  }
}
