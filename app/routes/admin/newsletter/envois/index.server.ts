import { formatLongDateTimeFr } from "~/lib/dates";
import { sendingsProgress, type SendingProgress } from "~/server/newsletter/sending.server";

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
