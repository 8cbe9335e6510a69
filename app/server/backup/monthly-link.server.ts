import { and, eq, isNull, ne, or } from "drizzle-orm";
import { formatLongDateTimeFr, isoDayInParis } from "~/lib/dates";
import { formatSize } from "~/lib/sizes";
import { db } from "../db/client.server";
import { backupLinkMails, users } from "../db/schema";
import { env } from "../env.server";
import { log } from "../logger.server";
import { defineMailKind } from "../mail/outbox.server";
import { signLinkToken, verifyLinkToken } from "../signed-link.server";
import { type BackupFile } from "./destination.server";
import { listBackups } from "./service.server";

/*
 * The download link e-mailed each month to the administrators who asked for it on /admin/sauvegardes
 * (decision 0139): copies kept on the server die with it, and the owner keeps one at home only if
 * something reminds her. The link is signed for her (HMAC, `backup-monthly`), valid 7 days, and downloads
 * the latest backup only with her session as well: a forwarded or leaked e-mail alone opens nothing.
 */

/** How long an e-mailed link downloads (a week: the owner reads her mail when she can). */
export const MONTHLY_LINK_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** The path of the e-mailed link (the latest backup, whatever it is when she clicks). */
export const LATEST_BACKUP_PATH = "/admin/sauvegardes/derniere";

/** The month in Paris (« 2026-11 ») that an e-mail is for. */
export const parisMonth = (now: Date): string => isoDayInParis(now).slice(0, 7);

/** The setting of the page: whether this administrator gets the e-mail, and when the last one left. */
export async function monthlyLinkSetting(
  userId: string,
): Promise<{ enabled: boolean; lastSentAt: Date | null }> {
  const [row] = await db().select().from(backupLinkMails).where(eq(backupLinkMails.userId, userId));
  return { enabled: row?.enabled ?? false, lastSentAt: row?.lastSentAt ?? null };
}

/**
 * Switches the e-mail on or off for this administrator. Switched on again, the month already sent stays
 * claimed: no second e-mail that month.
 */
export async function setMonthlyLink(userId: string, enabled: boolean): Promise<void> {
  await db()
    .insert(backupLinkMails)
    .values({ userId, enabled })
    .onConflictDoUpdate({ target: backupLinkMails.userId, set: { enabled } });
}

/** The newest backup, or null when there is none. */
export async function latestBackup(): Promise<BackupFile | null> {
  const files = await listBackups();
  return files.reduce<BackupFile | null>(
    (newest, file) => (!newest || file.createdAt > newest.createdAt ? file : newest),
    null,
  );
}

type MonthlyLinkMail = { userId: string; month: string };

export const enqueueMonthlyLink = defineMailKind<MonthlyLinkMail>("backup-monthly-link", {
  failureKind: "admin",
  async compose({ userId, month }) {
    const [admin] = await db()
      .select({ email: users.email, role: users.role, enabled: backupLinkMails.enabled })
      .from(backupLinkMails)
      .innerJoin(users, eq(users.id, backupLinkMails.userId))
      .where(eq(backupLinkMails.userId, userId));
    // Switched off, or no longer an administrator, since it was queued: nothing to send.
    if (!admin?.enabled || admin.role !== "admin") return null;
    const latest = await latestBackup();
    if (!latest) return null;
    const siteUrl = env().SITE_URL;
    // Signed when it leaves: the 7 days start when she can read it.
    const token = await signLinkToken("backup-monthly", userId, {
      lifetimeSeconds: MONTHLY_LINK_LIFETIME_SECONDS,
    });
    const link = `${siteUrl}${LATEST_BACKUP_PATH}?jeton=${token}`;
    return {
      to: admin.email,
      subject: "Votre sauvegarde du mois à garder chez vous",
      text: [
        "Bonjour,",
        "",
        `Voici le lien pour télécharger la dernière sauvegarde du site (celle du ${formatLongDateTimeFr(latest.createdAt)}, ${formatSize(latest.size)}) :`,
        "",
        link,
        "",
        "Gardez-la hors du serveur, sur votre ordinateur ou une clé USB : si le serveur tombe en panne ou disparaît, c'est elle qui permettra de remettre le site en ligne.",
        "",
        "Pour votre sécurité, ce lien sert 7 jours, et seulement une fois connectée à l'administration du site : si on vous demande de vous connecter, le téléchargement commence dès que vous l'êtes.",
        "",
        `Vous recevez cet e-mail chaque mois parce que vous l'avez demandé. Pour ne plus le recevoir : ${siteUrl}/admin/sauvegardes.`,
      ].join("\n"),
      messageId: `<sauvegarde-du-mois-${month}-${userId.replace(/[^a-z0-9]/gi, "")}@${new URL(siteUrl).hostname}>`,
    };
  },
  async afterDelivery({ userId, month }) {
    await db()
      .update(backupLinkMails)
      .set({ lastSentAt: new Date() })
      .where(and(eq(backupLinkMails.userId, userId), eq(backupLinkMails.lastMonth, month)));
  },
});

/**
 * The `backup-link` job, daily: for each administrator who asked, the month's e-mail if it has not been
 * queued yet. The month is claimed (`last_month` moved to it) in the transaction that queues the e-mail, so
 * two servers running the job at once, or a job run twice, queue one e-mail a month: the second update
 * waits for the first to commit, then matches nothing. Nothing is claimed while there is no backup to
 * download (the next day tries again). Returns how many e-mails were queued.
 */
export async function sendMonthlyBackupLinks(now = new Date()): Promise<number> {
  const month = parisMonth(now);
  const due = await db()
    .select({ userId: backupLinkMails.userId })
    .from(backupLinkMails)
    .innerJoin(users, eq(users.id, backupLinkMails.userId))
    .where(
      and(
        eq(users.role, "admin"),
        eq(backupLinkMails.enabled, true),
        or(isNull(backupLinkMails.lastMonth), ne(backupLinkMails.lastMonth, month)),
      ),
    );
  if (due.length === 0) return 0;
  if (!(await latestBackup())) {
    log.warn("backup_monthly_link_without_backup", { month });
    return 0;
  }
  let queued = 0;
  for (const { userId } of due) {
    await db().transaction(async (tx) => {
      const claimed = await tx
        .update(backupLinkMails)
        .set({ lastMonth: month })
        .where(
          and(
            eq(backupLinkMails.userId, userId),
            eq(backupLinkMails.enabled, true),
            or(isNull(backupLinkMails.lastMonth), ne(backupLinkMails.lastMonth, month)),
          ),
        )
        .returning({ userId: backupLinkMails.userId });
      if (claimed.length === 0) return;
      await enqueueMonthlyLink({ userId, month }, { tx });
      queued += 1;
    });
  }
  if (queued > 0) log.info("backup_monthly_links_queued", { month, queued });
  return queued;
}

/** Whether an e-mailed link is this administrator's and still valid. */
export async function checkMonthlyLink(
  userId: string,
  token: string | null,
): Promise<"ok" | "invalid" | "expired"> {
  const check = await verifyLinkToken("backup-monthly", token);
  if (!check.ok) return check.reason;
  return check.subject === userId ? "ok" : "invalid";
}
