import { desc, eq, sql } from "drizzle-orm";
import { periodWords } from "~/lib/accounting/accountant-mail";
import { csvDay } from "~/lib/accounting/csv";
import { ACCOUNTING_FILES } from "~/lib/accounting/files";
import { lastMonth } from "~/lib/accounting/period";
import { parisToday } from "~/lib/dates";
import { ofName } from "~/lib/french";
import { formatCents } from "~/lib/prices";
import { now } from "../clock.server";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { accountantMailSettings, accountantMonthlyMails } from "../db/schema";
import { env } from "../env.server";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";
import { lastMailRefusal } from "../mail/failures.server";
import { defineMailKind } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";
import { accountingExports, type Period } from "./exports.server";

/*
 * The accountant's files by e-mail (decision 0189): the four CSV files of a period (the same bytes as the
 * page's downloads: both are written by exports.server), sent to the address the owner gave on
 * /admin/comptabilite, each month on the 1st for the month before when she switched it on, or at once for
 * the period on the page (« Envoyer maintenant »). Through the outbox: written when it leaves, retried,
 * never sent twice (a row per month; the button's key for an hour).
 */

export type AccountantMailSetting = {
  email: string;
  monthly: boolean;
  /**
   * The last month claimed by the monthly job, when the mail server took its e-mail, and, while it has
   * not, whether its e-mail still waits in the queue (false: it will never leave: the mail server refused
   * the address or never answered, or the switch or the address was taken off before it left).
   */
  lastMonthly: { month: string; sentAt: Date | null; waiting: boolean } | null;
  /**
   * The last time the mail server gave up an e-mail to the saved address (an address it refuses: the
   * outbox records it, in French, under the kind of the accountant's e-mail), unless a monthly e-mail
   * reached it since; failures are kept 30 days.
   */
  refused: { at: Date; error: string } | null;
};

/** The last e-mail to the accountant given up for `email` (any case), with what the mail server said. */
const lastRefusal = (email: string) =>
  lastMailRefusal(enqueueAccountantFiles.definition.failureKind, email);

/** Whether the monthly e-mail of `month` is still in the mail queue, to be sent or retried. */
async function monthlyMailWaiting(month: string): Promise<boolean> {
  const result = await db().execute(sql`
    select 1 from pgboss.job
    where name = 'mail' and data ->> 'kind' = ${enqueueAccountantFiles.kind}
      and data ->> 'month' = ${month} and state in ('created', 'retry', 'active')
    limit 1`);
  return result.rows.length > 0;
}

/** The saved address and switch (an empty address and the switch off before the first save). */
export async function accountantMailSetting(): Promise<AccountantMailSetting> {
  const [[row], [last]] = await Promise.all([
    db().select().from(accountantMailSettings).where(eq(accountantMailSettings.id, 1)),
    db()
      .select({ month: accountantMonthlyMails.month, sentAt: accountantMonthlyMails.sentAt })
      .from(accountantMonthlyMails)
      .orderBy(desc(accountantMonthlyMails.month))
      .limit(1),
  ]);
  const email = row?.email ?? "";
  const [waiting, refusal] = await Promise.all([
    last !== undefined && last.sentAt === null ? monthlyMailWaiting(last.month) : false,
    lastRefusal(email),
  ]);
  const reachedSince = refusal && last?.sentAt && last.sentAt > refusal.at;
  return {
    email,
    monthly: row?.monthly ?? false,
    lastMonthly: last ? { ...last, waiting } : null,
    refused: refusal && !reachedSince ? refusal : null,
  };
}

/** Saves the address and the switch (the form checked them: no switch on without an address). */
export async function saveAccountantMail(setting: { email: string; monthly: boolean }) {
  await db()
    .insert(accountantMailSettings)
    .values({ id: 1, ...setting })
    .onConflictDoUpdate({
      target: accountantMailSettings.id,
      set: { ...setting, updatedAt: new Date() },
    });
}

/** What a job of the e-mail carries: the period, and the month when the monthly job queued it. */
type AccountantFilesMail = Period & { month?: string; requestedAt: string };

/** « Fichiers comptables de novembre 2026 », « … d'août 2027 » / « … du 03/11/2026 au 17/11/2026 ». */
const subjectOf = (period: Period, brand: string) => {
  const words = periodWords(period);
  return `Fichiers comptables ${words.startsWith("du ") ? words : ofName(words)} — ${brand}`;
};

