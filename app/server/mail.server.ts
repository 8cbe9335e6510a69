import nodemailer from "nodemailer";
import { readSiteContent } from "./content/site-content.server";
import { env } from "./env.server";

/**
 * Where and as whom the site sends e-mail: SMTP_URL and SMTP_FROM; without SMTP_FROM, the brand with its
 * general address as the owner set them in the admin, read when each e-mail goes.
 */
export type MailSettings = { url: string; from?: string };

/** One plain-text e-mail. */
export type MailMessage = { to: string; subject: string; text: string };

/** Sends one e-mail (the transport is opened for it and closed after). */
export type Mailer = (message: MailMessage) => Promise<void>;

/** The SMTP settings of this process, or null when SMTP_URL is not set (nothing can be e-mailed). */
export function mailSettings(): MailSettings | null {
  const { SMTP_URL, SMTP_FROM } = env();
  return SMTP_URL ? { url: SMTP_URL, from: SMTP_FROM } : null;
}

/** A mailer for `settings`, with time-outs so that a silent server cannot hold a request for long. */
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

/** « Brand <general address> » of the site's identity. */
export async function defaultSender(): Promise<string> {
  const { brand, email } = (await readSiteContent()).documents.identity;
  return `${brand.replace(/[<>"]/g, "")} <${email}>`;
}

/** The mailer of this process's SMTP settings, or null when SMTP_URL is not set. */
export function configuredMailer(): Mailer | null {
  const settings = mailSettings();
  return settings ? smtpMailer(settings) : null;
}
