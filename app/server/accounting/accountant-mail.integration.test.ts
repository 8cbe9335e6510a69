import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodWords } from "~/lib/accounting/accountant-mail";
import { lastMonth } from "~/lib/accounting/period";
import { isoDayInParis } from "~/lib/dates";
import { ofName } from "~/lib/french";
import { sellerGaps } from "~/lib/legal/seller";
import { useAppDatabase } from "../../../tests/support/database";
import { placeOrder, usePaymentsInMemory } from "../../../tests/support/payments";
import { mailAttachments, startSmtpCapture } from "../../../tests/support/smtp-capture";
import { startWorkers } from "../boot/jobs.server";
import { loadDocument, saveDocument } from "../content/content-store.server";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { accountantMonthlyMails } from "../db/schema";
import { jobQueue } from "../jobs/queue.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";
import {
  accountantFilesEmail,
  accountantMailSetting,
  enqueueAccountantFiles,
  saveAccountantMail,
  sendAccountantFilesNow,
  sendMonthlyAccountantFiles,
} from "./accountant-mail.server";
import { accountingExports } from "./exports.server";

// The accountant's files by e-mail (decision 0189), through the queue to a real SMTP server on loopback:
// the monthly job sends one e-mail with the month's four files (the bytes of the export functions),
// however often and on however many servers it runs; nothing with the switch off or no address; the
// page's « Envoyer maintenant » once an hour per period. The job's `at` is the 1st of next month, so
// that its month is this one, which holds today's payments (the journal's times are PostgreSQL's own).

useAppDatabase({ jobs: true });
usePaymentsInMemory();

let capture: Awaited<ReturnType<typeof startSmtpCapture>>;
const accountant = "cabinet@example.com";
/** An address typed wrong: the mail server knows no such mailbox. */
const mistyped = "cabinet@exmaple.com";

const today = isoDayInParis(new Date());
const [year, month] = today.split("-").map(Number) as [number, number];
/** The 1st of next month, 7 h in Paris (5 or 6 h UTC; 5 h is on that day either way). */
const firstOfNextMonth = new Date(Date.UTC(year, month, 1, 5));
const period = lastMonth(isoDayInParis(firstOfNextMonth));
const thisMonth = today.slice(0, 7);

beforeAll(async () => {
  capture = await startSmtpCapture({ refuses: (address) => address === mistyped });
  await startWorkers({
    mail: { url: capture.smtpUrl, from: "Studio <site@example.com>", ratePerMinute: 6000 },
    photoWorkers: 0,
  });
  // The schedule's own run in real time is not this test's: its `at` is given below.
  await jobQueue().unschedule("accounting.monthly-mail");
});
afterAll(async () => {
  await capture.close();
});

const mailsToAccountant = () => capture.received.filter((mail) => mail.to.includes(accountant));

const queuedMails = async () =>
  Number(
    (
      await db().$client.query<{ count: string }>(
        "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'accountant-files'",
      )
    ).rows[0]?.count,
  );

