import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { blogArticles, blogNewsletterSubscribers } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { submitForm } from "../support/blog-and-newsletter";
import { fetchPage, textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServerWithMail } from "../support/own-server";

/*
 * The whole life of a subscriber, end to end (decisions 0080 and 0081): she signs up on the blog, receives the
 * confirmation e-mail, confirms on its page, receives the article the owner sends, leaves with her mail
 * client's one-click unsubscribe (RFC 8058), comes back, leaves again through the e-mail's link, and receives
 * nothing after. Every form is posted as a browser without JavaScript posts it (the pages' use with the
 * keyboard and the owner's confirmation dialog have their browser tests). A server and SMTP capture of this
 * file's own: a sending goes to every active subscriber.
 */

const { url, mailsTo } = useOwnServerWithMail();
const admin = useAdmin();

const marker = randomBytes(4).toString("hex");
const reader = `lectrice-${marker}@example.com`;
const other = `autre-${marker}@example.com`;

async function article(title: string) {
  const [row] = await serverDatabase()
    .insert(blogArticles)
    .values({
      title,
      slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${marker}`,
      excerpt: `Ce qu'il faut savoir : ${title}.`,
      content: `<p>${title}, tout le texte.</p>`,
      author: "Claire",
      published: true,
      publishedAt: new Date(),
    })
    .returning();
  if (!row) throw new Error("article not stored");
  return row;
}

async function status(email: string) {
  const [row] = await serverDatabase()
    .select({ status: blogNewsletterSubscribers.status })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, email));
  return row?.status;
}

/** Opens the page at `path` and presses its button called `button`, without JavaScript. */
async function press(path: string, button: string | RegExp, options: { cookie?: string } = {}) {
  return submitForm(await fetchPage(path, options), path, button, options);
}

/**
 * The owner sends `articleId` to every active subscriber: the send page's confirmation, as the server renders
 * it open without JavaScript, posted; then its sending's page, until it says it is finished.
 */
async function sendFromAdmin(articleId: string) {
  const sent = await press(
    `/admin/newsletter/envoyer/${articleId}?confirmer-envoi=${articleId}`,
    /^Envoyer à \d+ abonnés?$/,
    { cookie: admin.cookie() },
  );
  expect(sent.status).toBe(302);
  const sending = sent.headers.get("location") ?? "";
  expect(sending).toMatch(/^\/admin\/newsletter\/envois\/[0-9a-f-]{36}$/);
  await expect
    .poll(
      async () => textOf((await fetchPage(sending, { cookie: admin.cookie() })).document.body),
      { timeout: 30_000 },
    )
    .toMatch(/Terminé le /);
}

beforeAll(async () => {
  await serverDatabase()
    .insert(blogNewsletterSubscribers)
    .values({ email: other, consentSource: "blog", status: "active", confirmedAt: new Date() });
});

describe("a subscriber's life", () => {
  it("signs up, confirms, receives an article, leaves in one click and by the link, then receives nothing", async () => {
    // 1. Sign-up on the blog: pending until confirmed, and a confirmation e-mail.
    const signedUp = await submitForm(await fetchPage("/blog"), "/blog", "S'inscrire", {
      fields: { email: reader },
    });
    expect(signedUp.status).toBe(200);
    expect(await status(reader)).toBe("pending");
    await expect.poll(() => mailsTo(reader).length, { timeout: 20_000 }).toBe(1);
    const [confirmation] = mailsTo(reader);
    const link = /https?:\/\/\S+\/newsletter\/confirmation\?token=[\w.-]+/.exec(
      confirmation?.text ?? "",
    )?.[0];
    expect(link, confirmation?.text).toBeDefined();
    expect(confirmation?.html).toContain(`href="${link}"`);

    // 2. The link's page confirms only when its button is pressed.
    const confirmPath = new URL(link ?? "").pathname + new URL(link ?? "").search;
    const confirmPage = await fetchPage(confirmPath);
    expect(await status(reader)).toBe("pending");
    await submitForm(confirmPage, confirmPath, "Confirmer mon inscription");
    expect(await status(reader)).toBe("active");

    // 3. The owner sends an article: one e-mail, both parts, working links, RFC 8058 headers.
    const first = await article("Lumière de novembre");
    await sendFromAdmin(first.id);
    await expect.poll(() => mailsTo(reader).length, { timeout: 20_000 }).toBe(2);
    const newsletter = mailsTo(reader)[1];
    expect(newsletter?.subject).toBe(first.title);
    expect(newsletter?.html).toContain(`href="${url()}/blog/${first.slug}"`);
    expect(newsletter?.text).toContain(`${url()}/blog/${first.slug}`);
    expect((await fetch(`${url()}/blog/${first.slug}`)).status).toBe(200);
    expect(newsletter?.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = /^<(.+)>$/.exec(newsletter?.header("List-Unsubscribe") ?? "")?.[1] ?? "";
    expect(unsubscribe).toMatch(/\/newsletter\/desabonnement\?token=/);
    expect(newsletter?.text).toContain(unsubscribe);
    expect(newsletter?.html).toContain(`href="${unsubscribe.replaceAll("&", "&amp;")}"`);
    // No open-tracking pixel, no rewritten links: the only links are the article's, the site's and hers.
    expect(newsletter?.html).not.toMatch(/<img[^>]+(?:width="1"|height="1")/);

    // 4. Her mail client's one-click unsubscribe: a POST without cookie, from another origin.
    const oneClick = await fetch(unsubscribe, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://mail.example.net",
      },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await status(reader)).toBe("unsubscribed");

    // 5. The link's page says she has left and lets her come back; the link then unsubscribes by its button.
    const unsubscribePath = new URL(unsubscribe).pathname + new URL(unsubscribe).search;
    // Coming back waits for her confirmation, like a sign-up (decision 0081, amended 2026-11-29).
    await press(unsubscribePath, "Me réinscrire");
    expect(await status(reader)).toBe("pending");
    await expect.poll(() => mailsTo(reader).length, { timeout: 20_000 }).toBe(3);
    await press(unsubscribePath, "Me désabonner");
    expect(await status(reader)).toBe("unsubscribed");

    // 6. The next article reaches the other subscriber, not her.
    const second = await article("Neige sur Ussel");
    await sendFromAdmin(second.id);
    await expect.poll(() => mailsTo(other).length, { timeout: 20_000 }).toBe(2);
    expect(mailsTo(other).map((mail) => mail.subject)).toEqual([first.title, second.title]);
    expect(mailsTo(reader).map((mail) => mail.subject)).toEqual([
      confirmation?.subject,
      first.title,
      confirmation?.subject,
    ]);
  });
});
