import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  blogArticles,
  blogNewsletterSubscribers,
  newsletterSendings,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { buttonLabelled, flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import {
  addArticle,
  REFUSED_DELIVERY,
  sampleArticle,
  sendingUnderWay,
  useNewsletterReaders,
} from "../support/newsletter-admin";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * Sending an article from the admin (decision 0084) as the server answers it: the send page and its
 * preview, the test e-mail, the sending without JavaScript, never twice, « Publier et envoyer », a sending's
 * page and figures. Sendings go to every active subscriber of the database: this file runs a server and
 * database of its own, with its own SMTP capture to read what left. The page in a browser (the preview's
 * frame, the confirmation dialog, the live progress) is tests/e2e/admin-newsletter-send.
 */

const { url, mailsTo } = useOwnServerWithMail();
const admin = useAdmin();
const { marker, readers, activeCount } = useNewsletterReaders(6);

const article = (name: string, fields: { published: boolean; content?: string }) =>
  sampleArticle(name, marker, fields);
const published = article("Lumière d'hiver", {
  published: true,
  content: `<p>Texte complet de l'article ${marker}, avec <strong>tous</strong> ses détails.</p>`,
});
const withoutScript = article("Sans script", { published: true });
const sentTwice = article("Une seule fois", { published: true });
const draft = article("Brouillon de printemps", { published: false });
const PREVIEW_POLICY =
  "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'";

const ids = { published: "", withoutScript: "", sentTwice: "", draft: "" };
beforeAll(async () => {
  ids.published = await addArticle(published);
  ids.withoutScript = await addArticle(withoutScript);
  ids.sentTwice = await addArticle(sentTwice);
  ids.draft = await addArticle(draft);
});

const sendPath = (id: string) => `/admin/newsletter/envoyer/${id}`;
const SENDING_PATH = /^\/admin\/newsletter\/envois\/[0-9a-f-]{36}$/;
const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });

/** The page's confirmation dialog (opened by its address, without JavaScript) and its question. */
function confirmation(shown: FetchedPage) {
  const dialog = shown.document.querySelector('[role="alertdialog"]');
  const title = shown.document.getElementById(dialog?.getAttribute("aria-labelledby") ?? "");
  return { dialog, question: textOf(title) };
}

/** Each reader's e-mails with this subject, once each has received one. */
async function receivedByEveryReader(subject: string) {
  const received = () =>
    readers.map((reader) => mailsTo(reader).filter((mail) => mail.subject === subject));
  await expect
    .poll(() => received().every((mails) => mails.length > 0), { timeout: 20_000 })
    .toBe(true);
  return received();
}

