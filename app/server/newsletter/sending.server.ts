import type { JobWithMetadata } from "pg-boss";
import { fromDrizzle } from "pg-boss";
import { and, count, desc, eq, isNotNull, ne, sql } from "drizzle-orm";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import {
  blogArticles,
  blogNewsletterSubscribers,
  newsletterDeliveries,
  newsletterSendings,
} from "../db/schema";
import { env } from "../env.server";
import {
  defineJob,
  jobQueue,
  queueStopping,
  RETRIES_FOR_A_DAY,
  type Executor,
} from "../jobs/queue.server";
import { log } from "../logger.server";
import { recordMailFailure } from "../mail/failures.server";
import { defineMailKind } from "../mail/outbox.server";
import {
  deliver,
  mailFailure,
  type MailConfig,
  messageIdDomain,
  defaultSender,
} from "../mail/transport.server";
import {
  personalise,
  renderNewsletter,
  type NewsletterContent,
  type NewsletterMode,
} from "./email.server";
import { SAMPLE_SUBSCRIBER, unsubscribeUrl } from "./links.server";

/*
 * Sending an article to the active subscribers (decision record 0080). Creating a sending is one
 * transaction: the sending (one per article: never twice), one delivery row per active subscriber at that
 * moment, and one job per batch of deliveries. A batch's job sends each delivery still 'pending' and marks it
 * 'sent' as soon as the mail server has accepted it, so a job run again (after a crash or an SMTP failure)
 * sends only what was not accepted yet.
 */

export type NewsletterBatchJob = { sendingId: string; batch: number };

/** Deliveries per job: about 15 s of sending at the configured pace, between 20 and 200. */
export function batchSize(ratePerMinute = env().MAIL_RATE_PER_MINUTE): number {
  return Math.max(20, Math.min(200, Math.floor(ratePerMinute / 4)));
}

export type CreateSendingOutcome =
  | { kind: "created"; sendingId: string; total: number }
  | { kind: "already-sent"; sendingId: string }
  | { kind: "not-published" }
  | { kind: "not-found" }
  | { kind: "no-subscribers" };

/**
 * Sends article `articleId` (published) to every active subscriber, once. Inside `tx` when given (the
 * scheduled publication publishes and sends in one transaction).
 */
export async function createSending(
  {
    articleId,
    createdBy,
    mode = "excerpt",
  }: { articleId: string; createdBy: string | null; mode?: NewsletterMode },
  tx?: Executor,
): Promise<CreateSendingOutcome> {
  const run = async (executor: Executor): Promise<CreateSendingOutcome> => {
    // The article's row is locked: two clicks, or the owner and the scheduler, wait for each other here.
    const [article] = await executor
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.id, articleId))
      .for("update");
    if (!article) return { kind: "not-found" };
    const [existing] = await executor
      .select({ id: newsletterSendings.id })
      .from(newsletterSendings)
      .where(eq(newsletterSendings.articleId, articleId));
    if (existing) return { kind: "already-sent", sendingId: existing.id };
    if (!article.published) return { kind: "not-published" };

    const { identity } = (await readSiteContent()).documents;
    const content = renderNewsletter(article, identity, { siteUrl: env().SITE_URL, mode });
    const [sending] = await executor
      .insert(newsletterSendings)
      .values({ articleId, createdBy, ...content })
      .returning({ id: newsletterSendings.id });
    if (!sending) throw new Error("L'envoi n'a pas été enregistré.");
    const size = batchSize();
    const inserted = await executor.execute<{ batch: number; count: string }>(sql`
      with added as (
        insert into newsletter_deliveries (sending_id, subscriber_id, batch)
        select ${sending.id}, id, ((row_number() over (order by subscribed_at, id)) - 1) / ${size}
        from blog_newsletter_subscribers where status = 'active'
        returning batch
      )
      select batch, count(*) as count from added group by batch order by batch
    `);
    const total = inserted.rows.reduce((sum, row) => sum + Number(row.count), 0);
    if (total === 0) {
      // Nothing to send: no sending is kept, so the article can be sent once there are subscribers.
      await executor.delete(newsletterSendings).where(eq(newsletterSendings.id, sending.id));
      return { kind: "no-subscribers" };
    }
    await executor
      .update(newsletterSendings)
      .set({ total })
      .where(eq(newsletterSendings.id, sending.id));
    await jobQueue().insert(
      newsletterJob.name,
      inserted.rows.map((row) => ({ data: { sendingId: sending.id, batch: Number(row.batch) } })),
      { db: fromDrizzle(executor, sql) },
    );
    log.info("newsletter_sending_created", { sendingId: sending.id, articleId, total });
    return { kind: "created", sendingId: sending.id, total };
  };
  return tx ? run(tx) : db().transaction((transaction) => run(transaction));
}

