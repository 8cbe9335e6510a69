import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeMailTransport } from "../mail/transport.server";
import { useAppDatabase } from "../../../tests/support/database";
import { mailParts, startSmtpCapture } from "../../../tests/support/smtp-capture";
import { db } from "../db/client.server";
import { blogArticles, blogNewsletterSubscribers, newsletterDeliveries } from "../db/schema";
import { startWorkers } from "../boot/jobs.server";
import { verifyLinkToken } from "../signed-link.server";
import { SAMPLE_SUBSCRIBER } from "./links.server";
import {
  activeSubscriberCount,
  createSending,
  enqueueNewsletterTest,
  sendArticle,
  sendingOfArticle,
  sendingsProgress,
} from "./sending.server";

useAppDatabase({ jobs: true });

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
/** Every message received, one entry per recipient. */
const receivedMails = () =>
  smtp.received.flatMap((mail) => mail.to.map((to) => ({ to, raw: mail.raw })));

beforeAll(async () => {
  smtp = await startSmtpCapture();
  await startWorkers({
    mail: { url: smtp.smtpUrl, from: "Studio <site@example.com>", ratePerMinute: 60_000 },
  });
});
afterAll(async () => {
  closeMailTransport();
  await smtp.close();
});

async function article(published: boolean, values: Partial<typeof blogArticles.$inferInsert> = {}) {
  const [row] = await db()
    .insert(blogArticles)
    .values({
      title: `Séance d'automne ${Math.random()}`,
      slug: `seance-automne-${Math.random().toString(36).slice(2)}`,
      excerpt: "Les couleurs de la Corrèze en octobre.",
      content: "<p>Un texte <strong>complet</strong>.</p>",
      author: "Claire",
      published,
      publishedAt: published ? new Date() : null,
      ...values,
    })
    .returning();
  if (!row) throw new Error("no article");
  return row;
}

describe("sending an article", () => {
  it("sends one e-mail to each active subscriber, with its own unsubscribe link, once", async () => {
    await db()
      .insert(blogNewsletterSubscribers)
      .values([
        ...Array.from({ length: 45 }, (_, index) => ({
          email: `abonne-${index}@example.com`,
          consentSource: "blog",
          status: "active" as const,
        })),
        { email: "en-attente@example.com", consentSource: "blog", status: "pending" as const },
        { email: "parti@example.com", consentSource: "blog", status: "unsubscribed" as const },
      ]);
    const draft = await article(false);
    expect(await createSending({ articleId: draft.id, createdBy: null })).toEqual({
      kind: "not-published",
    });
    const published = await article(true);
    const outcome = await createSending({ articleId: published.id, createdBy: null });
    expect(outcome).toMatchObject({ kind: "created", total: 45 });
    if (outcome.kind !== "created") throw new Error("not created");
    // Twice (a double click, the scheduler): the same sending, nothing more.
    expect(await createSending({ articleId: published.id, createdBy: null })).toEqual({
      kind: "already-sent",
      sendingId: outcome.sendingId,
    });

    await expect.poll(() => receivedMails().length, { timeout: 30_000 }).toBe(45);
    await expect
      .poll(async () => (await sendingsProgress({ id: outcome.sendingId }))[0]?.status, {
        timeout: 10_000,
      })
      .toBe("done");
    const [progress] = await sendingsProgress({ id: outcome.sendingId });
    expect(progress).toMatchObject({ total: 45, sent: 45, failed: 0, pending: 0 });
    expect(new Set(receivedMails().map((mail) => mail.to)).size).toBe(45);
    expect(receivedMails().some((mail) => mail.to === "en-attente@example.com")).toBe(false);

    // Headers unfolded (RFC 5322): long ones continue on the next line after a space.
    const mail = (receivedMails()[0]?.raw ?? "").replace(/\r?\n[ \t]+/g, " ");
    const link = /^List-Unsubscribe: <(https?:\/\/[^>]+)>/m.exec(mail)?.[1] ?? "";
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const token = new URL(link).searchParams.get("token");
    const check = await verifyLinkToken("newsletter-unsubscribe", token);
    expect(check.ok).toBe(true);
    const rows = await db().execute<{ id: string }>(
      sql`select id from blog_newsletter_subscribers where email = ${receivedMails()[0]?.to}`,
    );
    expect(check.ok && check.subject).toBe(rows.rows[0]?.id);
    expect(mail).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail).not.toContain("%%LIEN_DESINSCRIPTION%%");
    const deliveries = await db().select().from(newsletterDeliveries);
    expect(deliveries.every((delivery) => delivery.status === "sent")).toBe(true);
  });

  it("skips the subscribers who left or were deleted once it was created, and finishes", async () => {
    const [leaving, deleted] = await db()
      .insert(blogNewsletterSubscribers)
      .values([
        { email: "partie-entre-temps@example.com", consentSource: "blog", status: "active" },
        { email: "supprime-entre-temps@example.com", consentSource: "blog", status: "active" },
      ])
      .returning();
    if (!leaving || !deleted) throw new Error("no subscribers");
    const published = await article(true, { title: "Envoi avec départs" });
    const total = await activeSubscriberCount();
    // The sending and the departures commit together: its batches run after both.
    const outcome = await db().transaction(async (tx) => {
      const created = await createSending({ articleId: published.id, createdBy: null }, tx);
      await tx
        .update(blogNewsletterSubscribers)
        .set({ status: "unsubscribed" })
        .where(eq(blogNewsletterSubscribers.id, leaving.id));
      await tx
        .delete(blogNewsletterSubscribers)
        .where(eq(blogNewsletterSubscribers.id, deleted.id));
      return created;
    });
    expect(outcome).toMatchObject({ kind: "created", total });
    if (outcome.kind !== "created") throw new Error("not created");
    await expect
      .poll(async () => (await sendingsProgress({ id: outcome.sendingId }))[0]?.status, {
        timeout: 30_000,
      })
      .toBe("done");
    const [progress] = await sendingsProgress({ id: outcome.sendingId });
    expect(progress).toMatchObject({ total, sent: total - 2, skipped: 2, failed: 0, pending: 0 });
    expect(messagesTo("partie-entre-temps@example.com", "Envoi avec départs")).toHaveLength(0);
    expect(messagesTo("supprime-entre-temps@example.com", "Envoi avec départs")).toHaveLength(0);
    expect(messagesTo("abonne-0@example.com", "Envoi avec départs")).toHaveLength(1);
  });
});

