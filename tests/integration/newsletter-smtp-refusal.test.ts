import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../app/server/db/client.server";
import { blogArticles, mailFailures, newsletterDeliveries } from "../../app/server/db/schema";
import { startWorkers } from "../../app/server/boot/jobs.server";
import { closeMailTransport } from "../../app/server/mail/transport.server";
import { createSending, sendingsProgress } from "../../app/server/newsletter/sending.server";
import { useAppDatabase } from "../support/database";
import {
  duplicates,
  startScriptedSmtp,
  type ScriptedSmtp,
  type SmtpAnswer,
} from "../support/scripted-smtp";

// Decision 0080: the mail server refusing for a while delays a sending but neither loses nor repeats an
// e-mail; an address it refuses for good is given up alone. The workers run in this process against a
// loopback SMTP server whose answers each test writes.

useAppDatabase({ jobs: true });

let smtp: ScriptedSmtp;
let onRecipient: (address: string) => SmtpAnswer = () => "accept";

beforeAll(async () => {
  smtp = await startScriptedSmtp({ onRecipient: (address) => onRecipient(address) });
  await startWorkers({
    mail: { url: smtp.url, from: "Studio <site@example.com>", ratePerMinute: 60_000 },
  });
});

afterAll(async () => {
  closeMailTransport();
  await smtp.close();
});

/** `count` new active subscribers named `prefix-N@example.com`, the earlier ones having left. */
async function onlySubscribers(prefix: string, count: number) {
  await db().execute(sql`update blog_newsletter_subscribers set status = 'unsubscribed'`);
  await db().execute(sql`
    insert into blog_newsletter_subscribers (email, consent_source, status, confirmed_at)
    select ${prefix} || '-' || i || '@example.com', 'blog', 'active', now()
    from generate_series(1, ${count}) as i
  `);
}

async function sendArticle(slug: string, total: number): Promise<string> {
  const [article] = await db()
    .insert(blogArticles)
    .values({
      title: `Portraits au marché de Brive (${slug})`,
      slug,
      excerpt: "Un samedi matin sous la halle Georges-Brassens.",
      content: "<p>Des visages et des couleurs.</p>",
      author: "Claire",
      published: true,
      publishedAt: new Date(),
    })
    .returning();
  if (!article) throw new Error("no article");
  const outcome = await createSending({ articleId: article.id, createdBy: null });
  expect(outcome).toMatchObject({ kind: "created", total });
  if (outcome.kind !== "created") throw new Error("not created");
  return outcome.sendingId;
}

const acceptedOf = (sendingId: string) =>
  smtp.accepted.filter((mail) => mail.messageId.includes(sendingId));

async function waitUntilDone(sendingId: string) {
  await expect
    .poll(async () => (await sendingsProgress({ id: sendingId }))[0]?.status, {
      timeout: 120_000,
      interval: 250,
    })
    .toBe("done");
}