describe("/admin/newsletter/envoyer/:id", () => {
  it("shows the article and its active subscribers, and frames the e-mail's preview of the mode chosen", async () => {
    const excerpt = await page(sendPath(ids.published));
    expect(excerpt.status).toBe(200);
    expect(textOf(excerpt.document.querySelector("h1"))).toBe("Envoyer par e-mail");
    expect(textOf(excerpt.document.querySelector("#article-titre"))).toBe(published.title);
    expect(excerpt.html).toContain(`${activeCount()} abonnés actifs`);
    const frame = excerpt.document.querySelector('iframe[title="Aperçu de l\'e-mail"]');
    expect(frame?.getAttribute("sandbox")).toBe("");
    expect(frame?.getAttribute("src")).toBe(`${sendPath(ids.published)}/apercu?mode=excerpt`);
    const preview = await page(frame?.getAttribute("src") ?? "");
    const readLink = [...preview.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Lire l'article",
    );
    expect(readLink?.getAttribute("href")).toBe(`${url()}/blog/${published.slug}`);
    expect(preview.html).not.toContain(`Texte complet de l'article ${marker}`);

    // The mode is in the address: the page and its frame follow it without JavaScript.
    const full = await page(`${sendPath(ids.published)}?mode=full`);
    expect(
      full.document.querySelector('input[name="mode"][value="full"]')?.hasAttribute("checked"),
    ).toBe(true);
    const fullFrame = full.document.querySelector('iframe[title="Aperçu de l\'e-mail"]');
    expect(fullFrame?.getAttribute("src")).toBe(`${sendPath(ids.published)}/apercu?mode=full`);
    const fullPreview = await page(fullFrame?.getAttribute("src") ?? "");
    expect(textOf(fullPreview.document.body)).toContain(
      `Texte complet de l'article ${marker}, avec tous ses détails.`,
    );
    expect(
      [...fullPreview.document.querySelectorAll("a")].filter(
        (link) => textOf(link) === "Voir l'article sur le site",
      ),
    ).toHaveLength(1);
  });

  it("answers the preview with a policy of its own: nothing runs, only the site frames it; and its text part", async () => {
    const html = await page(`${sendPath(ids.published)}/apercu?mode=excerpt`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("content-security-policy")).toBe(PREVIEW_POLICY);
    expect(html.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(html.html).toContain(published.excerpt.replaceAll("'", "&#39;"));
    // The sample unsubscribe link: a real subscriber's never shows in the admin.
    expect(html.html).toMatch(/\/newsletter\/desabonnement\?token=/);

    const sendPage = await page(sendPath(ids.published));
    const textLink = [...sendPage.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Voir la version texte",
    );
    const href = textLink?.getAttribute("href") ?? "";
    expect(href).toBe(`${sendPath(ids.published)}/apercu?mode=excerpt&format=texte`);
    const text = await page(href);
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text.html).toContain(published.title);
    expect(text.html).toContain(`Lire l'article : ${url()}/blog/${published.slug}`);
    expect(text.html).toMatch(/Se désinscrire : http\S+\/newsletter\/desabonnement\?token=/);

    const unknownMode = await page(`${sendPath(ids.published)}/apercu?mode=tout`);
    expect(unknownMode.status).toBe(400);
    expect(unknownMode.html).toContain("Mode d'aperçu inconnu");
  });

  it("sends a test to the signed-in administrator only, with « [Test] » and both parts", async () => {
    const sendPage = await page(sendPath(ids.published));
    const sent = await pressButton(
      sendPath(ids.published),
      buttonLabelled(sendPage.document, "M'envoyer un test"),
      { cookie: admin.cookie() },
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(sendPath(ids.published));
    expect(flashedToast(sent.headers)).toEqual({
      type: "success",
      title: "E-mail de test envoyé",
      description: `Il arrive dans quelques instants à ${admin.account().email}.`,
    });
    await expect.poll(() => mailsTo(admin.account().email).length, { timeout: 20_000 }).toBe(1);
    const [mail] = mailsTo(admin.account().email);
    expect(mail?.subject).toBe(`[Test] ${published.title}`);
    expect(mail?.html).toContain(published.title.replaceAll("'", "&#39;"));
    expect(mail?.html).toContain(`href="${url()}/blog/${published.slug}"`);
    expect(mail?.text).toContain(published.title);
    expect(mail?.text).toContain(`${url()}/blog/${published.slug}`);
    expect(readers.flatMap(mailsTo).filter((each) => each.subject.startsWith("[Test]"))).toEqual(
      [],
    );
  });

  it("without JavaScript, chooses the full article, confirms on the page itself, and sends it", async () => {
    const path = `${sendPath(ids.withoutScript)}?mode=full`;
    const full = await page(path);
    const label = `Envoyer à ${activeCount()} abonnés`;
    // The button loads the page again with the confirmation open.
    const asked = await pressButton(path, buttonLabelled(full.document, label), {
      cookie: admin.cookie(),
    });
    expect(asked.status).toBe(200);
    const { dialog, question } = confirmation(asked);
    expect(question).toBe(`Envoyer cet article à ${activeCount()} abonnés ?`);
    expect(textOf(dialog)).toContain(`« ${withoutScript.title} »`);
    const sent = await pressButton(path, buttonLabelled(dialog ?? asked.document, label), {
      cookie: admin.cookie(),
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toMatch(SENDING_PATH);
    expect(flashedToast(sent.headers)).toEqual({
      type: "success",
      title: "Envoi commencé",
      description: `L'article part vers ${activeCount()} abonnés.`,
    });
    const sending = await page(sent.headers.get("location") ?? "");
    expect(sending.document.querySelector("progress#progression-envoi")).not.toBeNull();

    // The mode chosen went with the confirmation: the whole text is in the e-mails.
    const [mail] = (await receivedByEveryReader(withoutScript.title))[0] ?? [];
    expect(mail?.html).toContain(`Texte complet de « Sans script » ${marker}.`);
    expect(mail?.text).toContain(`Texte complet de « Sans script » ${marker}.`);
    expect(mail?.text).toContain(
      `Voir l'article sur le site : ${url()}/blog/${withoutScript.slug}`,
    );
  });

  it("never sends an article twice: the page says when it was sent, and a direct request is refused", async () => {
    const first = await postForm(
      sendPath(ids.sentTwice),
      { intent: "send", id: ids.sentTwice, mode: "excerpt" },
      { cookie: admin.cookie() },
    );
    expect(first.status).toBe(302);
    const sendingPath = first.headers.get("location") ?? "";
    // The sending is over: nothing of it is left to queue.
    for (const mails of await receivedByEveryReader(sentTwice.title)) expect(mails).toHaveLength(1);
    await expect
      .poll(async () => {
        const [row] = await serverDatabase()
          .select()
          .from(newsletterSendings)
          .where(eq(newsletterSendings.articleId, ids.sentTwice));
        return row?.status;
      })
      .toBe("done");

    const again = await page(sendPath(ids.sentTwice));
    const already = again.document.querySelector('section[aria-labelledby="deja-envoye-titre"]');
    expect(textOf(already?.querySelector("h2"))).toBe("Article déjà envoyé");
    expect(textOf(already)).toMatch(/a déjà été envoyé le .+ à \d+ abonnés/);
    const link = [...(already?.querySelectorAll("a") ?? [])].find(
      (each) => textOf(each) === "Voir l'envoi",
    );
    expect(link?.getAttribute("href")).toBe(sendingPath);
    expect(buttonLabelled(again.document, "Envoyer à")).toBeUndefined();
    expect(buttonLabelled(again.document, "Publier et envoyer")).toBeUndefined();

    // Nothing is queued by a refused request (jobs are counted rather than waited for).
    const queued = async () => {
      const { rows } = await serverDatabase().execute<{ count: string }>(
        sql`select count(*) as count from pgboss.job where name in ('mail', 'newsletter')`,
      );
      return Number(rows[0]?.count);
    };
    const jobsBefore = await queued();
    for (const intent of ["send", "publish-and-send"]) {
      const refused = await postForm(
        sendPath(ids.sentTwice),
        { intent, id: ids.sentTwice, mode: "excerpt" },
        { cookie: admin.cookie() },
      );
      expect(refused.status, intent).toBe(409);
      expect(refused.html).toContain(
        "Cet article a déjà été envoyé aux abonnés : un article n&#x27;est jamais envoyé deux fois.",
      );
    }
    const sendings = await serverDatabase()
      .select()
      .from(newsletterSendings)
      .where(eq(newsletterSendings.articleId, ids.sentTwice));
    expect(sendings).toHaveLength(1);
    expect(await queued()).toBe(jobsBefore);
    for (const reader of readers) {
      expect(
        mailsTo(reader).filter((mail) => mail.subject === sentTwice.title),
        reader,
      ).toHaveLength(1);
    }
  });

  it("offers « Publier et envoyer » for a draft, which publishes it and sends it", async () => {
    const path = sendPath(ids.draft);
    const shown = await page(path);
    expect(textOf(shown.document.querySelector("#article-titre"))).toBe(draft.title);
    expect(buttonLabelled(shown.document, "Envoyer à")).toBeUndefined();
    const asked = await pressButton(path, buttonLabelled(shown.document, "Publier et envoyer"), {
      cookie: admin.cookie(),
    });
    const { dialog, question } = confirmation(asked);
    expect(question).toBe(`Publier cet article et l'envoyer à ${activeCount()} abonnés ?`);
    const sent = await pressButton(
      path,
      buttonLabelled(dialog ?? asked.document, "Publier et envoyer"),
      { cookie: admin.cookie() },
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toMatch(SENDING_PATH);
    expect(flashedToast(sent.headers)).toMatchObject({ title: "Article publié, envoi commencé" });
    const [row] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.id, ids.draft));
    expect(row?.published).toBe(true);
    expect(row?.publishedAt).toBeInstanceOf(Date);
    await receivedByEveryReader(draft.title);
    expect((await fetchPage(`/blog/${draft.slug}`)).status).toBe(200);
  });
});

describe("/admin/newsletter/envois/:id", () => {
  it("shows a sending's figures at loading with a link that reloads them, then, once over, its failed addresses; its figures as JSON", async () => {
    const sending = await sendingUnderWay(`Envoi suivi ${marker}`, readers.slice(0, 3));
    const path = `/admin/newsletter/envois/${sending.id}`;
    const underWay = await page(path);
    expect(
      textOf(underWay.document.querySelector('section[aria-labelledby="progression-titre"]')),
    ).toContain("0 % (0 sur 3)");
    const reload = [...underWay.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Actualiser",
    );
    expect(reload?.getAttribute("href")).toBe(path);

    const refused = sending.subscribers[2];
    await sending.sent(sending.subscribers.slice(0, 2));
    await sending.refusedThenDone(refused);

    const over = await page(path);
    expect(textOf(over.document.querySelector("[role=status]"))).toMatch(/^Terminé le /);
    expect(
      [...over.document.querySelectorAll("a")].some((link) => textOf(link) === "Actualiser"),
    ).toBe(false);
    const failures = over.document.querySelector('section[aria-labelledby="echecs-titre"]');
    expect(textOf(failures)).toContain(refused?.email ?? "?");
    expect(textOf(failures)).toContain(REFUSED_DELIVERY);

    const progress = await fetch(`${url()}${path}/progression`, {
      headers: { cookie: admin.cookie() },
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

// Last: it unsubscribes every active subscriber of the file's database.
describe("with nobody to send to", () => {
  it("says so and offers no sending; a direct request sends nothing", async () => {
    const database = serverDatabase();
    await database
      .update(blogNewsletterSubscribers)
      .set({ status: "unsubscribed", unsubscribedAt: new Date() })
      .where(eq(blogNewsletterSubscribers.status, "active"));
    const id = await addArticle(article("Personne", { published: true }));
    const shown = await page(sendPath(id));
    expect(shown.html).toContain(
      "Aucun abonné actif pour le moment : il n&#x27;y a personne à qui envoyer cet article.",
    );
    expect(buttonLabelled(shown.document, "Envoyer à")).toBeUndefined();
    // The test e-mail is still possible.
    expect(buttonLabelled(shown.document, "M'envoyer un test")).toBeDefined();

    const refused = await postForm(
      sendPath(id),
      { intent: "send", id },
      { cookie: admin.cookie() },
    );
    expect(refused.status).toBe(409);
    expect(refused.html).toContain("Aucun abonné actif : rien n&#x27;a été envoyé.");
    expect(
      await database.select().from(newsletterSendings).where(eq(newsletterSendings.articleId, id)),
    ).toEqual([]);
  });
});