/** The messages received by `to` with this subject. */
function messagesTo(to: string, subject: string) {
  return receivedMails()
    .filter((mail) => mail.to === to)
    .map((mail) => mailParts(mail.raw))
    .filter((mail) => mail.subject === subject);
}

describe("the owner's send page", () => {
  it("sends a test to an administrator: the article as subscribers get it, « [Test] », a link of nobody", async () => {
    const draft = await article(false, { title: "Brouillon à tester", slug: "brouillon-a-tester" });
    await enqueueNewsletterTest({
      articleId: draft.id,
      mode: "full",
      to: "proprietaire@example.com",
    });
    await expect
      .poll(() => receivedMails().filter((mail) => mail.to === "proprietaire@example.com").length, {
        timeout: 20_000,
      })
      .toBe(1);
    const mail = mailParts(
      receivedMails().find((mail) => mail.to === "proprietaire@example.com")?.raw ?? "",
    );
    expect(mail.subject).toBe("[Test] Brouillon à tester");
    // The whole text is in both parts ('full'), and the unsubscribe link belongs to nobody.
    expect(mail.html).toContain("Un texte <strong>complet</strong>.");
    expect(mail.text).toContain("Un texte complet.");
    const link = /^<(https?:\/\/[^>]+)>$/.exec(mail.header("List-Unsubscribe"))?.[1] ?? "";
    expect(mail.html).toContain(link.replaceAll("&", "&amp;"));
    expect(mail.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const check = await verifyLinkToken(
      "newsletter-unsubscribe",
      new URL(link).searchParams.get("token"),
    );
    expect(check).toEqual({ ok: true, subject: SAMPLE_SUBSCRIBER });
    // Nothing was sent to the subscribers, and the draft is no sending.
    expect(await sendingOfArticle(draft.id)).toBeNull();
  });

  it("publishes a draft and sends it in one go; a draft that cannot be published is neither", async () => {
    const incomplete = await article(false, { excerpt: "" });
    expect(
      await sendArticle({
        articleId: incomplete.id,
        createdBy: null,
        mode: "excerpt",
        publish: true,
      }),
    ).toEqual({ kind: "not-publishable" });
    const [stillDraft] = await db()
      .select()
      .from(blogArticles)
      .where(sql`${blogArticles.id} = ${incomplete.id}`);
    expect(stillDraft).toMatchObject({ published: false, publishedAt: null });
    expect(await sendingOfArticle(incomplete.id)).toBeNull();

    const scheduled = await article(false, {
      title: "Publié et envoyé",
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    // « Envoyer » alone refuses a draft.
    expect(
      await sendArticle({
        articleId: scheduled.id,
        createdBy: null,
        mode: "excerpt",
        publish: false,
      }),
    ).toEqual({ kind: "not-published" });
    const outcome = await sendArticle({
      articleId: scheduled.id,
      createdBy: null,
      mode: "excerpt",
      publish: true,
    });
    const subscribers = await activeSubscriberCount();
    expect(outcome).toMatchObject({ kind: "created", total: subscribers });
    const [published] = await db()
      .select()
      .from(blogArticles)
      .where(sql`${blogArticles.id} = ${scheduled.id}`);
    expect(published?.published).toBe(true);
    expect(published?.publishedAt).toBeInstanceOf(Date);
    expect(published?.scheduledAt).toBeNull();
    // Again (a second click): refused, nothing more.
    expect(
      await sendArticle({
        articleId: scheduled.id,
        createdBy: null,
        mode: "excerpt",
        publish: true,
      }),
    ).toMatchObject({ kind: "already-sent" });
    await expect
      .poll(() => messagesTo("abonne-0@example.com", "Publié et envoyé").length, {
        timeout: 30_000,
      })
      .toBe(1);
    await expect
      .poll(async () => (await sendingOfArticle(scheduled.id))?.status, { timeout: 30_000 })
      .toBe("done");
  });

  it("leaves a draft unpublished when there is nobody to send it to", async () => {
    await db().execute(
      sql`update blog_newsletter_subscribers set status = 'unsubscribed' where status = 'active'`,
    );
    expect(await activeSubscriberCount()).toBe(0);
    const draft = await article(false);
    expect(
      await sendArticle({ articleId: draft.id, createdBy: null, mode: "full", publish: true }),
    ).toEqual({ kind: "no-subscribers" });
    const [row] = await db()
      .select()
      .from(blogArticles)
      .where(sql`${blogArticles.id} = ${draft.id}`);
    expect(row).toMatchObject({ published: false, publishedAt: null });
    expect(await sendingOfArticle(draft.id)).toBeNull();
  });
});