describe("the mail server refusing", () => {
  it(
    "for 10 s in the middle of a sending of 300 (4xx): each e-mail is delivered once it accepts again, the attempts noted as not final",
    { timeout: 180_000 },
    async () => {
      await onlySubscribers("refus", 300);
      const refusalMs = 10_000;
      let refusingFrom: number | undefined;
      let sendingId = "";
      onRecipient = () => {
        if (refusingFrom === undefined && sendingId && acceptedOf(sendingId).length >= 100) {
          refusingFrom = Date.now();
        }
        if (refusingFrom !== undefined && Date.now() < refusingFrom + refusalMs) {
          return { code: 451, message: "4.7.1 Trop d'envois, réessayez plus tard" };
        }
        return "accept";
      };
      sendingId = await sendArticle("marche-brive-refus", 300);

      await waitUntilDone(sendingId);
      const accepted = acceptedOf(sendingId);
      expect(smtp.refusals()).toBeGreaterThan(0);
      expect(duplicates(accepted)).toEqual([]);
      expect(accepted).toHaveLength(300);
      // Nothing was accepted while the server refused.
      const during = accepted.filter(
        (mail) => mail.at > (refusingFrom ?? 0) && mail.at < (refusingFrom ?? 0) + refusalMs,
      );
      expect(during).toEqual([]);

      const [progress] = await sendingsProgress({ id: sendingId });
      expect(progress).toMatchObject({ total: 300, sent: 300, failed: 0, pending: 0 });
      const retried = await db()
        .select()
        .from(newsletterDeliveries)
        .where(
          and(
            eq(newsletterDeliveries.sendingId, sendingId),
            sql`${newsletterDeliveries.attempts} > 1`,
          ),
        );
      expect(retried.length).toBeGreaterThan(0);
      expect(retried.every((delivery) => delivery.status === "sent")).toBe(true);

      const failures = await db()
        .select()
        .from(mailFailures)
        .where(eq(mailFailures.kind, "newsletter"));
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.every((failure) => !failure.final)).toBe(true);
      expect(failures[0]?.error).toBe(
        "Destinataire refusé pour l'instant (réponse du serveur : « 451 4.7.1 Trop d'envois, réessayez plus tard ») ; nouvel essai prévu.",
      );
    },
  );

  it("for a while for one address (452 at RCPT TO): the others of its batch leave at once, it follows later", async () => {
    await db().delete(mailFailures);
    // 60 a batch at this pace: one batch holds them all, the full mailbox among the first.
    await onlySubscribers("plein", 60);
    const full = "plein-1@example.com";
    let refusals = 0;
    onRecipient = (address) => {
      if (address !== full || refusals >= 2) return "accept";
      refusals += 1;
      return { code: 452, message: "4.2.2 Boîte pleine, réessayez plus tard" };
    };
    const sendingId = await sendArticle("marche-brive-boite-pleine", 60);

    // The 59 others are accepted while the full mailbox still waits for its next attempt.
    await expect
      .poll(() => acceptedOf(sendingId).length, { timeout: 30_000, interval: 100 })
      .toBe(59);
    expect(acceptedOf(sendingId).some((mail) => mail.to === full)).toBe(false);
    await waitUntilDone(sendingId);
    const accepted = acceptedOf(sendingId);
    expect(accepted).toHaveLength(60);
    expect(duplicates(accepted)).toEqual([]);
    expect(accepted.at(-1)?.to).toBe(full);
    const failures = await db().select().from(mailFailures);
    expect(failures.map((failure) => [failure.recipient, failure.final])).toEqual([
      [full, false],
      [full, false],
    ]);
  });

  it("for good for one address (5xx): that delivery fails, the others are sent, the sending ends", async () => {
    await db().delete(mailFailures);
    await onlySubscribers("definitif", 120);
    const refused = "definitif-42@example.com";
    onRecipient = (address) =>
      address === refused ? { code: 550, message: "5.1.1 Boîte inconnue" } : "accept";
    const sendingId = await sendArticle("marche-brive-definitif", 120);

    await waitUntilDone(sendingId);
    const accepted = acceptedOf(sendingId);
    expect(accepted).toHaveLength(119);
    expect(duplicates(accepted)).toEqual([]);
    expect(accepted.some((mail) => mail.to === refused)).toBe(false);
    const [progress] = await sendingsProgress({ id: sendingId });
    expect(progress).toMatchObject({ total: 120, sent: 119, failed: 1, pending: 0 });

    const failed = await db()
      .select()
      .from(newsletterDeliveries)
      .where(
        and(
          eq(newsletterDeliveries.sendingId, sendingId),
          eq(newsletterDeliveries.status, "failed"),
        ),
      );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      attempts: 1,
      error:
        "Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 5.1.1 Boîte inconnue »).",
    });
    const failures = await db().select().from(mailFailures);
    expect(failures).toEqual([
      expect.objectContaining({ kind: "newsletter", recipient: refused, final: true }),
    ]);
  });
});
