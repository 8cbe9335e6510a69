import type { JobWithMetadata } from "pg-boss";
import { enqueue, type Executor } from "../jobs/queue.server";
import { recordMailFailure, type MailKind } from "./failures.server";
import { deliver, mailFailure, type MailConfig, type OutgoingMail } from "./transport.server";

/*
 * Transactional e-mail through the queue `mail`: one job per e-mail. Jobs carry ids, not content: the
 * e-mail is written when it leaves, from the stored row (no copy of a visitor's message in the queue).
 * A job that fails is retried with back-off (QUEUES.mail); a refused address is given up at once.
 *
 * The outbox knows no kind of e-mail: each feature registers its own (registerMailKind) in its module and
 * queues through the function that returns, so that the outbox imports none of them (mail/kinds.server.ts
 * loads them all for the worker).
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
};

export type EnqueueOptions = {
  /** Queued inside this transaction: the e-mail leaves only if it commits. */
  tx?: Executor;
  /** A second request with the same key within the hour queues nothing and answers null. */
  once?: string;
};

const kinds = new Map<string, MailKindDefinition<object>>();

/** Registers the e-mail `name`; returns the function that queues one of it. */
export function registerMailKind<Data extends object>(
  name: string,
  definition: MailKindDefinition<Data>,
): (data: Data, options?: EnqueueOptions) => Promise<string | null> {
  kinds.set(name, definition as unknown as MailKindDefinition<object>);
  return (data, { once, ...rest } = {}) =>
    enqueue(
      "mail",
      { ...data, kind: name },
      once === undefined ? rest : { ...rest, singletonKey: once, singletonSeconds: 3600 },
    );
}

/** The names of the kinds registered in this process. */
export const registeredMailKinds = (): string[] => [...kinds.keys()];

function definitionOf(job: MailJob): MailKindDefinition<object> {
  const definition = kinds.get(job.kind);
  // A job of a kind this process never loaded: retried (another version of the site may know it).
  if (!definition) throw new Error(`E-mail d'un type inconnu : ${job.kind}`);
  return definition;
}

/** The worker of the queue `mail`, sending through `config`: composes and sends each job's e-mail. */
export const mailJobHandler = (config: MailConfig) => async (jobs: JobWithMetadata<MailJob>[]) => {
  for (const job of jobs) {
    const definition = definitionOf(job.data);
    const mail = await definition.compose(job.data);
    if (!mail) continue;
    try {
      await deliver(mail, config);
    } catch (error) {
      const failure = mailFailure(error);
      const final = failure.permanent || job.retryCount >= job.retryLimit;
      await recordMailFailure({
        kind: definition.failureKind,
        recipient: mail.to,
        error: failure.message,
        final,
      });
      // A refused address will not be accepted later: the job ends here (recorded above).
      if (failure.permanent) continue;
      throw error;
    }
    await definition.afterDelivery?.(job.data, mail);
  }
};
