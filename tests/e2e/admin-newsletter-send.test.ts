import { randomBytes } from "node:crypto";
import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blogArticles,
  blogNewsletterSubscribers,
  newsletterDeliveries,
  newsletterSendings,
} from "../../app/server/db/schema";
import { cookieHeader, signedInPage, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServerWithMail } from "../support/own-server";

/*
 * Sending an article from the admin (issue 12, item 3): preview, test e-mail, the sending behind a
 * confirmation, its live progress, never twice. Sendings go to every active subscriber of the database:
 * this file runs a server and database of its own, with its own SMTP capture to read what left.
 */

const { url, mailsTo } = useOwnServerWithMail();
const { openPage } = useBrowser({ baseUrl: url });

const marker = randomBytes(4).toString("hex");
const readers = Array.from({ length: 6 }, (_, index) => `lecteur-${index}-${marker}@example.com`);
const waiting = `en-attente-${marker}@example.com`;
const gone = `parti-${marker}@example.com`;
const published = {
  title: `Lumière d'hiver ${marker}`,
  slug: `lumiere-hiver-${marker}`,
  excerpt: `Les séances en studio quand la neige tombe sur la Corrèze ${marker}.`,
  content: `<p>Texte complet de l'article ${marker}, avec <strong>tous</strong> ses détails.</p>`,
};
const draft = {
  title: `Brouillon de printemps ${marker}`,
  slug: `brouillon-printemps-${marker}`,
  excerpt: `Les premières fleurs ${marker}.`,
  content: `<p>Le printemps arrive ${marker}.</p>`,
};
const withoutScript = {
  title: `Sans script ${marker}`,
  slug: `sans-script-${marker}`,
  excerpt: `Un extrait ${marker}.`,
  content: `<p>Tout le texte sans script ${marker}.</p>`,
};
const PREVIEW_POLICY =
  "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'";

let admin: TestAccount;
let publishedId = "";
let draftId = "";
let withoutScriptId = "";
let activeCount = 0;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
  const database = serverDatabase();
  await database
    .insert(blogNewsletterSubscribers)
    .values([
      ...readers.map((email) => ({ email, consentSource: "blog", status: "active" as const })),
      { email: waiting, consentSource: "blog", status: "pending" as const },
      { email: gone, consentSource: "blog", status: "unsubscribed" as const },
    ]);
  const [article] = await database
    .insert(blogArticles)
    .values({
      ...published,
      author: "Claire",
      coverImageUrl: "/images/demo-blog/ete.jpg",
      published: true,
      publishedAt: new Date(),
    })
    .returning();
  publishedId = article?.id ?? "";
  const [unpublished] = await database
    .insert(blogArticles)
    .values({ ...draft, author: "Claire" })
    .returning();
  draftId = unpublished?.id ?? "";
  const [third] = await database
    .insert(blogArticles)
    .values({ ...withoutScript, author: "Claire", published: true, publishedAt: new Date() })
    .returning();
  withoutScriptId = third?.id ?? "";
  const [row] = await database
    .select({ count: count() })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.status, "active"));
  activeCount = row?.count ?? 0;
});

afterAll(async () => {
  await deleteAccount(admin);
});

const signedIn = (path: string, options: Parameters<typeof openPage>[1] = {}) =>
  signedInPage(openPage, admin, path, options);

const sendPath = (id: string) => `/admin/newsletter/envoyer/${id}`;
const SENDING_PATH = /\/admin\/newsletter\/envois\/[0-9a-f-]{36}$/;

