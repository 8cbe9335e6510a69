import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeMailTransport } from "../mail/transport.server";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { blogArticles, blogNewsletterSubscribers, newsletterDeliveries } from "../db/schema";
import { startWorkers } from "../jobs/workers.server";
import { verifyLinkToken } from "../signed-link.server";
import { createSending, sendingsProgress } from "./sending.server";

useAppDatabase({ jobs: true });

type Received = { to: string; raw: string };
const received: Received[] = [];
let server: SMTPServer;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address, raw });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const { port } = server.server.address() as AddressInfo;
  await startWorkers({
    mail: {
      url: `smtp://127.0.0.1:${port}`,
      from: "Studio <site@example.com>",
      ratePerMinute: 60_000,
    },
  });
});
afterAll(async () => {
  closeMailTransport();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function article(published: boolean) {
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

    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(45);
    await expect
      .poll(async () => (await sendingsProgress({ id: outcome.sendingId }))[0]?.status, {
        timeout: 10_000,
      })
      .toBe("done");
    const [progress] = await sendingsProgress({ id: outcome.sendingId });
    expect(progress).toMatchObject({ total: 45, sent: 45, failed: 0, pending: 0 });
    expect(new Set(received.map((mail) => mail.to)).size).toBe(45);
    expect(received.some((mail) => mail.to === "en-attente@example.com")).toBe(false);

    // Headers unfolded (RFC 5322): long ones continue on the next line after a space.
    const mail = (received[0]?.raw ?? "").replace(/\r?\n[ \t]+/g, " ");
    const link = /^List-Unsubscribe: <(https?:\/\/[^>]+)>/m.exec(mail)?.[1] ?? "";
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const token = new URL(link).searchParams.get("token");
    const check = await verifyLinkToken("newsletter-unsubscribe", token);
    expect(check.ok).toBe(true);
    const rows = await db().execute<{ id: string }>(
      sql`select id from blog_newsletter_subscribers where email = ${received[0]?.to}`,
    );
    expect(check.ok && check.subject).toBe(rows.rows[0]?.id);
    expect(mail).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail).not.toContain("%%LIEN_DESINSCRIPTION%%");
    const deliveries = await db().select().from(newsletterDeliveries);
    expect(deliveries.every((delivery) => delivery.status === "sent")).toBe(true);
  });
});
