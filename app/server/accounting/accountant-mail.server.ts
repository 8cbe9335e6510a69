import { and, desc, eq, isNull, sql } from "drizzle-orm";
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
import type { Tx } from "../payments/journal.server";
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
   * The months before the last one claimed whose e-mail will never leave (as `lastMonthly` not sent and
   * not waiting), oldest first, each with its period for « Envoyer maintenant »: a later month that
   * reached the accountant does not hide them. A month's files sent from the page take it off.
   */
  notSent: ({ month: string } & Period)[];
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

/**
 * Whether the e-mail that claimed `month` (the monthly job's, or the page's that counts as its sending)
 * is still in the mail queue, to be sent or retried.
 */
async function monthlyMailWaiting(month: string, executor: Pick<Tx, "execute"> = db()) {
  const result = await executor.execute(sql`
    select 1 from pgboss.job
    where name = 'mail' and data ->> 'kind' = ${enqueueAccountantFiles.kind}
      and coalesce(data ->> 'month', data ->> 'claims') = ${month}
      and state in ('created', 'retry', 'active')
    limit 1`);
  return result.rows.length > 0;
}

/** The whole month « 2026-11 » as a period, from its first day to its last. */
const periodOfMonth = (month: string): Period => lastMonth(`${nextMonth(month)}-01`);

/** « 2026-12 » after « 2026-11 », « 2027-01 » after « 2026-12 ». */
const nextMonth = (month: string) => {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, number, 1)).toISOString().slice(0, 7);
};

/** The month a period covers when it is a whole calendar month, else undefined. */
const wholeMonthOf = ({ from, to }: Period): string | undefined => {
  const month = from.slice(0, 7);
  const whole = periodOfMonth(month);
  return whole.from === from && whole.to === to ? month : undefined;
};

/** The months claimed, not sent, whose e-mail no longer waits in the mail queue: it will never leave. */
async function monthsNotSent(): Promise<string[]> {
  const result = await db().execute<{ month: string }>(sql`
    select m.month from ${accountantMonthlyMails} m
    where m.sent_at is null and not exists (
      select 1 from pgboss.job
      where name = 'mail' and data ->> 'kind' = ${enqueueAccountantFiles.kind}
        and coalesce(data ->> 'month', data ->> 'claims') = m.month
        and state in ('created', 'retry', 'active'))
    order by m.month`);
  return result.rows.map((row) => row.month);
}

/** The saved address and switch (an empty address and the switch off before the first save). */
export async function accountantMailSetting(): Promise<AccountantMailSetting> {
  const [[row], [last], notSent] = await Promise.all([
    db().select().from(accountantMailSettings).where(eq(accountantMailSettings.id, 1)),
    db()
      .select({ month: accountantMonthlyMails.month, sentAt: accountantMonthlyMails.sentAt })
      .from(accountantMonthlyMails)
      .orderBy(desc(accountantMonthlyMails.month))
      .limit(1),
    monthsNotSent(),
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
    notSent: notSent
      .filter((month) => month !== last?.month)
      .map((month) => ({ month, ...periodOfMonth(month) })),
    refused: refusal && !reachedSince ? refusal : null,
  };
}

/**
 * Saves the address and the switch (the form checked them: no switch on without an address). The switch
 * turned on records when (`monthly_since`), kept while it stays on; turned off, it is forgotten.
 */
export async function saveAccountantMail(setting: { email: string; monthly: boolean }) {
  const at = now();
  await db()
    .insert(accountantMailSettings)
    .values({ id: 1, ...setting, monthlySince: setting.monthly ? at : null })
    .onConflictDoUpdate({
      target: accountantMailSettings.id,
      set: {
        ...setting,
        monthlySince: setting.monthly
          ? sql`coalesce(${accountantMailSettings.monthlySince}, ${at.toISOString()}::timestamptz)`
          : null,
        updatedAt: new Date(),
      },
    });
}

/**
 * What a job of the e-mail carries: the period, the month when the monthly job queued it, or `claims`,
 * the month the page's « Envoyer maintenant » claimed (its sending, which the monthly job then skips).
 */
type AccountantFilesMail = Period & { month?: string; claims?: string; requestedAt: string };

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
  async afterDelivery(job, mail) {
    if (job.month !== undefined) {
      // The monthly e-mail: the month reached the accountant.
      await db()
        .update(accountantMonthlyMails)
        .set({ sentAt: new Date() })
        .where(eq(accountantMonthlyMails.month, job.month));
      return;
    }
    // A whole month's files sent from the page reached the accountant (a month whose monthly e-mail did
    // not leave is no longer told once she sent it herself) only when they went to her address: the one
    // the month was claimed for, or the one the monthly e-mail now goes to (an address corrected after a
    // refusal). Files the owner sent to another address (her own, switch off) leave the month told.
    const month = wholeMonthOf(job);
    if (month === undefined) return;
    const to = mail.to.trim().toLowerCase();
    await db()
      .update(accountantMonthlyMails)
      .set({ sentAt: new Date() })
      .where(
        and(
          eq(accountantMonthlyMails.month, month),
          isNull(accountantMonthlyMails.sentAt),
          sql`(lower(${accountantMonthlyMails.recipient}) = ${to} or exists (
            select 1 from ${accountantMailSettings}
            where ${accountantMailSettings.id} = 1 and ${accountantMailSettings.monthly}
              and lower(${accountantMailSettings.email}) = ${to}))`,
        ),
      );
  },
});

