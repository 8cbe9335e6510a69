import { randomBytes, randomUUID } from "node:crypto";
import { like, or, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { rateLimits } from "../../app/server/db/schema";
import { formatLongDateTimeFr } from "../../app/lib/dates";
import { NEWSLETTER_CONSENT_TEXT } from "../../app/lib/newsletter";
import { CONFIRMATION_LIFETIME_DAYS } from "../../app/lib/newsletter-links";
import {
  activeSubscriber,
  confirmationLinks,
  deleteSubscribers,
  linksThatLeadNowhere,
  linkUrl,
  ownLoopbackAddress,
  requestFrom,
  submitForm,
  subscriber,
} from "../support/blog-and-newsletter";
import { patiently } from "../support/blog-fixtures";
import { fetchPage, metaContent, textOf } from "../support/html";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { mailsTo } from "../support/smtp-capture";

/*
 * Double opt-in and unsubscribe over HTTP (decision 0081): the sign-up form and the e-mailed
 * links' buttons posted as a browser without JavaScript posts them, the confirmation e-mail caught by the
 * shared server's SMTP capture, the unsubscribe link a newsletter carries (signed with the server's
 * AUTH_SECRET, as the server signs it) taken by a mail provider's one-click POST, forged, expired and test
 * links. The pages' keyboard use, focus and accessibility are in tests/e2e/newsletter-optin.test.ts.
 */

const baseUrl = serverBaseUrl();
const mailboxUrl = inject("mailboxUrl");
const marker = randomBytes(4).toString("hex");
const address = (name: string) => `optin-${name}-${marker}@example.com`;

// This file's own client: the per-client limits of sign-ups and link presses count it apart from every
// other file's (which count from 127.0.0.1), and the budgets test spends those of a client of its own.
const client = ownLoopbackAddress();
const spentClient = ownLoopbackAddress();

afterAll(async () => {
  await deleteSubscribers(`optin-%-${marker}@example.com`);
  await serverDatabase()
    .delete(rateLimits)
    .where(or(like(rateLimits.key, `%:${client}`), like(rateLimits.key, `%:${spentClient}`)));
});

/** A POST from `from`, as a mail provider sends it: form-encoded, from another site, no cookie. */
const providerPost = (path: string, body: string, from?: string) =>
  requestFrom(path, {
    method: "POST",
    body,
    from,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "https://mail.example.net",
    },
  });

const heading = (document: Document) => textOf(document.querySelector("h1"));

