import { randomBytes, randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import { eq, like, or, sql } from "drizzle-orm";
import type { Page, Request as BrowserRequest } from "playwright-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import { blogNewsletterSubscribers, rateLimits } from "../../app/server/db/schema";
import { signLinkTokenWith, type LinkPurpose } from "../../app/server/signed-link.server";
import { formatLongDateTimeFr } from "../../app/lib/dates";
import { NEWSLETTER_CONSENT_TEXT, newsletterPendingStatus } from "../../app/lib/newsletter";
import {
  CONFIRMATION_LIFETIME_DAYS,
  RESUBSCRIBE_CONSENT_TEXT,
} from "../../app/lib/newsletter-links";
import { mailsTo } from "../support/smtp-capture";
import { patiently } from "../support/blog-fixtures";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

/*
 * Double opt-in and unsubscribe, as a subscriber lives them (issue 12, items 1, 2 and 7): the sign-up in
 * the browser, the confirmation e-mail caught by the shared server's SMTP capture, its link's page and
 * button; the unsubscribe link a newsletter carries (signed here with the server's AUTH_SECRET, as the
 * server signs it), taken by a mail provider's one-click POST or by the page's button; re-subscription;
 * forged, expired and test links.
 */

const { openPage, baseUrl } = useBrowser();
const mailboxUrl = inject("mailboxUrl");
const authSecret = inject("authSecret");
const { hostname, port } = new URL(baseUrl);

const marker = randomBytes(4).toString("hex");
const address = (name: string) => `optin-${name}-${marker}@example.com`;

// The sign-up's own loopback address (127.x.y.z all reach the server): other files sign up from
// 127.0.0.1 at the same time, and the per-client limit of sign-ups must count neither against the other.
const signUpAddress = `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;

afterAll(async () => {
  const database = serverDatabase();
  await database
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, `optin-%-${marker}@example.com`));
  await database
    .delete(rateLimits)
    .where(
      or(
        like(rateLimits.key, `%${signUpAddress}%`),
        like(rateLimits.key, "newsletter-lien:%"),
        like(rateLimits.key, "newsletter-un-clic:%"),
      ),
    );
});

// Pages answering 400 or 404 show in the console as failed loads; nothing else may.
const failedLoads = [/status of 40[04]/];

const linkUrl = (purpose: LinkPurpose, subject: string, options = {}) => {
  const token = signLinkTokenWith(authSecret, purpose, subject, options);
  const page = purpose === "newsletter-confirm" ? "confirmation" : "desabonnement";
  return `/newsletter/${page}?token=${token}`;
};

async function subscriber(email: string) {
  const [row] = await serverDatabase()
    .select()
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, email));
  if (!row) throw new Error(`Aucun abonné ${email}`);
  return row;
}

async function activeSubscriber(name: string) {
  const [row] = await serverDatabase()
    .insert(blogNewsletterSubscribers)
    .values({
      email: address(name),
      status: "active",
      consentSource: "blog",
      confirmedAt: new Date(),
    })
    .returning();
  if (!row) throw new Error("abonné non créé");
  return row;
}

/** Sends the request from `signUpAddress` instead of the browser's 127.0.0.1, and answers it as is. */
async function fromOwnAddress(request: BrowserRequest) {
  const url = new URL(request.url());
  const headers = Object.fromEntries(
    Object.entries(await request.allHeaders()).filter(
      ([name]) =>
        !name.startsWith(":") &&
        !["host", "connection", "content-length", "accept-encoding"].includes(name),
    ),
  );
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
    (resolve, reject) => {
      const forwarded = http.request(
        {
          host: hostname,
          port,
          method: request.method(),
          path: `${url.pathname}${url.search}`,
          localAddress: signUpAddress,
          headers: { ...headers, "content-length": body.length },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: Object.fromEntries(
                Object.entries(response.headers)
                  .filter(
                    ([name]) => !["connection", "keep-alive", "transfer-encoding"].includes(name),
                  )
                  .map(([name, value]) => [
                    name,
                    Array.isArray(value) ? value.join("\n") : String(value),
                  ]),
              ),
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      forwarded.on("error", reject);
      forwarded.end(body);
    },
  );
}

/** A POST from the loopback address `client` (a client of its own for the rate limits), as a mail provider sends it. */
function postFrom(client: string, path: string, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port,
        method: "POST",
        path,
        localAddress: client,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
          origin: "https://mail.example.net",
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("délai dépassé")));
    request.on("error", reject);
    request.end(body);
  });
}

async function signUpOnBlog(page: Page, email: string) {
  await page.route(
    (url) => url.pathname.startsWith("/blog"),
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await route.fulfill(await fromOwnAddress(route.request()));
    },
  );
  const block = page.getByRole("region", { name: "Restez inspiré·e" });
  await block.getByRole("textbox", { name: "Votre adresse email" }).fill(email);
  await block.getByRole("button", { name: "S'inscrire" }).click();
  return block;
}

/** Moves the focus with Tab, as a keyboard user would, until it is on the button called `name`. */
async function tabTo(page: Page, name: string) {
  for (let step = 0; step < 60; step++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      return element?.tagName === "BUTTON" ? element.textContent : null;
    });
    if (focused === name) return;
  }
  throw new Error(`Le bouton « ${name} » n'est pas atteignable au clavier`);
}

