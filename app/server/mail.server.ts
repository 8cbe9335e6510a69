import nodemailer from "nodemailer";
import { env } from "./env.server";
import { enqueueMail } from "./mail/outbox.server";
import { defaultSender } from "./mail/transport.server";

/**
 * Administrators' e-mails (password reset, invitation): the callers write a plain-text e-mail and hand it
 * to a Mailer. The site's mailer queues it (mail/outbox.server); tests may pass one that sends directly.
 */
export type MailSettings = { url: string; from?: string };

/** One plain-text e-mail. */
export type MailMessage = { to: string; subject: string; text: string };

/** Sends (or queues) one e-mail. */
export type Mailer = (message: MailMessage) => Promise<void>;

/** The SMTP settings of this process, or null when SMTP_URL is not set (nothing can be e-mailed). */
export function mailSettings(): MailSettings | null {
  const { SMTP_URL, SMTP_FROM } = env();
  return SMTP_URL ? { url: SMTP_URL, from: SMTP_FROM } : null;
}

/** A mailer that sends at once through `settings` (for tests of the callers). */
export function smtpMailer(settings: MailSettings): Mailer {
  return async (message) => {
    const transport = nodemailer.createTransport({
      url: settings.url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail({ from: settings.from ?? (await defaultSender()), ...message });
    } finally {
      transport.close();
    }
  };
}

/** The site's mailer: through the job queue; null when SMTP_URL is not set (callers say e-mail is off). */
export function configuredMailer(): Mailer | null {
  if (!mailSettings()) return null;
  return async (mail) => {
    await enqueueMail({ kind: "admin", mail });
  };
}
