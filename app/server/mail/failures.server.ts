import { and, desc, eq, gte, sql } from "drizzle-orm";
import { db, type Database } from "../db/client.server";
import { mailFailures } from "../db/schema";
import { log } from "../logger.server";

export type MailKind =
  "newsletter" | "confirmation" | "contact" | "admin" | "gallery" | "booking" | "payment";

/** How long failures are shown in the admin. */
export const MAIL_FAILURE_RETENTION_DAYS = 30;

/** Notes a failed attempt for the admin (and the log); never throws, so a worker's own error stays visible. */
export async function recordMailFailure(failure: {
  kind: MailKind;
  recipient: string | null;
  error: string;
  final: boolean;
  /** The outbox's job, when the e-mail is one: its order's history tells what became of it. */
  jobId?: string;
}): Promise<void> {
  // The log keeps what happened, not to whom: a mail server's answer often quotes the address.
  log.warn("mail_failed", {
    kind: failure.kind,
    error: failure.error.replace(/[^\s<>"'«»(),;]+@[^\s<>"'«»(),;]+/g, "<adresse>"),
    final: failure.final,
  });
  try {
    await db().insert(mailFailures).values(failure);
  } catch (error) {
    log.error("mail_failure_not_recorded", { error });
  }
}

/**
 * What the mail server said when the outbox's job `jobId` gave its e-mail up; null when it has not (the
 * outbox's retry of a job whose give-up step threw).
 */
export async function finalMailFailureOf(jobId: string): Promise<string | null> {
  const [row] = await db()
    .select({ error: mailFailures.error })
    .from(mailFailures)
    .where(and(eq(mailFailures.jobId, jobId), eq(mailFailures.final, true)))
    .orderBy(desc(mailFailures.at))
    .limit(1);
  return row?.error ?? null;
}

/** The most recent failures, newest first. */
export function latestMailFailures(limit = 20) {
  return db().select().from(mailFailures).orderBy(desc(mailFailures.at)).limit(limit);
}

/** Forgets failures older than the retention (in the nightly purge, boot/personal-data-purge.server). */
export async function purgeOldMailFailures(database: Database = db()): Promise<number> {
  const result = await database.execute(
    sql`delete from mail_failures where at < now() - make_interval(days => ${MAIL_FAILURE_RETENTION_DAYS})`,
  );
  return result.rowCount ?? 0;
}

/**
 * The last e-mail of `kind` given up for `email` (any case), with what the mail server said, since
 * `since` when given: what a page tells of an address the mail server refused (the accountant's, a gift
 * voucher's recipient's). Null when none in the failures kept (MAIL_FAILURE_RETENTION_DAYS).
 */
export async function lastMailRefusal(
  kind: MailKind,
  email: string,
  since?: Date,
): Promise<{ at: Date; error: string } | null> {
  if (email === "") return null;
  const [row] = await db()
    .select({ at: mailFailures.at, error: mailFailures.error })
    .from(mailFailures)
    .where(
      and(
        eq(mailFailures.kind, kind),
        eq(mailFailures.final, true),
        sql`lower(${mailFailures.recipient}) = lower(${email})`,
        since ? gte(mailFailures.at, since) : undefined,
      ),
    )
    .orderBy(desc(mailFailures.at))
    .limit(1);
  return row ?? null;
}
