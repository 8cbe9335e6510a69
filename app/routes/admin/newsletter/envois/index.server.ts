import type { Route } from "./+types/index";
import { formatLongDateTimeFr } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { getArticleForAdmin } from "~/server/blog/admin-articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { mailConfig } from "~/server/mail/transport.server";
import {
  sendingProblems,
  sendingsProgress,
  type SendingProgress,
} from "~/server/newsletter/sending.server";
import { redirectWithToast } from "~/server/toast.server";

/** Where a sending stands, as its page shows it and its `/progression` address answers (JSON). */
export type ProgressView = Pick<
  SendingProgress,
  "status" | "total" | "sent" | "failed" | "skipped" | "pending"
> & {
  /** Deliveries settled (sent, failed or skipped): what the bar shows. */
  processed: number;
  /** Whole percent, rounded down: 100 only once nothing is pending. */
  percent: number;
  startedOn: string;
  finishedOn: string | null;
};

export function progressView(progress: SendingProgress): ProgressView {
  const processed = progress.sent + progress.failed + progress.skipped;
  return {
    status: progress.status,
    total: progress.total,
    sent: progress.sent,
    failed: progress.failed,
    skipped: progress.skipped,
    pending: progress.pending,
    processed,
    percent: progress.total > 0 ? Math.floor((processed * 100) / progress.total) : 100,
    startedOn: formatLongDateTimeFr(progress.createdAt),
    finishedOn: progress.finishedAt ? formatLongDateTimeFr(progress.finishedAt) : null,
  };
}

/** The sending `id` (a UUID) with its counts, or null when there is none. */
export async function findSendingProgress(id: string): Promise<SendingProgress | null> {
  const [progress] = await sendingsProgress({ id, limit: 1 });
  return progress ?? null;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const progress = isUuid(params.id) ? await findSendingProgress(params.id) : null;
  if (!progress) {
    throw await redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Envoi introuvable",
    });
  }
  const [article, problems] = await Promise.all([
    progress.articleId ? getArticleForAdmin(progress.articleId) : null,
    sendingProblems(progress.id),
  ]);
  return {
    id: progress.id,
    subject: progress.subject,
    article: article ? { id: article.id, slug: article.slug, published: article.published } : null,
    progress: progressView(progress),
    failures: problems.failed.map((delivery) => ({
      id: delivery.id,
      email: delivery.email,
      error: delivery.error ?? "Échec de l'envoi",
    })),
    retryingError: problems.retryingError,
    mailConfigured: mailConfig() !== null,
  };
}