describe("the accountant's monthly e-mail", () => {
  it("sends nothing while switched off or without an address", async () => {
    expect(await sendMonthlyAccountantFiles(firstOfNextMonth)).toBe(false);
    await saveAccountantMail({ email: accountant, monthly: false });
    expect(await sendMonthlyAccountantFiles(firstOfNextMonth)).toBe(false);
    await saveAccountantMail({ email: "", monthly: true });
    expect(await sendMonthlyAccountantFiles(firstOfNextMonth)).toBe(false);
    expect(await queuedMails()).toBe(0);
    expect(await db().select().from(accountantMonthlyMails)).toEqual([]);
  });

  it("sends the month's four files once, however often and on however many servers the job runs", async () => {
    // The seller's identity is incomplete (the seed's): no invoice is issued, the files still go.
    expect(sellerGaps(await loadDocument("legal")).length).toBeGreaterThan(0);
    const order = await placeOrder("studio", 12_000);
    await markPaidOffline(order.orderId, "cash");
    const refund = await requestRefund(order.orderId, 2_500, "Geste commercial");
    await markRefundedOffline(refund.id);

    await saveAccountantMail({ email: accountant, monthly: true });
    const runs = await Promise.all([
      sendMonthlyAccountantFiles(firstOfNextMonth),
      sendMonthlyAccountantFiles(firstOfNextMonth),
    ]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    // The job run again later the same month (a retry, a missed run caught up): nothing more.
    expect(
      await sendMonthlyAccountantFiles(new Date(firstOfNextMonth.getTime() + 86_400_000)),
    ).toBe(false);
    expect(await queuedMails()).toBe(1);

    await expect.poll(() => mailsToAccountant().length).toBe(1);
    const [mail] = mailsToAccountant();
    const words = periodWords(period);
    expect(words).toMatch(/^[a-zéû]+ \d{4}$/);
    expect(mail?.subject).toBe(
      `Fichiers comptables ${ofName(words)} — ${(await loadDocument("identity")).brand}`,
    );
    expect(mail?.text).toContain(`pour ${words} (du `);
    expect(mail?.text).toMatch(/- Livre des recettes : 2 lignes, total 95\s€/);

    const attached = mailAttachments(mail?.raw ?? "");
    const expected = await accountingExports(period);
    expect(attached.map((file) => file.filename)).toEqual(expected.map((file) => file.filename));
    expect(attached.map((file) => file.type)).toEqual(Array(4).fill("text/csv"));
    for (const [index, file] of attached.entries()) {
      expect(file.bytes.equals(Buffer.from(expected[index]?.csv ?? "", "utf8"))).toBe(true);
    }
    expect([...(attached[0]?.bytes.subarray(0, 3) ?? [])]).toEqual([0xef, 0xbb, 0xbf]);

    // The page says which month left, and when.
    await expect
      .poll(async () => (await accountantMailSetting()).lastMonthly?.sentAt ?? null)
      .not.toBeNull();
    expect((await accountantMailSetting()).lastMonthly?.month).toBe(period.from.slice(0, 7));
    expect(period.from.slice(0, 7)).toBe(thisMonth);
  });

  it("sends a period at once from the page, not twice within the hour, and never without an address", async () => {
    const week = { from: period.from, to: today };
    expect(await sendAccountantFilesNow(week)).toBe("queued");
    expect(await sendAccountantFilesNow(week)).toBe("already-sent");
    await expect.poll(() => mailsToAccountant().length).toBe(2);
    const mail = mailsToAccountant()[1];
    expect(mailAttachments(mail?.raw ?? "")).toHaveLength(4);
    expect(mail?.text).toContain("Envoyé à la demande de");

    await saveAccountantMail({ email: "", monthly: false });
    expect(await sendAccountantFilesNow(week)).toBe("no-address");
    expect(await queuedMails()).toBe(2);
  });
});

describe("the accountant's e-mail that did not leave", () => {
  /** The state of the mail job of the monthly e-mail of `claimed` (« 2026-11 »). */
  const jobOf = async (claimed: string) =>
    (
      await db().$client.query<{ state: string }>(
        "select state from pgboss.job where name = 'mail' and data->>'kind' = 'accountant-files' and data->>'month' = $1",
        [claimed],
      )
    ).rows.map((row) => row.state);

  it("is no longer said to be waiting once the mail server refused the address, which the page says", async () => {
    await saveAccountantMail({ email: mistyped, monthly: true });
    // The job of the 1st of the month after next: its month is next month.
    const at = new Date(Date.UTC(year, month + 1, 1, 5));
    const claimed = lastMonth(isoDayInParis(at)).from.slice(0, 7);
    expect(await sendMonthlyAccountantFiles(at)).toBe(true);
    // The mail server refuses the mailbox for good: the job ends, nothing left to wait for.
    await expect.poll(() => jobOf(claimed)).toEqual(["completed"]);
    expect(capture.received.filter((mail) => mail.to.includes(mistyped))).toEqual([]);
    expect((await accountantMailSetting()).lastMonthly).toEqual({
      month: claimed,
      sentAt: null,
      waiting: false,
    });
    // The page says the mail server refused that address, and why.
    expect((await accountantMailSetting()).refused).toEqual({
      at: expect.any(Date),
      error: expect.stringMatching(/^Adresse refusée par le serveur d'envoi .*5\.1\.1/),
    });

    // A month whose e-mail is still queued (no mail server yet, or later today) is waiting.
    const later = new Date(Date.UTC(year, month + 2, 1, 5));
    const queuedMonth = lastMonth(isoDayInParis(later)).from.slice(0, 7);
    await db().insert(accountantMonthlyMails).values({ month: queuedMonth, recipient: mistyped });
    await enqueueAccountantFiles(
      { ...lastMonth(isoDayInParis(later)), month: queuedMonth, requestedAt: later.toISOString() },
      { startAfter: new Date(Date.now() + 365 * 86_400_000) },
    );
    expect((await accountantMailSetting()).lastMonthly).toEqual({
      month: queuedMonth,
      sentAt: null,
      waiting: true,
    });
    // The address corrected: nothing was refused to that one.
    await saveAccountantMail({ email: accountant.toUpperCase(), monthly: true });
    expect((await accountantMailSetting()).refused).toBeNull();
    await saveAccountantMail({ email: "", monthly: false });
  });
});

describe("the accountant's e-mail's words", () => {
  it("elide « de » before a month or a name that starts with a vowel", async () => {
    await saveAccountantMail({ email: accountant, monthly: false });
    const identity = await loadDocument("identity");
    const owner = { id: "", name: "Camille" };
    await saveDocument("identity", { ...identity, brand: "Atelier Lumière" }, owner, "test");
    try {
      const mailOf = async (from: string, to: string) => {
        const mail = await accountantFilesEmail({
          from,
          to,
          requestedAt: new Date().toISOString(),
        });
        return { subject: mail?.subject, text: mail?.text ?? "" };
      };
      expect((await mailOf("2027-04-01", "2027-04-30")).subject).toBe(
        "Fichiers comptables d'avril 2027 — Atelier Lumière",
      );
      expect((await mailOf("2027-10-01", "2027-10-31")).subject).toBe(
        "Fichiers comptables d'octobre 2027 — Atelier Lumière",
      );
      expect((await mailOf("2027-11-01", "2027-11-30")).subject).toBe(
        "Fichiers comptables de novembre 2027 — Atelier Lumière",
      );
      expect((await mailOf("2027-08-03", "2027-08-17")).subject).toBe(
        "Fichiers comptables du 03/08/2027 au 17/08/2027 — Atelier Lumière",
      );
      const august = await mailOf("2027-08-01", "2027-08-31");
      expect(august.subject).toBe("Fichiers comptables d'août 2027 — Atelier Lumière");
      expect(august.text).toContain(
        "Voici les fichiers comptables d'Atelier Lumière pour août 2027 (du 01/08/2027 au 31/08/2027)",
      );
      expect(august.text).toContain("Envoyé à la demande d'Atelier Lumière depuis");
    } finally {
      await saveDocument("identity", identity, owner, "test");
      await saveAccountantMail({ email: "", monthly: false });
    }
  });
});

describe("the accountant's months that did not reach her", () => {
  /** The first day of the month `offset` months after this one, 7 h in Paris (5 or 6 h UTC). */
  const firstOf = (offset: number) => new Date(Date.UTC(year, month - 1 + offset, 1, 5));
  /** « 2026-11 », `offset` months after this one. */
  const monthAt = (offset: number) => firstOf(offset).toISOString().slice(0, 7);
  const claimedMonths = async () =>
    (await db().select().from(accountantMonthlyMails)).map((row) => row.month).sort();
  /** The monthly e-mails of `claimed` queued by the runs at `at`. */
  const mailsOfMonth = async (claimed: string, at: Date) =>
    Number(
      (
        await db().$client.query<{ count: string }>(
          "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'accountant-files' and data->>'month' = $1 and data->>'requestedAt' = $2",
          [claimed, at.toISOString()],
        )
      ).rows[0]?.count,
    );

  it("sends every month missed while no server ran, each once, with two servers", async () => {
    await db().delete(accountantMonthlyMails);
    // Switched on in the middle of the month after next; the servers then stop for four months.
    setClockForTests(new Date(firstOf(2).getTime() + 14 * 86_400_000));
    try {
      await saveAccountantMail({ email: accountant, monthly: true });
    } finally {
      setClockForTests(null);
    }
    const back = firstOf(6);
    const runs = await Promise.all([
      sendMonthlyAccountantFiles(back),
      sendMonthlyAccountantFiles(back),
    ]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    // The months since the switch was on, not the ones before it.
    const missed = [2, 3, 4, 5].map(monthAt);
    expect(await claimedMonths()).toEqual(missed);
    // The 7 h run of that day, or the next start: nothing more.
    expect(await sendMonthlyAccountantFiles(new Date(back.getTime() + 3_600_000))).toBe(false);
    for (const claimed of missed) expect(await mailsOfMonth(claimed, back)).toBe(1);
    await expect
      .poll(async () => (await db().select().from(accountantMonthlyMails)).map((row) => row.sentAt))
      .not.toContain(null);

    // A backup restored onto an empty database keeps the settings, not the months' rows: the next run
    // sends its month only, not again every month since the switch was turned on.
    await db().delete(accountantMonthlyMails);
    expect(await sendMonthlyAccountantFiles(firstOf(7))).toBe(true);
    expect(await claimedMonths()).toEqual([monthAt(6)]);
  });

  it("tells every month whose e-mail did not leave until its files are sent, not only the last", async () => {
    await db().delete(accountantMonthlyMails);
    await saveAccountantMail({ email: "", monthly: false });
    await saveAccountantMail({ email: mistyped, monthly: true });
    const refusedMonth = monthAt(0);
    expect(await sendMonthlyAccountantFiles(firstOf(1))).toBe(true);
    await expect
      .poll(async () => (await accountantMailSetting()).lastMonthly)
      .toEqual({ month: refusedMonth, sentAt: null, waiting: false });
    // The owner corrects the address; the next month reaches the accountant.
    await saveAccountantMail({ email: accountant, monthly: true });
    expect(await sendMonthlyAccountantFiles(firstOf(2))).toBe(true);
    await expect
      .poll(async () => (await accountantMailSetting()).lastMonthly?.sentAt ?? null)
      .not.toBeNull();
    // The refused month is still told, with its period to send it.
    expect((await accountantMailSetting()).notSent).toEqual([
      { month: refusedMonth, ...lastMonth(isoDayInParis(firstOf(1))) },
    ]);
    // Sent from the page (« Envoyer maintenant », that month's period): it is no longer told.
    expect(await sendAccountantFilesNow(lastMonth(isoDayInParis(firstOf(1))))).toBe("queued");
    await expect.poll(async () => (await accountantMailSetting()).notSent).toEqual([]);
    await saveAccountantMail({ email: "", monthly: false });
  });

  it("counts a month sent from the page only when its files went to the accountant's address", async () => {
    await db().delete(accountantMonthlyMails);
    const own = "moi@example.com";
    /** The whole month `offset` months after this one, as the page's period. */
    const periodAt = (offset: number) => lastMonth(isoDayInParis(firstOf(offset + 1)));
    /** Whether every e-mail of the files of `sent` has left the queue (sent or given up). */
    const settled = async (sent: { from: string; to: string }) =>
      (
        await db().$client.query<{ state: string }>(
          "select state from pgboss.job where name = 'mail' and data->>'kind' = 'accountant-files' and data->>'from' = $1 and data->>'to' = $2",
          [sent.from, sent.to],
        )
      ).rows.every((row) => row.state === "completed");
    // Two months whose monthly e-mail never left: one to the accountant's address (the mail server did
    // not answer), one to a mistyped address; a later month reached her.
    await db()
      .insert(accountantMonthlyMails)
      .values([
        { month: monthAt(20), recipient: accountant },
        { month: monthAt(21), recipient: mistyped },
        { month: monthAt(22), recipient: accountant, sentAt: new Date() },
      ]);
    expect((await accountantMailSetting()).notSent.map((told) => told.month)).toEqual([
      monthAt(20),
      monthAt(21),
    ]);

    // The owner puts her own address, switch off, to get the files herself: they reach her, not the
    // accountant, and both months are still told.
    await saveAccountantMail({ email: own, monthly: false });
    for (const offset of [20, 21]) {
      expect(await sendAccountantFilesNow(periodAt(offset))).toBe("queued");
    }
    await expect
      .poll(() => capture.received.filter((mail) => mail.to.includes(own)).length)
      .toBe(2);
    await expect.poll(() => settled(periodAt(21))).toBe(true);
    await expect.poll(() => settled(periodAt(20))).toBe(true);
    expect((await accountantMailSetting()).notSent.map((told) => told.month)).toEqual([
      monthAt(20),
      monthAt(21),
    ]);

    // The accountant's address again, switch still off: the month claimed for that address is sent.
    await saveAccountantMail({ email: accountant, monthly: false });
    expect(await sendAccountantFilesNow(periodAt(20))).toBe("queued");
    await expect
      .poll(async () => (await accountantMailSetting()).notSent.map((told) => told.month))
      .toEqual([monthAt(21)]);
    // The mistyped month, to the corrected address the monthly e-mail now goes to: sent.
    await saveAccountantMail({ email: accountant, monthly: true });
    expect(await sendAccountantFilesNow(periodAt(21))).toBe("queued");
    await expect.poll(async () => (await accountantMailSetting()).notSent).toEqual([]);
    await saveAccountantMail({ email: "", monthly: false });
  });
});

describe("the accountant's month sent from the page before the monthly run", () => {
  /** The first day of the month `offset` months after this one, 7 h in Paris (5 or 6 h UTC). */
  const firstOf = (offset: number) => new Date(Date.UTC(year, month - 1 + offset, 1, 5));
  /** The whole month `offset` months after this one, as the page's period. */
  const periodAt = (offset: number) => lastMonth(isoDayInParis(firstOf(offset + 1)));
  /** The e-mails of the files of `sent` ever queued, whoever queued them. */
  const mailsOfPeriod = async (sent: { from: string; to: string }) =>
    Number(
      (
        await db().$client.query<{ count: string }>(
          "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'accountant-files' and data->>'from' = $1 and data->>'to' = $2",
          [sent.from, sent.to],
        )
      ).rows[0]?.count,
    );

  it("counts a month sent to the accountant from the page, switch on, as its sending: the run skips it", async () => {
    await db().delete(accountantMonthlyMails);
    await saveAccountantMail({ email: "", monthly: false });
    // Switched on in the middle of a month.
    setClockForTests(new Date(firstOf(40).getTime() + 14 * 86_400_000));
    try {
      await saveAccountantMail({ email: accountant, monthly: true });
    } finally {
      setClockForTests(null);
    }
    // On the 1st at 5 h, before the run's hour, the owner sends that whole month from the page.
    const early = new Date(firstOf(41).getTime() - 2 * 3_600_000);
    expect(await sendAccountantFilesNow(periodAt(40), early)).toBe("claimed");
    // The run at 7 h: that month is sent already, nothing more.
    expect(await sendMonthlyAccountantFiles(firstOf(41))).toBe(false);
    expect(await mailsOfPeriod(periodAt(40))).toBe(1);
    // The page says the month's files left, once the mail server took them.
    await expect
      .poll(async () => (await accountantMailSetting()).lastMonthly)
      .toEqual({ month: periodAt(40).from.slice(0, 7), sentAt: expect.any(Date), waiting: false });

    // The next month, the page's click and the run at the same instant (two servers): one e-mail.
    const [clicked, ran] = await Promise.all([
      sendAccountantFilesNow(periodAt(41), firstOf(42)),
      sendMonthlyAccountantFiles(firstOf(42)),
    ]);
    expect(await mailsOfPeriod(periodAt(41))).toBe(1);
    expect(clicked === "claimed" ? !ran : clicked === "monthly-queued" && ran).toBe(true);
    await expect
      .poll(async () => (await accountantMailSetting()).lastMonthly?.sentAt ?? null)
      .not.toBeNull();
    expect((await accountantMailSetting()).notSent).toEqual([]);

    await saveAccountantMail({ email: "", monthly: false });
  });
});