/** The first month the monthly job sends for a switch turned on at `since`: that month, or the one
 * before when it was turned on on the 1st before the 7 h run (whose month is the one before). After a
 * run, `since` marks the month after the last one claimed. */
const firstMonthSince = (since: Date) =>
  parisToday(new Date(since.getTime() - 7 * 3_600_000)).slice(0, 7);

/** The months the next monthly run would claim at `at`: from the switch's mark to the month before. */
const monthsDue = (setting: { monthlySince: Date | null }, at: Date) => {
  const last = lastMonth(parisToday(at)).from.slice(0, 7);
  return { first: setting.monthlySince ? firstMonthSince(setting.monthlySince) : last, last };
};

/**
 * The monthly e-mail: the files of every calendar month since the switch was turned on (or since the last
 * month a run claimed) up to the month before `at` (Paris) not claimed yet, when the switch is on and an address is set: the month before,
 * and those the servers missed while none ran (an outage over a 1st). Each month is claimed by inserting
 * its row in the transaction that queues its e-mail: the job run twice, or by two servers at once,
 * queues one e-mail a month (the second insert waits for the first to commit, then conflicts; both
 * insert the months in the same order). Whether the seller's identity is complete does not matter: the
 * files do not print it (decision 0182). Returns whether an e-mail was queued.
 */
export async function sendMonthlyAccountantFiles(at = now()): Promise<boolean> {
  const [setting] = await db()
    .select()
    .from(accountantMailSettings)
    .where(eq(accountantMailSettings.id, 1));
  if (!setting?.monthly || setting.email === "") return false;
  const { first, last } = monthsDue(setting, at);
  const months: string[] = [];
  for (let month = first; month <= last; month = nextMonth(month)) {
    months.push(month);
  }
  const queued = await db().transaction(async (tx) => {
    const claimedMonths: string[] = [];
    for (const month of months) {
      const claimed = await tx
        .insert(accountantMonthlyMails)
        .values({ month, recipient: setting.email })
        .onConflictDoNothing()
        .returning({ month: accountantMonthlyMails.month });
      if (claimed.length === 0) continue;
      await enqueueAccountantFiles(
        { ...periodOfMonth(month), month, requestedAt: at.toISOString() },
        { tx },
      );
      claimedMonths.push(month);
    }
    // The months up to `last` are claimed: the next run starts after them. The settings row is backed up
    // and the months' rows are not (a restore must not rewind them): restored onto an empty database, the
    // job starts again from this mark, not from when the switch was turned on, and sends again at most
    // the months claimed since that backup, never every month since the switch.
    await tx
      .update(accountantMailSettings)
      .set({ monthlySince: new Date(`${nextMonth(last)}-02T12:00:00Z`) })
      .where(and(eq(accountantMailSettings.id, 1), eq(accountantMailSettings.monthly, true)));
    return claimedMonths;
  });
  for (const month of queued) log.info("accountant_files_queued", { month });
  return queued.length > 0;
}

/** Thrown to roll back a month claimed by the page whose e-mail was not queued (sent within the hour). */
class NotQueued extends Error {}

/**
 * « Envoyer maintenant les fichiers de la période »: the period's files at once to the saved address.
 * The same period to the same address within the hour queues nothing more (a second click).
 *
 * A whole month the monthly job has still to send (switch on, a closed month since its mark: the 1st
 * before 7 h, say) sent this way to the accountant's address is that month's sending: its row is claimed
 * in the transaction that queues the e-mail, as the job claims it, so that the job skips it. Claimed by
 * the job meanwhile (the same instant on another server: the insert waits for its commit, then
 * conflicts) with its e-mail still in the queue, nothing more is queued: `monthly-queued`. `claimed`:
 * queued as that month's sending.
 */
export async function sendAccountantFilesNow(
  period: Period,
  at = now(),
): Promise<"queued" | "claimed" | "already-sent" | "monthly-queued" | "no-address"> {
  const [setting] = await db()
    .select()
    .from(accountantMailSettings)
    .where(eq(accountantMailSettings.id, 1));
  const email = setting?.email ?? "";
  if (!setting || email === "") return "no-address";
  const once = `accountant-files:${period.from}:${period.to}:${email}`;
  const data = { ...period, requestedAt: at.toISOString() };
  const month = wholeMonthOf(period);
  const due = monthsDue(setting, at);
  if (month === undefined || !setting.monthly || month < due.first || month > due.last) {
    const queued = await enqueueAccountantFiles(data, { once });
    return queued === null ? "already-sent" : "queued";
  }
  try {
    return await db().transaction(async (tx) => {
      const claimed = await tx
        .insert(accountantMonthlyMails)
        .values({ month, recipient: email })
        .onConflictDoNothing()
        .returning({ month: accountantMonthlyMails.month });
      if (claimed.length === 0 && (await monthlyMailWaiting(month, tx))) return "monthly-queued";
      const queued = await enqueueAccountantFiles(
        claimed.length > 0 ? { ...data, claims: month } : data,
        { once, tx },
      );
      if (queued !== null) return claimed.length > 0 ? "claimed" : "queued";
      if (claimed.length > 0) throw new NotQueued();
      return "already-sent";
    });
  } catch (error) {
    if (error instanceof NotQueued) return "already-sent";
    throw error;
  }
}

/**
 * The `accounting.monthly-mail` job, on the 1st of each month at 7 h Paris time (singleton: one run at a
 * time across servers); a 1st when no server ran is caught up at the next start (`missed`), which sends
 * every month missed since the switch was turned on, each once.
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