/** Waits until the page's progress bar is full and says so. */
async function expectFinished(page: Awaited<ReturnType<typeof signedIn>>) {
  const bar = page.getByRole("progressbar", { name: "Progression de l'envoi" });
  await expect
    .poll(
      async () => {
        const [value, max] = await Promise.all([
          bar.getAttribute("value"),
          bar.getAttribute("max"),
        ]);
        return value !== null && value === max;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect.poll(() => page.getByText("100 %").count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByText(/^Terminé le /).count()).toBe(1);
}

describe("/admin/newsletter/envoyer/:id", () => {
  it("shows the article, its active subscribers and the e-mail's preview in a sandboxed frame", async () => {
    const page = await signedIn(sendPath(publishedId));
    await page.getByRole("heading", { name: "Envoyer par e-mail", level: 1 }).waitFor();
    await page.getByRole("heading", { name: published.title }).waitFor();
    expect(await page.getByText(`${activeCount} abonnés actifs`).count()).toBeGreaterThan(0);

    const preview = page.frameLocator('iframe[title="Aperçu de l\'e-mail"]');
    await preview.getByRole("heading", { name: published.title }).waitFor();
    expect(await preview.getByRole("link", { name: "Lire l'article" }).getAttribute("href")).toBe(
      `${url()}/blog/${published.slug}`,
    );
    // The cover is shown (the frame's own policy lets the site's images in).
    await expect
      .poll(() =>
        preview
          .locator("img")
          .first()
          .evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await preview.getByText(`Texte complet de l'article ${marker}`).count()).toBe(0);

    await page.getByRole("radio", { name: "Article complet" }).check();
    await page.waitForURL(/\?mode=full$/);
    await preview.getByText(`Texte complet de l'article ${marker}`).waitFor();
    expect(await preview.getByRole("link", { name: "Voir l'article sur le site" }).count()).toBe(1);

    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("answers the preview with a policy of its own: nothing runs, only the site frames it; and its text part", async () => {
    const page = await signedIn(sendPath(publishedId));
    const cookie = await cookieHeader(page);
    const html = await fetch(`${url()}${sendPath(publishedId)}/apercu?mode=excerpt`, {
      headers: { cookie },
    });
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("content-security-policy")).toBe(PREVIEW_POLICY);
    expect(html.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const body = await html.text();
    expect(body).toContain(published.excerpt.replace("'", "&#39;"));
    // The sample unsubscribe link: a real subscriber's never shows in the admin.
    expect(body).toMatch(/\/newsletter\/desabonnement\?token=/);

    const textLink = page.getByRole("link", { name: "Voir la version texte" });
    const href = (await textLink.getAttribute("href")) ?? "";
    expect(href).toBe(`${sendPath(publishedId)}/apercu?mode=excerpt&format=texte`);
    const text = await fetch(`${url()}${href}`, { headers: { cookie } });
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const plain = await text.text();
    expect(plain).toContain(published.title);
    expect(plain).toContain(`Lire l'article : ${url()}/blog/${published.slug}`);
    expect(plain).toMatch(/Se désinscrire : http\S+\/newsletter\/desabonnement\?token=/);

    const unknownMode = await fetch(`${url()}${sendPath(publishedId)}/apercu?mode=tout`, {
      headers: { cookie },
    });
    expect(unknownMode.status).toBe(400);
    expect(await unknownMode.text()).toContain("Mode d'aperçu inconnu");
  });

  it("sends a test to the signed-in administrator only, with « [Test] » and both parts", async () => {
    const page = await signedIn(sendPath(publishedId));
    await page.getByRole("button", { name: "M'envoyer un test" }).click();
    await page.getByText("E-mail de test envoyé").waitFor();
    await expect.poll(() => mailsTo(admin.email).length, { timeout: 20_000 }).toBe(1);
    const [mail] = mailsTo(admin.email);
    expect(mail?.subject).toBe(`[Test] ${published.title}`);
    expect(mail?.html).toContain(published.title.replace("'", "&#39;"));
    expect(mail?.html).toContain(`href="${url()}/blog/${published.slug}"`);
    expect(mail?.text).toContain(published.title);
    expect(mail?.text).toContain(`${url()}/blog/${published.slug}`);
    expect(readers.flatMap(mailsTo)).toEqual([]);
  });

  it("sends the article once to every active subscriber, after a confirmation, and shows its progress", async () => {
    const page = await signedIn(sendPath(publishedId));
    const label = `Envoyer à ${activeCount} abonnés`;
    await page.getByRole("button", { name: new RegExp(`^${label}`) }).click();
    const dialog = page.getByRole("alertdialog", {
      name: `Envoyer cet article à ${activeCount} abonnés ?`,
    });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`« ${published.title} »`);
    await dialog.getByRole("button", { name: label }).click();
    await page.waitForURL(SENDING_PATH);
    await page.getByText("Envoi commencé").waitFor();
    await expectFinished(page);
    expect(await page.getByRole("definition").allTextContents()).toEqual([
      String(activeCount),
      "0",
      "0",
      "0",
    ]);
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    // Exactly one e-mail each, as the issue describes it; nothing for the others.
    await expect
      .poll(() => readers.every((reader) => mailsTo(reader).length === 1), { timeout: 20_000 })
      .toBe(true);
    const links = new Set<string>();
    for (const reader of readers) {
      const mails = mailsTo(reader);
      expect(mails, reader).toHaveLength(1);
      const mail = mails[0];
      expect(mail?.subject).toBe(published.title);
      expect(mail?.html).toContain(published.title.replace("'", "&#39;"));
      expect(mail?.html).toContain(`href="${url()}/blog/${published.slug}"`);
      expect(mail?.html).toContain(">Se désinscrire<");
      expect(mail?.text).toContain(published.excerpt);
      expect(mail?.text).toContain(`Lire l'article : ${url()}/blog/${published.slug}`);
      const unsubscribe = mail?.header("List-Unsubscribe") ?? "";
      expect(unsubscribe).toMatch(
        new RegExp(`^<${url()}/newsletter/desabonnement\\?token=[\\w.-]+>$`),
      );
      expect(mail?.text).toContain(unsubscribe.slice(1, -1));
      expect(mail?.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      links.add(unsubscribe);
    }
    // Each reader's own link.
    expect(links.size).toBe(readers.length);
    expect(mailsTo(waiting)).toEqual([]);
    expect(mailsTo(gone)).toEqual([]);
  });

  it("never sends an article twice: the page says when it was sent, and a direct request is refused", async () => {
    const page = await signedIn(sendPath(publishedId));
    await page.getByRole("heading", { name: "Article déjà envoyé" }).waitFor();
    expect(await page.getByText(/a déjà été envoyé le .+ à \d+ abonnés/).count()).toBe(1);
    await page.getByRole("link", { name: "Voir l'envoi" }).click();
    await page.waitForURL(SENDING_PATH);
    await page.goBack();
    expect(await page.getByRole("button", { name: /^Envoyer à/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Publier et envoyer/ }).count()).toBe(0);

    const cookie = await cookieHeader(page);
    for (const intent of ["send", "publish-and-send"]) {
      const response = await fetch(`${url()}${sendPath(publishedId)}`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({ intent, id: publishedId, mode: "excerpt" }),
        redirect: "manual",
      });
      expect(response.status, intent).toBe(409);
      expect(await response.text()).toContain(
        "Cet article a déjà été envoyé aux abonnés : un article n&#x27;est jamais envoyé deux fois.",
      );
    }
    const sendings = await serverDatabase()
      .select()
      .from(newsletterSendings)
      .where(eq(newsletterSendings.articleId, publishedId));
    expect(sendings).toHaveLength(1);
    // Nothing more leaves (a job would have sent within this time).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const reader of readers) expect(mailsTo(reader), reader).toHaveLength(1);
  });

  it("offers « Publier et envoyer » for a draft, which publishes it and sends it", async () => {
    const page = await signedIn(sendPath(draftId));
    await page.getByRole("heading", { name: draft.title }).waitFor();
    expect(await page.getByRole("button", { name: /^Envoyer à/ }).count()).toBe(0);
    await page.getByRole("button", { name: /^Publier et envoyer/ }).click();
    const dialog = page.getByRole("alertdialog", {
      name: `Publier cet article et l'envoyer à ${activeCount} abonnés ?`,
    });
    await dialog.getByRole("button", { name: "Publier et envoyer" }).click();
    await page.waitForURL(SENDING_PATH);
    await page.getByText("Article publié, envoi commencé").waitFor();
    await expectFinished(page);
    const [article] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.id, draftId));
    expect(article?.published).toBe(true);
    expect(article?.publishedAt).toBeInstanceOf(Date);
    await expect
      .poll(
        () =>
          readers.every(
            (reader) => mailsTo(reader).filter((mail) => mail.subject === draft.title).length === 1,
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const publicPage = await fetch(`${url()}/blog/${draft.slug}`);
    expect(publicPage.status).toBe(200);
  });
});

describe("without JavaScript", () => {
  it("chooses the full article, confirms on the page itself, and sends it", async () => {
    const page = await signedIn(sendPath(withoutScriptId), { javaScriptEnabled: false });
    await page.getByRole("radio", { name: "Article complet" }).check();
    await page.getByRole("button", { name: "Mettre à jour l'aperçu" }).click();
    await page.waitForURL(/\?mode=full$/);
    const preview = page.frameLocator('iframe[title="Aperçu de l\'e-mail"]');
    await preview.getByText(`Tout le texte sans script ${marker}.`).waitFor();

    await page
      .getByRole("button", { name: new RegExp(`^Envoyer à ${activeCount} abonnés`) })
      .click();
    await page.waitForURL(/confirmer-envoi=/);
    const dialog = page.getByRole("alertdialog", {
      name: `Envoyer cet article à ${activeCount} abonnés ?`,
    });
    await dialog.getByRole("button", { name: `Envoyer à ${activeCount} abonnés` }).click();
    await page.waitForURL(SENDING_PATH);
    await page.getByRole("progressbar", { name: "Progression de l'envoi" }).waitFor();

    // The mode chosen went with the confirmation: the whole text is in the e-mails.
    await expect
      .poll(
        () =>
          readers.every(
            (reader) =>
              mailsTo(reader).filter((mail) => mail.subject === withoutScript.title).length === 1,
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const [mail] = mailsTo(readers[0] ?? "").filter(
      (received) => received.subject === withoutScript.title,
    );
    expect(mail?.html).toContain(`Tout le texte sans script ${marker}.`);
    expect(mail?.text).toContain(`Tout le texte sans script ${marker}.`);
    expect(mail?.text).toContain(
      `Voir l'article sur le site : ${url()}/blog/${withoutScript.slug}`,
    );
  });
});

describe("/admin/newsletter/envois/:id", () => {
  it("follows a sending live, then lists its failed addresses with their French errors", async () => {
    // A sending under way whose deliveries this test settles itself (no job carries them).
    const database = serverDatabase();
    const [sending] = await database
      .insert(newsletterSendings)
      .values({ subject: `Envoi suivi ${marker}`, html: "<p>x</p>", text: "x", total: 3 })
      .returning();
    const sendingId = sending?.id ?? "";
    const subscribers = await database
      .select({ id: blogNewsletterSubscribers.id, email: blogNewsletterSubscribers.email })
      .from(blogNewsletterSubscribers)
      .where(inArray(blogNewsletterSubscribers.email, readers.slice(0, 3)));
    await database
      .insert(newsletterDeliveries)
      .values(
        subscribers.map((subscriber) => ({ sendingId, subscriberId: subscriber.id, batch: 0 })),
      );

    // Without JavaScript: the figures at loading, and a link that reloads them.
    const still = await signedIn(`/admin/newsletter/envois/${sendingId}`, {
      javaScriptEnabled: false,
    });
    await still.getByText("0 % (0 sur 3)").waitFor();
    expect(await still.getByRole("link", { name: "Actualiser" }).getAttribute("href")).toBe(
      `/admin/newsletter/envois/${sendingId}`,
    );

    const page = await signedIn(`/admin/newsletter/envois/${sendingId}`);
    await page.getByText("0 % (0 sur 3)").waitFor();
    expect(await page.getByRole("progressbar").getAttribute("value")).toBe("0");
    await page.evaluate(() => {
      (window as unknown as { samePage: boolean }).samePage = true;
    });
    const refused = subscribers[2];
    await database
      .update(newsletterDeliveries)
      .set({ status: "sent", sentAt: new Date(), attempts: 1 })
      .where(
        inArray(
          newsletterDeliveries.subscriberId,
          subscribers.slice(0, 2).map((subscriber) => subscriber.id),
        ),
      );
    await page.getByText("66 % (2 sur 3)").waitFor({ timeout: 15_000 });
    await database
      .update(newsletterDeliveries)
      .set({
        status: "failed",
        attempts: 1,
        error:
          "Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 Boîte inconnue »).",
      })
      .where(eq(newsletterDeliveries.subscriberId, refused?.id ?? ""));
    await database
      .update(newsletterSendings)
      .set({ status: "done", finishedAt: new Date() })
      .where(eq(newsletterSendings.id, sendingId));
    await expectFinished(page);
    expect(await page.getByRole("link", { name: "Actualiser" }).count()).toBe(0);
    const failures = page.getByRole("table");
    await failures.getByRole("cell", { name: refused?.email }).waitFor();
    expect(await failures.textContent()).toContain(
      "Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 Boîte inconnue »).",
    );
    // Followed without reloading the page.
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(
      true,
    );
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    const cookie = await cookieHeader(page);
    const progress = await fetch(`${url()}/admin/newsletter/envois/${sendingId}/progression`, {
      headers: { cookie },
    });
    expect(progress.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await progress.json()).toMatchObject({
      status: "done",
      total: 3,
      sent: 2,
      failed: 1,
      pending: 0,
      percent: 100,
    });
  });
});

describe("with nobody to send to", () => {
  it("says so and offers no sending; a direct request sends nothing", async () => {
    const database = serverDatabase();
    await database
      .update(blogNewsletterSubscribers)
      .set({ status: "unsubscribed", unsubscribedAt: new Date() })
      .where(eq(blogNewsletterSubscribers.status, "active"));
    const [article] = await database
      .insert(blogArticles)
      .values({
        title: `Personne ${marker}`,
        slug: `personne-${marker}`,
        excerpt: "Extrait",
        content: "<p>Texte</p>",
        author: "Claire",
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const page = await signedIn(sendPath(article?.id ?? ""));
    await page
      .getByText("Aucun abonné actif pour le moment : il n'y a personne à qui envoyer cet article.")
      .waitFor();
    expect(await page.getByRole("button", { name: /^Envoyer à/ }).count()).toBe(0);
    // The test e-mail is still possible.
    expect(await page.getByRole("button", { name: "M'envoyer un test" }).count()).toBe(1);

    const response = await fetch(`${url()}${sendPath(article?.id ?? "")}`, {
      method: "POST",
      headers: { cookie: await cookieHeader(page) },
      body: new URLSearchParams({ intent: "send", id: article?.id ?? "" }),
      redirect: "manual",
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Aucun abonné actif : rien n&#x27;a été envoyé.");
    expect(
      await database
        .select()
        .from(newsletterSendings)
        .where(eq(newsletterSendings.articleId, article?.id ?? "")),
    ).toEqual([]);
  });
});
