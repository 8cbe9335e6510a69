import { sql } from "drizzle-orm";
import type { JobWithMetadata } from "pg-boss";
import { db } from "../db/client.server";
import { defineJob, enqueue, RETRIES_FOR_A_DAY, type Executor } from "../jobs/queue.server";
import { finalMailFailureOf, recordMailFailure, type MailKind } from "./failures.server";
import { deliver, mailFailure, type MailConfig, type OutgoingMail } from "./transport.server";

/*
 * Transactional e-mail through the queue `mail`: one job per e-mail. Jobs carry ids, not content: the
 * e-mail is written when it leaves, from the stored row (no copy of a visitor's message in the queue).
 * A job that fails is retried with back-off (mailJob's policy); a refused address is given up at once.
 *
 * The outbox knows no kind of e-mail: each feature defines its own (defineMailKind) in its module and
 * queues through it; boot/mail-kinds.server lists them all for the worker (decision 0150).
 */

/** What a job of the queue holds: the kind's name and the ids its e-mail is written from. */
export type MailJob = { kind: string };

export type MailKindDefinition<Data extends object> = {
  /** Where a failure shows in the admin (« Erreurs d'envoi »). */
  failureKind: MailKind;
  /** The e-mail of a job, written when it leaves; null when there is nothing (left) to send. */
  compose: (data: Data) => Promise<OutgoingMail | null>;
  /** What the feature records once the mail server has accepted it (`mail`: what was sent). */
  afterDelivery?: (data: Data, mail: OutgoingMail) => Promise<void>;
  /**
   * What the feature records once the e-mail is given up (the address refused, or its last retry failed),
   * after the failure is recorded; it may run again for the same e-mail (a job retried after it threw):
   * it must do its work once. When it throws, the job is retried (MAIL_GIVE_UP_RETRIES beyond the e-mail's
   * own) and runs it again, without sending the e-mail again, until it succeeds.
   */
  afterGivenUp?: (data: Data, mail: OutgoingMail, error: string) => Promise<void>;
};

export type EnqueueOptions = {
  /** Queued inside this transaction: the e-mail leaves only if it commits. */
  tx?: Executor;
  /**
   * A second request with the same key within the hour after the first queues nothing and answers null
   * (a sliding window, sendOnce).
   */
  once?: string;
  /** With `once`: the period its key holds after the first, in seconds, instead of the hour. */
  onceSeconds?: number;
  /** Not sent before this instant (a gift voucher delivered on its day, decision 0167). */
  startAfter?: Date;
};

/** The tries of an e-mail before it is given up: about a day (the queue's policy, decision 0080). */
export const MAIL_SEND_RETRIES = RETRIES_FOR_A_DAY.retryLimit;

/**
 * The tries a job keeps beyond its e-mail's own, for its kind's `afterGivenUp` when it throws (a database
 * unreachable at the last try): what a voucher's buyer must be told of is not lost with the job (about 10
 * hours more, at the back-off's longest delay). Given to each job as it is queued, the queue's own policy
 * unchanged (decision 0149).
 */
export const MAIL_GIVE_UP_RETRIES = 20;

/**
 * A kind of e-mail: the function that queues one of it, carrying its name and how it is written. Its
 * feature exports it; boot/mail-kinds.server lists it, so that the mail worker can write its jobs.
 */
export type MailKindQueue<Data extends object> = ((
  data: Data,
  options?: EnqueueOptions,
) => Promise<string | null>) & { kind: string; definition: MailKindDefinition<Data> };

/** Any kind of e-mail of a list, whatever its data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMailKind = MailKindQueue<any>;

/** Defines the e-mail `name`; returns the function that queues one of it (decision 0150). */
export function defineMailKind<Data extends object>(
  name: string,
  definition: MailKindDefinition<Data>,
): MailKindQueue<Data> {
  const queue = (data: Data, { once, onceSeconds = 3600, ...options }: EnqueueOptions = {}) => {
    const rest = { ...options, retryLimit: MAIL_SEND_RETRIES + MAIL_GIVE_UP_RETRIES };
    return once === undefined
      ? enqueue("mail", { ...data, kind: name }, rest)
      : sendOnce({ ...data, kind: name }, once, onceSeconds, rest);
  };
  return Object.assign(queue, { kind: name, definition });
}

/**
 * Queues an e-mail unless one with the key `once` was queued in the last `seconds` (cancelled ones aside):
 * one request at a time per key (a transaction's advisory lock), in the caller's transaction when it gives
 * one. pg-boss's own throttle (`singletonSeconds`) counts slots aligned on the clock: a form posted twice
 * at 00:59:59 and 01:00:01 queued two e-mails. Jobs are kept a day after they end (mailJob's policy),
 * longer than any window used.
 */