/** The e-mail of a period's files, written when it leaves from the rows as they then stand. */
export async function accountantFilesEmail(job: AccountantFilesMail): Promise<OutgoingMail | null> {
  const setting = await accountantMailSetting();
  // No address (any more), or the monthly e-mail switched off since it was queued: nothing to send.
  if (setting.email === "" || (job.month !== undefined && !setting.monthly)) return null;
  const period = { from: job.from, to: job.to };
  const [files, content] = await Promise.all([accountingExports(period), readSiteContent()]);
  const { identity } = content.documents;
  const words = periodWords(period);
  const siteUrl = env().SITE_URL;
  const lines = ACCOUNTING_FILES.map((file, index) => {
    const made = files[index];
    const rows = made?.rows ?? 0;
    const title =
      file.file === "bons-cadeaux-a-honorer.csv"
        ? `${file.title} au ${csvDay(period.to)}`
        : file.title;
    return `- ${title} : ${rows} ligne${rows > 1 ? "s" : ""}, total ${formatCents(made?.totalCents ?? 0)}`;
  });
  return {
    to: setting.email,
    subject: subjectOf(period, identity.brand),
    text: [
      "Bonjour,",
      "",
      words.startsWith("du ")
        ? `Voici les fichiers comptables ${ofName(identity.brand)} pour la période ${words}, en pièces jointes :`
        : `Voici les fichiers comptables ${ofName(identity.brand)} pour ${words} (du ${csvDay(period.from)} au ${csvDay(period.to)}), en pièces jointes :`,
      "",
      ...lines,
      "",
      "Ils s'ouvrent dans un tableur (Excel, LibreOffice) : encodage UTF-8, séparateur point-virgule, montants en euros avec une virgule décimale.",
      "",
      job.month === undefined
        ? `Envoyé à la demande ${ofName(identity.brand)} depuis l'administration de son site.`
        : `Vous recevez cet e-mail le 1er de chaque mois à la demande ${ofName(identity.brand)} ; pour ne plus le recevoir, demandez-le-lui.`,
    ].join("\n"),
    ...(identity.email ? { replyTo: { name: identity.brand, address: identity.email } } : {}),
    attachments: files.map((made) => ({
      filename: made.filename,
      contentType: "text/csv; charset=utf-8",
      content: Buffer.from(made.csv, "utf8"),
    })),
    messageId: `<comptabilite-${job.from}-${job.to}-${job.requestedAt.replace(/\D/g, "")}@${new URL(siteUrl).hostname}>`,
  };
}

export const enqueueAccountantFiles = defineMailKind<AccountantFilesMail>("accountant-files", {
  failureKind: "admin",
  compose: accountantFilesEmail,
  async afterDelivery({ month }) {
    if (month === undefined) return;
    await db()
      .update(accountantMonthlyMails)
      .set({ sentAt: new Date() })
      .where(eq(accountantMonthlyMails.month, month));
  },
});

/**
 * The monthly e-mail: the files of the calendar month before `at` (Paris), when the switch is on and an
 * address is set. The month is claimed by inserting its row in the transaction that queues the e-mail:
 * the job run twice, or by two servers at once, queues one e-mail (the second insert waits for the first
 * to commit, then conflicts). Whether the seller's identity is complete does not matter: the files do
 * not print it (decision 0182). Returns whether an e-mail was queued.
 */
export async function sendMonthlyAccountantFiles(at = now()): Promise<boolean> {
  const setting = await accountantMailSetting();
  if (!setting.monthly || setting.email === "") return false;
  const period = lastMonth(parisToday(at));
  const month = period.from.slice(0, 7);
  const queued = await db().transaction(async (tx) => {
    const claimed = await tx
      .insert(accountantMonthlyMails)
      .values({ month, recipient: setting.email })
      .onConflictDoNothing()
      .returning({ month: accountantMonthlyMails.month });
    if (claimed.length === 0) return false;
    await enqueueAccountantFiles({ ...period, month, requestedAt: at.toISOString() }, { tx });
    return true;
  });
  if (queued) log.info("accountant_files_queued", { month });
  return queued;
}

/**
 * « Envoyer maintenant les fichiers de la période »: the period's files at once to the saved address.
 * The same period to the same address within the hour queues nothing more (a second click).
 */
export async function sendAccountantFilesNow(
  period: Period,
  at = now(),
): Promise<"queued" | "already-sent" | "no-address"> {
  const { email } = await accountantMailSetting();
  if (email === "") return "no-address";
  const queued = await enqueueAccountantFiles(
    { ...period, requestedAt: at.toISOString() },
    { once: `accountant-files:${period.from}:${period.to}:${email}` },
  );
  return queued === null ? "already-sent" : "queued";
}

/**
 * The `accounting.monthly-mail` job, on the 1st of each month at 7 h Paris time (singleton: one run at a
 * time across servers); a 1st when no server ran is caught up at the next start (`missed`), which still
 * sends the month before.
 */
export const accountantMonthlyMailJob = defineJob({
  name: "accounting.monthly-mail",
  policy: {
    retryLimit: 5,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "0 7 1 * *", tz: "Europe/Paris", missed: "once" },
  handler: async () => {
    await sendMonthlyAccountantFiles();
  },
});
