import { defineMailKind } from "../mail/outbox.server";
import type { Mailer, MailMessage } from "../auth/sources.server";
import { mailConfig } from "../mail/transport.server";

/*
 * Administrators' e-mails (password reset, invitation): the callers write a plain-text e-mail and hand it
 * to a Mailer. The site's mailer queues it (mail/outbox.server); tests may pass one that sends directly
 * (mail/transport.server's deliver).
 */

/** An administrator's link (password reset, invitation), written by the caller. */
export const enqueueAdminMail = defineMailKind<{ mail: MailMessage }>("admin", {
  failureKind: "admin",
  compose: async ({ mail }) => mail,
});

/** The site's mailer: through the job queue; null when SMTP_URL is not set (callers say e-mail is off). */
export function configuredMailer(): Mailer | null {
  if (!mailConfig()) return null;
  return async (mail) => {
    await enqueueAdminMail({ mail });
  };
}
