import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { env, type Env } from "../env.server";
import { defaultSender } from "../mail/transport.server";
import type { MailSettings, WaitingMail } from "~/lib/newsletter-admin";

/*
 * What /admin/newsletter shows about sending: the mail settings this process runs with (never a password
 * nor the DKIM key), and what waits in the job queue.
 */

/** The variables that say how e-mail leaves (see env.server). */
export type MailEnvironment = Pick<
  Env,
  "SMTP_URL" | "SMTP_FROM" | "DKIM_DOMAIN" | "DKIM_SELECTOR" | "MAIL_RATE_PER_MINUTE"
>;

/**
 * The mail settings of this process, as the admin shows them: read from the variables (the workers'
 * mailConfig reads the same, and the DKIM key, which is never shown).
 */
export async function mailSettings(variables: MailEnvironment = env()): Promise<MailSettings> {
  let server: string | null = null;
  let secure = false;
  if (variables.SMTP_URL) {
    const url = new URL(variables.SMTP_URL);
    secure = url.protocol === "smtps:";
    server = `${url.hostname}:${url.port || (secure ? "465" : "587")}`;
  }
  return {
    enabled: Boolean(variables.SMTP_URL),
    server,
    secure,
    sender: variables.SMTP_FROM ?? (await defaultSender()),
    senderFromEnvironment: Boolean(variables.SMTP_FROM),
    dkim:
      variables.DKIM_DOMAIN && variables.DKIM_SELECTOR
        ? { domain: variables.DKIM_DOMAIN, selector: variables.DKIM_SELECTOR }
        : null,
    ratePerMinute: variables.MAIL_RATE_PER_MINUTE,
  };
}

/**
 * What waits in the job queue (pg-boss's table `pgboss.job`, states 'created' and 'retry'). The queue's
 * schema exists once a process has started the queue; before that, nothing waits.
 */
export async function waitingMail(): Promise<WaitingMail> {
  const [deliveries] = (
    await db().execute<{ count: string }>(
      sql`select count(*) as count from newsletter_deliveries where status = 'pending'`,
    )
  ).rows;
  const [queue] = (
    await db().execute<{ present: boolean }>(
      sql`select to_regclass('pgboss.job') is not null as present`,
    )
  ).rows;
  let messages = 0;
  let newsletterBatches = 0;
  if (queue?.present) {
    const jobs = await db().execute<{ name: string; count: string }>(sql`
      select name, count(*) as count from pgboss.job
      where name in ('mail', 'newsletter') and state in ('created', 'retry')
      group by name
    `);
    for (const row of jobs.rows) {
      if (row.name === "mail") messages = Number(row.count);
      else newsletterBatches = Number(row.count);
    }
  }
  return { messages, newsletterBatches, newsletterEmails: Number(deliveries?.count ?? 0) };
}