async function sendOnce(
  data: MailJob,
  once: string,
  seconds: number,
  options: Omit<EnqueueOptions, "once" | "onceSeconds"> & { retryLimit: number },
): Promise<string | null> {
  const { tx, ...rest } = options;
  const send = async (executor: Executor) => {
    await executor.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`mail-once:${once}`}, 0))`,
    );
    const earlier = await executor.execute(sql`
      select 1 from pgboss.job
      where name = 'mail' and singleton_key = ${once} and state <> 'cancelled'
        and created_on > now() - make_interval(secs => ${seconds})
      limit 1`);
    if (earlier.rows.length > 0) return null;
    return enqueue("mail", data, { ...rest, singletonKey: once, tx: executor });
  };
  return tx ? send(tx) : db().transaction(send);
}

/**
 * How a mail job ended, kept as its output (the order's history tells an e-mail sent from a job that
 * found nothing left to send: a voucher refunded before its day). A job given up is told by its final
 * `mail_failures` row.
 */
export type MailJobOutput = { outcome: "sent" | "nothing_to_send" | "given_up" };

/**
 * The worker of the queue `mail`, sending through `config` the e-mails of `kinds`. Its worker fetches
 * one job at a time (workers.server's backlog): it answers the last job's outcome, kept as its output.
 */
export const mailJobHandler = (config: MailConfig, kinds: readonly AnyMailKind[]) => {
  const byName = new Map(kinds.map((kind) => [kind.kind, kind.definition]));
  return async (jobs: JobWithMetadata<MailJob>[]): Promise<MailJobOutput | undefined> => {
    let output: MailJobOutput | undefined;
    for (const job of jobs) {
      const definition: MailKindDefinition<object> | undefined = byName.get(job.data.kind);
      // A job of a kind this process does not know: retried (another version of the site may know it).
      if (!definition) throw new Error(`E-mail d'un type inconnu : ${job.data.kind}`);
      // Retried after its e-mail was given up: its kind's step threw (a database unreachable), and runs
      // again, the e-mail not sent again (its failure recorded once).
      const givenUp = job.retryCount > 0 && job.id ? await finalMailFailureOf(job.id) : null;
      const mail = await definition.compose(job.data);
      if (!mail) {
        output = { outcome: givenUp === null ? "nothing_to_send" : "given_up" };
        continue;
      }
      if (givenUp !== null) {
        await definition.afterGivenUp?.(job.data, mail, givenUp);
        output = { outcome: "given_up" };
        continue;
      }
      try {
        await deliver(mail, config);
      } catch (error) {
        const failure = mailFailure(error);
        // Jobs queued before MAIL_GIVE_UP_RETRIES have the queue's limit only: their last try gives up.
        const final =
          failure.permanent || job.retryCount >= Math.min(job.retryLimit, MAIL_SEND_RETRIES);
        await recordMailFailure({
          kind: definition.failureKind,
          recipient: mail.to,
          error: failure.message,
          final,
          jobId: job.id,
        });
        if (!final) throw error;
        // Thrown, the job is retried, and its retry runs this step again (above).
        await definition.afterGivenUp?.(job.data, mail, failure.message);
        // The job ends here (recorded above): a refused address will not be accepted later, and an e-mail
        // tried for a day is not tried more.
        output = { outcome: "given_up" };
        continue;
      }
      await definition.afterDelivery?.(job.data, mail);
      output = { outcome: "sent" };
    }
    return output;
  };
};

/**
 * The queue `mail`: one e-mail each (confirmations, contact messages, administrators' links), retried for
 * about a day. Two workers at a time (the transport's pool has two connections), only in a process with
 * SMTP_URL: without it, e-mail jobs wait in the queue until a process that has it starts. Jobs whose retry
 * time has come are looked for every 5 s.
 */
export const mailJob = defineJob<
  MailJob,
  { mail: MailConfig | null; mailKinds: readonly AnyMailKind[] }
>({
  name: "mail",
  policy: {
    ...RETRIES_FOR_A_DAY,
    notify: true,
    expireInSeconds: 5 * 60,
    heartbeatSeconds: 10,
    // Waits while SMTP_URL is unset for a month (a contact message stays in the admin's Messages anyway;
    // a confirmation link is only valid 7 days).
    retentionSeconds: 30 * 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  workers: ({ mail }) => (mail ? 2 : 0),
  backlog: true,
  pollingIntervalSeconds: 5,
  handler: (jobs, { mail, mailKinds }) => {
    if (!mail) throw new Error("SMTP_URL n'est pas configuré.");
    return mailJobHandler(mail, mailKinds)(jobs);
  },
});