export type SendArticleOutcome = CreateSendingOutcome | { kind: "not-publishable" };

/** Carries the outcome out of a transaction that must not commit. */
class NotSent extends Error {
  readonly outcome: SendArticleOutcome;
  constructor(outcome: SendArticleOutcome) {
    super(outcome.kind);
    this.outcome = outcome;
  }
}

/**
 * The owner's « Envoyer » (`publish` false: the article must be published) or « Publier et envoyer »
 * (`publish` true): the draft is published and its sending created in one transaction, so that it is never
 * published without the newsletter asked for with it. A draft without excerpt or content cannot be published.
 */
export async function sendArticle({
  articleId,
  createdBy,
  mode,
  publish,
}: {
  articleId: string;
  createdBy: string | null;
  mode: NewsletterMode;
  publish: boolean;
}): Promise<SendArticleOutcome> {
  if (!publish) return createSending({ articleId, createdBy, mode });
  try {
    return await db().transaction(async (tx) => {
      await tx
        .update(blogArticles)
        .set({
          published: true,
          publishedAt: sql`coalesce(${blogArticles.publishedAt}, now())`,
          // Published now: a publication planned for later has nothing left to do.
          scheduledAt: null,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(blogArticles.id, articleId),
            eq(blogArticles.published, false),
            ne(blogArticles.excerpt, ""),
            ne(blogArticles.content, ""),
          ),
        );
      const outcome = await createSending({ articleId, createdBy, mode }, tx);
      if (outcome.kind === "created") return outcome;
      throw new NotSent(outcome.kind === "not-published" ? { kind: "not-publishable" } : outcome);
    });
  } catch (error) {
    if (error instanceof NotSent) return error.outcome;
    throw error;
  }
}

/** How many subscribers a sending created now would go to. */
export async function activeSubscriberCount(): Promise<number> {
  const [row] = await db()
    .select({ count: count() })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.status, "active"));
  return row?.count ?? 0;
}

/** The sending of an article (there is at most one), or null when it was never sent. */
export async function sendingOfArticle(articleId: string) {
  const [sending] = await db()
    .select({
      id: newsletterSendings.id,
      status: newsletterSendings.status,
      total: newsletterSendings.total,
      createdAt: newsletterSendings.createdAt,
      finishedAt: newsletterSendings.finishedAt,
    })
    .from(newsletterSendings)
    .where(eq(newsletterSendings.articleId, articleId));
  return sending ?? null;
}

/**
 * Article `articleId` as its newsletter will look, addressed to nobody (the sample unsubscribe link): the
 * admin's preview and the owner's test e-mail. A draft is dated today, as it would be if published now.
 * Null for an unknown article.
 */
export async function newsletterSample(
  articleId: string,
  mode: NewsletterMode,
): Promise<{ content: NewsletterContent; unsubscribeUrl: string } | null> {
  const [article] = await db().select().from(blogArticles).where(eq(blogArticles.id, articleId));
  if (!article) return null;
  const { identity } = (await readSiteContent()).documents;
  const rendered = renderNewsletter(
    { ...article, publishedAt: article.publishedAt ?? new Date() },
    identity,
    { siteUrl: env().SITE_URL, mode },
  );
  const link = await unsubscribeUrl(SAMPLE_SUBSCRIBER);
  return { content: personalise(rendered, link), unsubscribeUrl: link };
}