describe("double opt-in", () => {
  it("signs up pending, e-mails a link whose page confirms only with its button, and records the consent", async () => {
    const email = address("inscrite");
    const blog = await requestFrom("/blog", { from: client });
    const signedUp = await submitForm(blog, "/blog", "S'inscrire", {
      fields: { email },
      from: client,
    });
    expect(signedUp.status).toBe(200);
    const pending = await subscriber(email);
    expect(pending).toMatchObject({
      status: "pending",
      consentSource: "blog",
      consentPage: "/blog",
      consentText: NEWSLETTER_CONSENT_TEXT,
      confirmedAt: null,
    });
    expect(pending.confirmationSentAt).toBeInstanceOf(Date);

    await expect.poll(async () => (await mailsTo(mailboxUrl, email)).length, patiently).toBe(1);
    const [mail] = await mailsTo(mailboxUrl, email);
    if (!mail) throw new Error("pas d'e-mail");
    expect(mail.subject).toMatch(/^Confirmez votre inscription à la newsletter de .+/);
    expect(mail.headers["content-type"]).toMatch(/^multipart\/alternative/);
    const { inText, inHtml } = confirmationLinks(mail);
    expect(inText).toBeDefined();
    expect(inHtml).toBe(inText);
    const link = new URL(inText ?? "");
    expect(link.origin).toBe(new URL(baseUrl).origin);
    // Valid until the sign-up's own date plus the days the purge waits, said in French.
    const sentAt = pending.confirmationSentAt?.getTime() ?? 0;
    const until = new Date(sentAt + CONFIRMATION_LIFETIME_DAYS * 24 * 60 * 60 * 1000);
    expect(mail.text).toContain(`Ce lien est valable jusqu'au ${formatLongDateTimeFr(until)}.`);

    // Opening the link (as a mail scanner does) shows the page and changes nothing.
    const path = `${link.pathname}${link.search}`;
    const page = await fetchPage(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    // The token in the address is never sent to another site as a referrer.
    expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(heading(page.document)).toBe("Confirmez votre inscription");
    expect(textOf(page.document.querySelector("main"))).toContain(email);
    expect(metaContent(page.document, "robots")).toBe("noindex, nofollow");
    expect((await subscriber(email)).status).toBe("pending");

    // Its button, posted (as without JavaScript), confirms.
    const before = Date.now();
    const confirmed = await submitForm(page, path, "Confirmer mon inscription", { from: client });
    expect(confirmed.status).toBe(200);
    expect(heading(confirmed.document)).toBe("Inscription confirmée");
    const active = await subscriber(email);
    expect(active).toMatchObject({
      status: "active",
      active: true,
      consentSource: "blog",
      consentPage: "/blog",
      consentText: NEWSLETTER_CONSENT_TEXT,
    });
    expect(active.confirmedAt?.getTime()).toBeGreaterThan(before - 60_000);
    expect(active.lastActivityAt.getTime()).toBeGreaterThan(before - 60_000);

    // The link again, later: said kindly, nothing changes.
    expect(heading((await fetchPage(path)).document)).toBe("Inscription déjà confirmée");
    expect((await subscriber(email)).confirmedAt).toEqual(active.confirmedAt);
  });
});

describe("unsubscribe", () => {
  it("takes a mail provider's one-click POST (RFC 8058: no cookie, another site's Origin): 200, unsubscribed", async () => {
    const row = await activeSubscriber(address("un-clic"));
    const url = `${baseUrl}${linkUrl("newsletter-unsubscribe", row.id)}`;
    // Opening the link changes nothing.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect((await subscriber(row.email)).status).toBe("active");

    const before = Date.now();
    const oneClick = await fetch(url, {
      method: "POST",
      headers: {
        Origin: "https://mail.example.net",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain("Vous êtes désabonné·e");
    const left = await subscriber(row.email);
    expect(left).toMatchObject({ status: "unsubscribed", active: false });
    expect(left.unsubscribedAt?.getTime()).toBeGreaterThan(before - 60_000);

    // Again (a provider retrying), and in multipart form: still 200, nothing more changes.
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    const again = await fetch(url, { method: "POST", body: form });
    expect(again.status).toBe(200);
    expect((await subscriber(row.email)).unsubscribedAt).toEqual(left.unsubscribedAt);
  });

  it("unsubscribes with the page's button posted without JavaScript", async () => {
    const row = await activeSubscriber(address("sans-js-depart"));
    const path = linkUrl("newsletter-unsubscribe", row.id);
    const left = await submitForm(await fetchPage(path), path, "Me désabonner");
    expect(left.status).toBe(200);
    expect(heading(left.document)).toBe("Vous êtes désabonné·e");
    expect((await subscriber(row.email)).status).toBe("unsubscribed");
  });

  it("honours a genuine unsubscribe from a client whose budgets are spent, and refuses only the rest", async () => {
    // A client whose budgets other users behind the same proxy would have spent.
    const nowhere = linkUrl("newsletter-unsubscribe", randomUUID());
    expect((await providerPost(nowhere, "List-Unsubscribe=One-Click", spentClient)).status).toBe(
      404,
    );
    expect(
      (await providerPost("/newsletter/desabonnement", "token=abc.def", spentClient)).status,
    ).toBe(400);
    const spent = await serverDatabase()
      .update(rateLimits)
      .set({ count: 100_000 })
      .where(
        sql`${rateLimits.key} like ${"newsletter-%"} and ${rateLimits.key} like ${`%${spentClient}`}`,
      )
      .returning();
    expect(spent).toHaveLength(2);

    const row = await activeSubscriber(address("budget-epuise"));
    const url = linkUrl("newsletter-unsubscribe", row.id);
    const oneClick = await providerPost(url, "List-Unsubscribe=One-Click", spentClient);
    expect(oneClick.status).toBe(200);
    expect(oneClick.html).toContain("Vous êtes désabonné·e");
    expect((await subscriber(row.email)).status).toBe("unsubscribed");

    // What can be abused stays counted: « Me réinscrire » (from the site's own page: from another site it is
    // refused outright, tests/http/newsletter-resubscribe), a token that leads nowhere.
    const token = new URL(url, baseUrl).searchParams.get("token") ?? "";
    const back = await requestFrom("/newsletter/desabonnement", {
      method: "POST",
      body: new URLSearchParams({ token, intent: "reinscrire" }).toString(),
      from: spentClient,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    });
    expect(back.status).toBe(429);
    expect(back.html).toContain("Trop de tentatives");
    expect((await subscriber(row.email)).status).toBe("unsubscribed");
    expect((await providerPost(nowhere, "List-Unsubscribe=One-Click", spentClient)).status).toBe(
      429,
    );
  });
});

describe("links that lead nowhere", () => {
  it("answers a forged or altered link 400, an expired or orphaned one 404, a test e-mail's 200, in French", async () => {
    const row = await activeSubscriber(address("cible"));
    const expected = linksThatLeadNowhere(row.id);
    for (const [path, status, title] of expected) {
      const answer = await fetchPage(path);
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
      expect(heading(answer.document), path).toBe(title);
    }
    // Posting them (a provider's one-click included) changes nothing and is no server error.
    for (const [path, status] of expected) {
      const answer = await requestFrom(path, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        from: client,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(answer.status, path).toBe(status);
    }
    expect((await subscriber(row.email)).status).toBe("active");
  });

  it("keeps crawlers out: robots.txt disallows /newsletter/, the sitemap does not list it", async () => {
    const robots = await (await fetch(`${baseUrl}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/newsletter\/$/m);
    const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
    expect(sitemap).toContain("<loc>");
    expect(sitemap).not.toContain("/newsletter");
  });
});