async function heading(page: Page) {
  const title = page.getByRole("heading", { level: 1 });
  await title.waitFor();
  return title.textContent();
}

async function headingAfter(page: Page, text: string) {
  await expect
    .poll(() => page.getByRole("heading", { level: 1 }).textContent(), patiently)
    .toBe(text);
}

/** The address of the confirmation page in the e-mail's text, checked against its HTML's link. */
function confirmationLinks(mail: { text: string; html: string }) {
  const pattern = /https?:\/\/[^\s"<>]+\/newsletter\/confirmation\?token=[A-Za-z0-9_.-]+/;
  const inText = pattern.exec(mail.text)?.[0];
  const inHtml = new RegExp(`href="(${pattern.source})"`).exec(mail.html)?.[1];
  return { inText, inHtml };
}

describe("double opt-in", () => {
  it("signs up pending, e-mails a link whose page confirms only with its button, and records the consent", async () => {
    const email = address("inscrite");
    const blog = await openPage("/blog");
    const block = await signUpOnBlog(blog, email);
    await expect
      .poll(() => block.getByRole("status").textContent(), patiently)
      .toBe(`${newsletterPendingStatus.title} ${newsletterPendingStatus.description}`);
    // SPEC §8's toast, word for word.
    const toast = blog.locator("[data-sonner-toast]").filter({ hasText: "Inscription réussie !" });
    await expect.poll(() => toast.isVisible(), patiently).toBe(true);

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
    const page = await openPage(`${link.pathname}${link.search}`);
    expect(await heading(page)).toBe("Confirmez votre inscription");
    expect(await page.getByText(email).isVisible()).toBe(true);
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe(
      "noindex, nofollow",
    );
    expect(await axeViolations(page)).toEqual([]);
    expect((await subscriber(email)).status).toBe("pending");
    const response = await fetch(link);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    // The token in the address is never sent to another site as a referrer.
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect((await subscriber(email)).status).toBe("pending");

    // The button, reached and pressed with the keyboard, confirms.
    const before = Date.now();
    await tabTo(page, "Confirmer mon inscription");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Inscription confirmée");
    expect(
      await page.evaluate(() => document.activeElement?.tagName === "H1"),
      "la page annonce son nouvel état",
    ).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
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
    await page.goto(`${link.pathname}${link.search}`);
    expect(await heading(page)).toBe("Inscription déjà confirmée");
    expect((await subscriber(email)).confirmedAt).toEqual(active.confirmedAt);
  });

  it("confirms without JavaScript too", async () => {
    const [row] = await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values({ email: address("sans-js"), consentSource: "article", status: "pending" })
      .returning();
    const page = await openPage(
      linkUrl("newsletter-confirm", row?.id ?? "", { lifetimeSeconds: 600 }),
      {
        javaScriptEnabled: false,
      },
    );
    await page.getByRole("button", { name: "Confirmer mon inscription" }).click();
    await page.waitForLoadState();
    expect(await heading(page)).toBe("Inscription confirmée");
    expect((await subscriber(address("sans-js"))).status).toBe("active");
  });
});

describe("unsubscribe", () => {
  it("takes a mail provider's one-click POST (RFC 8058: no cookie, another site's Origin): 200, unsubscribed", async () => {
    const row = await activeSubscriber("un-clic");
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

  it("unsubscribes with the page's button, then re-subscribes with the consent recorded", async () => {
    const row = await activeSubscriber("bouton");
    const page = await openPage(linkUrl("newsletter-unsubscribe", row.id));
    expect(await heading(page)).toBe("Se désabonner de la newsletter");
    expect(await axeViolations(page)).toEqual([]);
    expect((await subscriber(row.email)).status).toBe("active");

    await tabTo(page, "Me désabonner");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Vous êtes désabonné·e");
    expect(await page.getByText("C'est fait.").isVisible()).toBe(true);
    expect(await page.getByText(RESUBSCRIBE_CONSENT_TEXT).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    const left = await subscriber(row.email);
    expect(left.status).toBe("unsubscribed");
    expect(left.unsubscribedAt).toBeInstanceOf(Date);

    const before = Date.now();
    await tabTo(page, "Me réinscrire");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Vous êtes de nouveau inscrit·e");
    expect(await axeViolations(page)).toEqual([]);
    const back = await subscriber(row.email);
    expect(back).toMatchObject({
      status: "active",
      consentSource: "reinscription",
      consentPage: "/newsletter/desabonnement",
      consentText: RESUBSCRIBE_CONSENT_TEXT,
      unsubscribedAt: null,
    });
    expect(back.subscribedAt.getTime()).toBeGreaterThan(before - 60_000);
    expect(back.confirmedAt?.getTime()).toBeGreaterThan(before - 60_000);
  });

  it("asks an address that left days ago to confirm « Me réinscrire » by e-mail, then confirms it", async () => {
    const row = await activeSubscriber("ancienne");
    await serverDatabase()
      .update(blogNewsletterSubscribers)
      .set({
        status: "unsubscribed",
        unsubscribedAt: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000),
      })
      .where(eq(blogNewsletterSubscribers.id, row.id));
    // An old newsletter's link, forwarded or archived: it proves the address no more.
    const page = await openPage(linkUrl("newsletter-unsubscribe", row.id));
    expect(await heading(page)).toBe("Vous êtes désabonné·e");
    await tabTo(page, "Me réinscrire");
    await page.keyboard.press("Enter");
    await headingAfter(page, "Confirmez votre réinscription");
    expect(await page.getByText(/nous avons envoyé un email de confirmation/).isVisible()).toBe(
      true,
    );
    expect(await axeViolations(page)).toEqual([]);
    const pending = await subscriber(row.email);
    expect(pending).toMatchObject({
      status: "pending",
      consentSource: "reinscription",
      consentPage: "/newsletter/desabonnement",
      consentText: RESUBSCRIBE_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });

    await expect.poll(async () => (await mailsTo(mailboxUrl, row.email)).length, patiently).toBe(1);
    const [mail] = await mailsTo(mailboxUrl, row.email);
    const { inText } = confirmationLinks(mail ?? { text: "", html: "" });
    if (!inText) throw new Error("pas de lien de confirmation");
    const link = new URL(inText);
    const confirm = await openPage(`${link.pathname}${link.search}`);
    await confirm.getByRole("button", { name: "Confirmer mon inscription" }).click();
    await headingAfter(confirm, "Inscription confirmée");
    expect((await subscriber(row.email)).status).toBe("active");
  });

  it("honours a genuine unsubscribe from a client whose budgets are spent, and refuses only the rest", async () => {
    // A client of its own, whose budgets other users behind the same proxy would have spent.
    const client = `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
    const nowhere = linkUrl("newsletter-unsubscribe", randomUUID());
    expect((await postFrom(client, nowhere, "List-Unsubscribe=One-Click")).status).toBe(404);
    expect((await postFrom(client, "/newsletter/desabonnement", "token=abc.def")).status).toBe(400);
    const spent = await serverDatabase()
      .update(rateLimits)
      .set({ count: 100_000 })
      .where(
        sql`${rateLimits.key} like ${"newsletter-%"} and ${rateLimits.key} like ${`%${client}`}`,
      )
      .returning();
    expect(spent).toHaveLength(2);

    const row = await activeSubscriber("budget-epuise");
    const url = linkUrl("newsletter-unsubscribe", row.id);
    const oneClick = await postFrom(client, url, "List-Unsubscribe=One-Click");
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain("Vous êtes désabonné·e");
    expect((await subscriber(row.email)).status).toBe("unsubscribed");

    // What can be abused stays counted: « Me réinscrire », a token that leads nowhere.
    const token = new URL(url, baseUrl).searchParams.get("token") ?? "";
    const back = await postFrom(
      client,
      "/newsletter/desabonnement",
      new URLSearchParams({ token, intent: "reinscrire" }).toString(),
    );
    expect(back.status).toBe(429);
    expect(back.text).toContain("Trop de tentatives");
    expect((await subscriber(row.email)).status).toBe("unsubscribed");
    expect((await postFrom(client, nowhere, "List-Unsubscribe=One-Click")).status).toBe(429);
  });

  it("unsubscribes without JavaScript too", async () => {
    const row = await activeSubscriber("sans-js-depart");
    const page = await openPage(linkUrl("newsletter-unsubscribe", row.id), {
      javaScriptEnabled: false,
    });
    await page.getByRole("button", { name: "Me désabonner" }).click();
    await page.waitForLoadState();
    expect(await heading(page)).toBe("Vous êtes désabonné·e");
    expect((await subscriber(row.email)).status).toBe("unsubscribed");
  });
});

describe("links that lead nowhere", () => {
  it("answers a forged or altered link 400, an expired or orphaned one 404, a test e-mail's 200, in French", async () => {
    const row = await activeSubscriber("cible");
    const valid = signLinkTokenWith(authSecret, "newsletter-unsubscribe", row.id);
    const [, signature] = valid.split(".");
    // Someone else's id under a genuine signature: the link cannot be forged for another address.
    const otherBody = Buffer.from(
      JSON.stringify({ p: "newsletter-unsubscribe", s: randomUUID() }),
    ).toString("base64url");
    const expected: Array<[string, number, string]> = [
      ["/newsletter/confirmation", 400, "Lien invalide"],
      ["/newsletter/confirmation?token=abc.def", 400, "Lien invalide"],
      [`/newsletter/confirmation?token=${valid}`, 400, "Lien invalide"],
      [
        linkUrl("newsletter-confirm", row.id, { lifetimeSeconds: 60, now: Date.now() - 3_600_000 }),
        404,
        "Lien expiré",
      ],
      [linkUrl("newsletter-confirm", randomUUID(), { lifetimeSeconds: 600 }), 404, "Lien expiré"],
      [linkUrl("newsletter-confirm", "apercu"), 200, "Lien d'un email de test"],
      [`/newsletter/desabonnement?token=${otherBody}.${signature}`, 400, "Lien invalide"],
      [linkUrl("newsletter-unsubscribe", randomUUID()), 404, "Adresse introuvable"],
      [linkUrl("newsletter-unsubscribe", "apercu"), 200, "Lien d'un email de test"],
    ];
    for (const [path, status, title] of expected) {
      const answer = await fetch(`${baseUrl}${path}`);
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
      expect(await answer.text(), path).toContain(`${title.replaceAll("'", "&#x27;")}</h1>`);
    }
    // Posting them (a provider's one-click included) changes nothing and is no server error.
    for (const [path, status] of expected) {
      const answer = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(answer.status, path).toBe(status);
    }
    expect((await subscriber(row.email)).status).toBe("active");

    // Each kind of page once in the browser, with its accessibility checked.
    const pages = new Map(
      expected.map(([path, , title]) => [`${path.split("?")[0]} ${title}`, { path, title }]),
    );
    for (const { path, title } of pages.values()) {
      const page = await openPage(path, { allowConsole: failedLoads });
      expect(await heading(page)).toBe(title);
      expect(await axeViolations(page)).toEqual([]);
    }
  });

  it("keeps crawlers out: robots.txt disallows /newsletter/, the sitemap does not list it", async () => {
    const robots = await (await fetch(`${baseUrl}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/newsletter\/$/m);
    const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
    expect(sitemap).toContain("<loc>");
    expect(sitemap).not.toContain("/newsletter");
  });
});
