import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { startSmtpCapture } from "../../../tests/support/smtp-capture";
import { db } from "../db/client.server";
import { users } from "../db/schema";
import { jobQueue } from "../jobs/queue.server";
import { startWorkers } from "../boot/jobs.server";
import { verifyLinkToken } from "../signed-link.server";
import {
  checkMonthlyLink,
  monthlyLinkSetting,
  sendMonthlyBackupLinks,
  setMonthlyLink,
} from "./monthly-link.server";
import { runRecordedBackup } from "./service.server";

// The download link e-mailed each month (decision 0139), as it leaves through the queue to a real SMTP
// server on loopback: nothing without a backup, one e-mail a month however often (and however many servers
// at once) the job runs, a link signed for her and valid 7 days, and the page's « dernier envoi ». Time is
// the job's `now` (months of 2027); the schedule's own run in real time is removed.

const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/backup-monthly-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase({ jobs: true });

let capture: Awaited<ReturnType<typeof startSmtpCapture>>;
const owner = { id: "owner-monthly", email: "camille@example.com" };
const otherAdmin = { id: "other-monthly", email: "lea@example.com" };

beforeAll(async () => {
  capture = await startSmtpCapture();
  await db()
    .insert(users)
    .values([
      { id: owner.id, name: "Camille", email: owner.email, role: "admin" },
      { id: otherAdmin.id, name: "Léa", email: otherAdmin.email, role: "admin" },
    ]);
  await startWorkers({
    mail: { url: capture.smtpUrl, from: "Studio <site@example.com>", ratePerMinute: 6000 },
    photoWorkers: 0,
  });
  // The job's daily run in real time is not this test's: its `now` is given below.
  await jobQueue().unschedule("backup-link");
});
afterAll(async () => {
  await capture.close();
  await rm(dataDir, { recursive: true, force: true });
});

const monthMails = (month: string) =>
  capture.received.filter((mail) =>
    (mail.headers["message-id"] ?? "").includes(`sauvegarde-du-mois-${month}-`),
  );

const queuedFor = async (month: string) =>
  Number(
    (
      await db().$client.query<{ count: string }>(
        "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'backup-monthly-link' and data->>'month' = $1",
        [month],
      )
    ).rows[0]?.count,
  );

const tokenOf = (text: string) => {
  const match = /\/admin\/sauvegardes\/derniere\?jeton=([A-Za-z0-9_.-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`Aucun lien dans :\n${text}`);
  return match[1];
};

describe("the monthly download link", () => {
  it("is e-mailed once a month to the administrator who asked, with a link for her valid 7 days", async () => {
    await setMonthlyLink(owner.id, true);
    const january = new Date("2027-01-15T09:00:00Z");
    // No backup yet: nothing to download, nothing claimed (the next day tries again).
    expect(await sendMonthlyBackupLinks(january)).toBe(0);
    expect(await queuedFor("2027-01")).toBe(0);

    await runRecordedBackup({ reason: "manual", by: "Camille" });
    expect(await sendMonthlyBackupLinks(january)).toBe(1);
    // Run again the same month, twice at once as two app servers would: nothing more.
    const again = await Promise.all([
      sendMonthlyBackupLinks(new Date("2027-01-31T22:00:00Z")),
      sendMonthlyBackupLinks(new Date("2027-01-20T09:00:00Z")),
    ]);
    expect(again).toEqual([0, 0]);
    expect(await queuedFor("2027-01")).toBe(1);

    await expect.poll(() => monthMails("2027-01").length).toBe(1);
    const [mail] = monthMails("2027-01");
    expect(mail?.to).toEqual([owner.email]);
    expect(mail?.subject).toBe("Votre sauvegarde du mois à garder chez vous");
    expect(mail?.text).toContain("Voici le lien pour télécharger la dernière sauvegarde du site");
    expect(mail?.text).toContain("ce lien sert 7 jours, et seulement une fois connectée");
    const token = tokenOf(mail?.text ?? "");
    expect(await checkMonthlyLink(owner.id, token)).toBe("ok");
    expect(await checkMonthlyLink(otherAdmin.id, token)).toBe("invalid");
    expect(await checkMonthlyLink(owner.id, `${token.slice(0, -2)}xx`)).toBe("invalid");
    expect((await verifyLinkToken("backup-monthly", token, Date.now() + 6 * 86_400_000)).ok).toBe(
      true,
    );
    expect(await verifyLinkToken("backup-monthly", token, Date.now() + 8 * 86_400_000)).toEqual({
      ok: false,
      reason: "expired",
    });
    // A download link of the page is not a monthly one, nor the reverse.
    expect((await verifyLinkToken("backup-download", token)).ok).toBe(false);
    // The page says when the last one left.
    await expect.poll(async () => (await monthlyLinkSetting(owner.id)).lastSentAt).not.toBeNull();
    // The administrator who did not ask gets nothing.
    expect(capture.received.filter((each) => each.to.includes(otherAdmin.email))).toEqual([]);
  });

  it("goes again the next month, not again after switching it off and on, not at all when off", async () => {
    expect(await sendMonthlyBackupLinks(new Date("2027-02-01T09:00:00Z"))).toBe(1);
    await expect.poll(() => monthMails("2027-02").length).toBe(1);
    await setMonthlyLink(owner.id, false);
    await setMonthlyLink(owner.id, true);
    expect(await sendMonthlyBackupLinks(new Date("2027-02-10T09:00:00Z"))).toBe(0);
    await setMonthlyLink(owner.id, false);
    expect(await sendMonthlyBackupLinks(new Date("2027-03-01T09:00:00Z"))).toBe(0);
    expect(await queuedFor("2027-03")).toBe(0);
    expect(await monthlyLinkSetting(owner.id)).toMatchObject({ enabled: false });
  });
});
