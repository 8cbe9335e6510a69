import type { JobWithMetadata } from "pg-boss";
import { eq, sql } from "drizzle-orm";
import { studioDataSchema } from "~/content/schemas";
import { contactMessageEmail } from "../contact-mail.server";
import { galleryInvitationEmail, selectionEmail } from "../galleries/emails.server";
import { markInvitationSent } from "../galleries/galleries.server";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { contactMessages } from "../db/schema";
import { enqueue, type Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { confirmationEmail } from "../newsletter/confirmation-email.server";
import type { NewsletterMode } from "../newsletter/email.server";
import { newsletterSample } from "../newsletter/sending.server";
import { recordMailFailure, type MailKind } from "./failures.server";
import { deliver, mailFailure, type MailConfig, type OutgoingMail } from "./transport.server";

/*
 * Transactional e-mail through the queue `mail`: one job per e-mail. Jobs carry ids, not content: the
 * e-mail is written when it leaves, from the stored row (no copy of a visitor's message in the queue).
 * A job that fails is retried with back-off (QUEUES.mail); a refused address is given up at once.
 */

export type MailJob =
  /** A visitor's contact message, to its studio (contact_messages.id). */
  | { kind: "contact"; messageId: string }
  /** The double opt-in link, to a pending subscriber. */
  | { kind: "confirmation"; subscriberId: string }
  /** An administrator's link (password reset, invitation), written by the caller. */
  | { kind: "admin"; mail: Pick<OutgoingMail, "to" | "subject" | "text"> }
  /** An article's newsletter as subscribers will get it, to an administrator first (« [Test] »). */
  | { kind: "newsletter-test"; articleId: string; mode: NewsletterMode; to: string }
  /** A client gallery's link and code, to its client (galleries.id; issue 14). */
  | { kind: "gallery-invitation"; galleryId: string }
  /** A client's validated selection, to the gallery's studio (galleries.id; issue 14). */
  | { kind: "gallery-selection"; galleryId: string };

/**
 * Queues one e-mail; inside `tx` when given (it then leaves only if the transaction commits). With `once`,
 * a second request with the same key within the hour queues nothing and answers null (pg-boss's
 * singleton key over an hour's slot).
 */
export function enqueueMail(job: MailJob, options: { tx?: Executor; once?: string } = {}) {
  const { once, ...rest } = options;
  return enqueue(
    "mail",
    job,
    once === undefined ? rest : { ...rest, singletonKey: once, singletonSeconds: 3600 },
  );
}

/** The e-mail of a job, or null when there is nothing (left) to send. */
async function compose(job: MailJob): Promise<OutgoingMail | null> {
  switch (job.kind) {
    case "admin":
      return job.mail;
    case "gallery-selection":
      return selectionEmail(job.galleryId);
    case "confirmation":
      return confirmationEmail(job.subscriberId);
    case "newsletter-test": {
      // Written when it leaves, like the real one: the article as it is then. Deleted meanwhile: nothing.
      const sample = await newsletterSample(job.articleId, job.mode);
      if (!sample) return null;
      return {
        to: job.to,
        ...sample.content,
        subject: `[Test] ${sample.content.subject}`,
        headers: {
          "List-Unsubscribe": `<${sample.unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      };
    }
    case "gallery-invitation":
      return galleryInvitationEmail(job.galleryId);
    case "contact": {
      const [message] = await db()
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.id, job.messageId));
      // Deleted by the owner or the retention meanwhile, or already accepted by the mail server.
      if (!message || message.emailedAt || message.suspectedSpam) return null;
      const row = await db().execute<{ data: unknown }>(
        sql`select data from studios where slug = ${message.studio}`,
      );
      const studio = studioDataSchema.safeParse(row.rows[0]?.data);
      if (!studio.success) throw new Error(`Studio inconnu pour le message ${message.id}`);
      const { brand } = (await readSiteContent()).documents.identity;
      const mail = contactMessageEmail(message, { brand, studio: studio.data });
      return { ...mail, messageId: undefined };
    }
  }
}

async function afterDelivery(job: MailJob, mail: OutgoingMail): Promise<void> {
  if (job.kind === "contact") {
    await db()
      .update(contactMessages)
      .set({ emailedAt: new Date() })
      .where(eq(contactMessages.id, job.messageId));
    log.info("contact_message_emailed", { id: job.messageId });
  }
  if (job.kind === "gallery-invitation") {
    await markInvitationSent(job.galleryId, mail.to);
    log.info("gallery_invitation_emailed", { id: job.galleryId });
  }
}

function kindOf(job: MailJob): MailKind {
  if (job.kind === "gallery-invitation" || job.kind === "gallery-selection") return "gallery";
  return job.kind === "newsletter-test" ? "newsletter" : job.kind;
}

/** The worker of the queue `mail`, sending through `config`: composes and sends each job's e-mail. */
export const mailJobHandler = (config: MailConfig) => async (jobs: JobWithMetadata<MailJob>[]) => {
  for (const job of jobs) {
    const mail = await compose(job.data);
    if (!mail) continue;
    try {
      await deliver(mail, config);
    } catch (error) {
      const failure = mailFailure(error);
      const final = failure.permanent || job.retryCount >= job.retryLimit;
      await recordMailFailure({
        kind: kindOf(job.data),
        recipient: mail.to,
        error: failure.message,
        final,
      });
      // A refused address will not be accepted later: the job ends here (recorded above).
      if (failure.permanent) continue;
      throw error;
    }
    await afterDelivery(job.data, mail);
  }
};