/** An article's newsletter as subscribers will get it, to an administrator first (« [Test] »). */
export const enqueueNewsletterTest = defineMailKind<{
  articleId: string;
  mode: NewsletterMode;
  to: string;
}>("newsletter-test", {
  failureKind: "newsletter",
  // Written when it leaves, like the real one: the article as it is then. Deleted meanwhile: nothing.
  async compose({ articleId, mode, to }) {
    const sample = await newsletterSample(articleId, mode);
    if (!sample) return null;
    return {
      to,
      ...sample.content,
      subject: `[Test] ${sample.content.subject}`,
      headers: {
        "List-Unsubscribe": `<${sample.unsubscribeUrl}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    };
  },
});

export type SendingProgress = {
  id: string;
  articleId: string | null;
  subject: string;
  status: "sending" | "done";
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  pending: number;
  createdAt: Date;
  finishedAt: Date | null;
};

/** Where sendings stand (newest first), with their counts; one sending when `id` is given. */
export async function sendingsProgress({ id, limit = 50 }: { id?: string; limit?: number } = {}) {
  const rows = await db().execute<{
    id: string;
    article_id: string | null;
    subject: string;
    status: "sending" | "done";
    total: number;
    sent: string;
    failed: string;
    skipped: string;
    pending: string;
    created_at: Date | string;
    finished_at: Date | string | null;
  }>(sql`
    select s.id, s.article_id, s.subject, s.status, s.total, s.created_at, s.finished_at,
      count(*) filter (where d.status = 'sent') as sent,
      count(*) filter (where d.status = 'failed') as failed,
      count(*) filter (where d.status = 'skipped') as skipped,
      count(*) filter (where d.status = 'pending') as pending
    from newsletter_sendings s left join newsletter_deliveries d on d.sending_id = s.id
    ${id ? sql`where s.id = ${id}` : sql``}
    group by s.id order by s.created_at desc limit ${limit}
  `);
  return rows.rows.map((row): SendingProgress => ({
    id: row.id,
    articleId: row.article_id,
    subject: row.subject,
    status: row.status,
    total: row.total,
    sent: Number(row.sent),
    failed: Number(row.failed),
    skipped: Number(row.skipped),
    pending: Number(row.pending),
    createdAt: new Date(row.created_at),
    finishedAt: row.finished_at ? new Date(row.finished_at) : null,
  }));
}

/**
 * What went wrong in a sending: the given-up deliveries (the first `limit`) with their French errors and
 * addresses (null when the subscriber was deleted since), and the error of a delivery still waiting for a
 * new attempt, if any (the mail server refusing for a while, or unreachable).
 */
export async function sendingProblems(sendingId: string, limit = 500) {
  const failed = await db()
    .select({
      id: newsletterDeliveries.id,
      email: blogNewsletterSubscribers.email,
      error: newsletterDeliveries.error,
    })
    .from(newsletterDeliveries)
    .leftJoin(
      blogNewsletterSubscribers,
      eq(blogNewsletterSubscribers.id, newsletterDeliveries.subscriberId),
    )
    .where(
      and(eq(newsletterDeliveries.sendingId, sendingId), eq(newsletterDeliveries.status, "failed")),
    )
    .orderBy(newsletterDeliveries.id)
    .limit(limit);
  const [retrying] = await db()
    .select({ error: newsletterDeliveries.error })
    .from(newsletterDeliveries)
    .where(
      and(
        eq(newsletterDeliveries.sendingId, sendingId),
        eq(newsletterDeliveries.status, "pending"),
        isNotNull(newsletterDeliveries.error),
      ),
    )
    .orderBy(desc(newsletterDeliveries.id))
    .limit(1);
  return { failed, retryingError: retrying?.error ?? null };
}

/** Marks the sending done once no delivery is pending. */
async function finishIfDone(sendingId: string): Promise<void> {
  const result = await db().execute(sql`
    update newsletter_sendings set status = 'done', finished_at = now()
    where id = ${sendingId} and status = 'sending'
      and not exists (select 1 from newsletter_deliveries where sending_id = ${sendingId} and status = 'pending')
  `);
  if (result.rowCount) log.info("newsletter_sending_done", { sendingId });
}

type PendingDelivery = { id: number; subscriber_id: string; email: string };

/** The worker of the queue `newsletter`, sending through `config`: one batch of one sending per job. */
export const newsletterJobHandler =
  (config: MailConfig) => async (jobs: JobWithMetadata<NewsletterBatchJob>[]) => {
    for (const job of jobs) {
      const { sendingId, batch } = job.data;
      const [sending] = await db()
        .select()
        .from(newsletterSendings)
        .where(eq(newsletterSendings.id, sendingId));
      if (!sending) continue;
      // Left (or deleted) since the sending started: not sent, the batch's all at once. The rest is to
      // send, addresses refused for a while last, so that they never hold the others back. One statement,
      // so one view of the subscribers: every pending delivery is either skipped or returned.
      const pending = await db().execute<PendingDelivery>(sql`
        with skipped as (
          update newsletter_deliveries d set status = 'skipped'
          where d.sending_id = ${sendingId} and d.batch = ${batch} and d.status = 'pending'
            and not exists (
              select 1 from blog_newsletter_subscribers s
              where s.id = d.subscriber_id and s.status = 'active'
            )
        )
        select d.id, d.subscriber_id, s.email
        from newsletter_deliveries d join blog_newsletter_subscribers s on s.id = d.subscriber_id
        where d.sending_id = ${sendingId} and d.batch = ${batch} and d.status = 'pending'
          and s.status = 'active'
        order by d.attempts, d.id
      `);
      const domain = messageIdDomain(config, config.from ?? (await defaultSender()));
      const lastAttempt = job.retryCount >= job.retryLimit;
      /** Gives up what is still pending in this batch (its last attempt has failed), and says so. */
      const giveUpBatch = async (reason: string) => {
        await db()
          .update(newsletterDeliveries)
          .set({ status: "failed", error: reason })
          .where(
            and(
              eq(newsletterDeliveries.sendingId, sendingId),
              eq(newsletterDeliveries.batch, batch),
              eq(newsletterDeliveries.status, "pending"),
            ),
          );
        await finishIfDone(sendingId);
      };
      // The first temporary refusal of a single recipient: the batch goes on, and is tried again after.
      let deferred: unknown = null;
      for (const delivery of pending.rows) {
        // Aborted when this process no longer holds the batch (a missed heartbeat handed it to another
        // process) or is stopping: going on could send an e-mail twice. The batch is run again later.
        job.signal.throwIfAborted();
        const link = await unsubscribeUrl(delivery.subscriber_id);
        const content = personalise(sending, link);
        try {
          await deliver(
            {
              to: delivery.email,
              ...content,
              headers: {
                "List-Unsubscribe": `<${link}>`,
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
              },
              // The same for every attempt of this delivery: a provider may drop a rare duplicate by it.
              messageId: `<newsletter-${sendingId}-${delivery.subscriber_id}@${domain}>`,
            },
            config,
          );
        } catch (error) {
          const failure = mailFailure(error);
          await db()
            .update(newsletterDeliveries)
            .set({
              attempts: sql`${newsletterDeliveries.attempts} + 1`,
              error: failure.message,
              ...(failure.permanent ? { status: "failed" as const } : {}),
            })
            .where(eq(newsletterDeliveries.id, delivery.id));
          await recordMailFailure({
            kind: "newsletter",
            recipient: delivery.email,
            error: failure.message,
            final: failure.permanent || lastAttempt,
          });
          if (failure.permanent) continue;
          if (failure.recipientOnly) {
            deferred ??= error;
            continue;
          }
          // The server refuses everything for now: the batch is tried again later, from where it stopped.
          if (lastAttempt) await giveUpBatch(failure.message);
          throw error;
        }
        await db()
          .update(newsletterDeliveries)
          .set({
            status: "sent",
            sentAt: new Date(),
            attempts: sql`${newsletterDeliveries.attempts} + 1`,
          })
          .where(eq(newsletterDeliveries.id, delivery.id));
      }
      if (deferred) {
        if (lastAttempt) await giveUpBatch(mailFailure(deferred).message);
        throw deferred;
      }
      await finishIfDone(sendingId);
    }
  };

/**
 * The queue `newsletter`: one batch of a newsletter's deliveries each. `singleton`: one batch at a time
 * across every process, so MAIL_RATE_PER_MINUTE is the site's pace, not each process's. One worker, only in
 * a process with SMTP_URL; batches whose retry time has come are looked for every 2 s.
 */
export const newsletterJob = defineJob<NewsletterBatchJob, { mail: MailConfig | null }>({
  name: "newsletter",
  policy: {
    ...RETRIES_FOR_A_DAY,
    policy: "singleton",
    notify: true,
    expireInSeconds: 2 * 60 * 60,
    heartbeatSeconds: 10,
    // A sending's batches wait a year while SMTP_URL is unset: a batch whose job was dropped would leave its
    // deliveries pending for ever, and its article could not be sent again.
    retentionSeconds: 366 * 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  workers: ({ mail }) => (mail ? 1 : 0),
  backlog: true,
  pollingIntervalSeconds: 2,
  handler: (jobs, { mail }) => {
    if (!mail) throw new Error("SMTP_URL n'est pas configuré.");
    // A batch ends at the next e-mail when the process stops (see queueStopping).
    const stopping = queueStopping();
    return newsletterJobHandler(mail)(
      jobs.map((job) => ({ ...job, signal: AbortSignal.any([job.signal, stopping]) })),
    );
  },
});
