import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatLongDateTimeFr,
  parisDateTimeInputValue,
  parisDateTimeToInstant,
} from "../../app/lib/dates";
import {
  blogArticles,
  blogNewsletterSubscribers,
  newsletterSendings,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { addArticle } from "../support/newsletter-admin";
import {
  articleRow,
  elementsWithText,
  formOf,
  intentButton,
  labelled,
  linksNamed,
  shownValue,
  typeInto,
} from "../support/admin-content";
import { flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, textOf } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * Scheduled publishing as the owner (decision 0080): an article scheduled a little over a minute ahead,
 * newsletter box ticked, is absent from /blog, the feed and the sitemap, then present once its time has
 * come, and its newsletter reaches the subscriber once. It publishes and sends on a server of its own,
 * with an SMTP capture of its own: the shared server's pages and mailbox stay as other files expect.
 * The form in the browser (its own check, the autosave, axe) is tests/e2e/admin-scheduled-publishing.
 */

const { mailsTo } = useOwnServerWithMail();
const admin = useAdmin();

const marker = randomBytes(4).toString("hex");
const title = `Portraits d'hiver ${marker}`;
const slug = `portraits-d-hiver-${marker}`;
const refused = { title: `Sans script ${marker}`, slug: `sans-script-${marker}` };
const unsent = { title: `Déjà en ligne ${marker}`, slug: `deja-en-ligne-${marker}` };
const subscriber = `abonnee-${marker}@example.com`;

beforeAll(async () => {
  await serverDatabase().insert(blogNewsletterSubscribers).values({
    email: subscriber,
    consentSource: "blog",
    status: "active",
    confirmedAt: new Date(),
  });
});
afterAll(async () => {
  const database = serverDatabase();
  await database
    .delete(blogArticles)
    .where(inArray(blogArticles.slug, [slug, refused.slug, unsent.slug]));
  await database
    .delete(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, subscriber));
});

/** The Paris date and time `seconds` from now, to the second, as `<input type="datetime-local">` takes it. */
function parisTimeIn(seconds: number): { typed: string; at: Date } {
  const at = new Date(Math.ceil((Date.now() + seconds * 1000) / 1000) * 1000);
  const typed = `${parisDateTimeInputValue(at)}:${String(at.getUTCSeconds()).padStart(2, "0")}`;
  if (parisDateTimeToInstant(typed)?.getTime() !== at.getTime()) throw new Error(typed);
  return { typed, at };
}

const SCHEDULED_AT = "Date et heure de publication (heure de Paris)";
const NEWSLETTER = "Envoyer l'article aux abonnés à la publication";
const PAST_MESSAGE = "La date de publication programmée doit être dans le futur";

const adminPage = (path: string) => fetchPage(path, { cookie: admin.cookie() });

/** Creates an article through the new-article form, JavaScript off, scheduled at `scheduledAt`. */
async function createScheduled(fields: {
  title: string;
  slug: string;
  excerpt: string;
  scheduledAt: string;
}) {
  const page = await adminPage("/admin/articles/nouveau");
  const form = typeInto(formOf(page), {
    title: fields.title,
    slug: fields.slug,
    excerpt: fields.excerpt,
    content: "<p>Des portraits tout en douceur.</p>",
    scheduled_at: fields.scheduledAt,
    newsletter_on_publish: true,
  });
  return pressButton("/admin/articles/nouveau", intentButton(form, "save"), {
    cookie: admin.cookie(),
  });
}

async function publicText(path: string): Promise<string> {
  const page = await fetchPage(path);
  expect(page.status, path).toBe(200);
  return page.html;
}

/** What a visitor reads on the page at `path` (200). */
async function publicWords(path: string): Promise<string> {
  const page = await fetchPage(path);
  expect(page.status, path).toBe(200);
  return textOf(page.document.body);
}

describe("scheduling an article", () => {
  it("the server refuses a time already past, keeping what was typed and storing nothing", async () => {
    const past = parisDateTimeInputValue(new Date(Date.now() - 120_000));
    const answer = await createScheduled({
      ...refused,
      excerpt: "Un extrait gardé",
      scheduledAt: past,
    });
    expect(answer.status).toBe(400);
    const form = formOf(answer);
    expect(elementsWithText(form, PAST_MESSAGE)).toHaveLength(1);
    expect(shownValue(labelled(form, SCHEDULED_AT))).toBe(past);
    expect(labelled(form, NEWSLETTER).hasAttribute("checked")).toBe(true);
    expect(shownValue(labelled(form, "Extrait"))).toBe("Un extrait gardé");
    expect(
      await serverDatabase().select().from(blogArticles).where(eq(blogArticles.slug, refused.slug)),
    ).toEqual([]);
  });

  it("publishes at the time given, on the blog, the feed and the sitemap, and sends it to the subscribers once", async () => {
    const { typed, at } = parisTimeIn(30);
    const created = await createScheduled({
      title,
      slug,
      excerpt: "La lumière basse de janvier, au studio d'Ussel.",
      scheduledAt: typed,
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/admin/dashboard");
    expect(flashedToast(created.headers)).toMatchObject({ title: "Article créé" });
    const [stored] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.slug, slug));
    expect(stored).toMatchObject({ published: false, scheduledAt: at, newsletterOnPublish: true });

    // The dashboard: 'Programmé', with the date and time in Paris.
    const scheduled = articleRow(await adminPage("/admin/dashboard"), title);
    expect(elementsWithText(scheduled as Element, "Programmé")).toHaveLength(1);
    expect(textOf(scheduled)).toContain(
      `Publication programmée le ${formatLongDateTimeFr(at)}, avec envoi aux abonnés`,
    );
    expect(linksNamed(scheduled, /Envoyer par e-mail/)).toEqual([]);

    // The edit page shows what was scheduled.
    const edit = formOf(await adminPage(`/admin/articles/${stored?.id}/modifier`));
    expect(shownValue(labelled(edit, SCHEDULED_AT))).toBe(parisDateTimeInputValue(at));
    expect(labelled(edit, NEWSLETTER).hasAttribute("checked")).toBe(true);

    // Until then, a draft: nowhere public.
    expect(Date.now()).toBeLessThan(at.getTime());
    // The page's words, not its markup: the title's apostrophe is escaped in the HTML (the blog is a light
    // page, decision 0137, with no loader data in it), so a search of the markup could never find it.
    expect(await publicWords("/blog")).not.toContain(title);
    expect(await publicText("/blog/rss.xml")).not.toContain(slug);
    expect(await publicText("/sitemap.xml")).not.toContain(slug);
    expect((await fetchPage(`/blog/${slug}`)).status).toBe(404);
    expect(mailsTo(subscriber)).toEqual([]);

    // Then published by the job queue, within its polling interval of the time.
    await expect
      .poll(async () => (await publicWords("/blog")).includes(title), {
        timeout: 150_000,
        interval: 2_000,
      })
      .toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    expect(await publicText("/blog/rss.xml")).toContain(`/blog/${slug}`);
    expect(await publicText("/sitemap.xml")).toContain(`/blog/${slug}`);
    expect(await publicWords(`/blog/${slug}`)).toContain(title);
    const [published] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.slug, slug));
    expect(published).toMatchObject({ published: true, publishedAt: at, scheduledAt: null });

    // Its newsletter, once.
    await expect
      .poll(() => mailsTo(subscriber).length, { timeout: 60_000, interval: 1_000 })
      .toBe(1);
    const [mail] = mailsTo(subscriber);
    expect(mail?.subject).toBe(title);
    const sendings = await serverDatabase()
      .select()
      .from(newsletterSendings)
      .where(eq(newsletterSendings.articleId, published?.id ?? ""));
    expect(sendings).toHaveLength(1);
    expect(sendings[0]?.total).toBeGreaterThanOrEqual(1);

    // The dashboard: 'Publié', and the sending's state in place of « Envoyer par e-mail ».
    const sendingHref = `/admin/newsletter/envois/${sendings[0]?.id}`;
    const done = articleRow(await adminPage("/admin/dashboard"), title);
    expect(elementsWithText(done as Element, "Publié")).toHaveLength(1);
    expect(elementsWithText(done as Element, "Programmé")).toEqual([]);
    expect(linksNamed(done, /^Envoyé le /).map((link) => link.getAttribute("href"))).toEqual([
      sendingHref,
    ]);
    // The same on the article's edit page.
    const editPage = await adminPage(`/admin/articles/${published?.id}/modifier`);
    expect(
      linksNamed(editPage.document, /^Envoyé le /).map((link) => link.getAttribute("href")),
    ).toEqual([sendingHref]);
    expect(editPage.html).not.toContain("Programmer la publication");
    expect(mailsTo(subscriber)).toHaveLength(1);
  }, 300_000);

  it("a published article not sent yet offers « Envoyer par e-mail » on the dashboard and its edit page", async () => {
    const articleId = await addArticle({
      ...unsent,
      excerpt: "Un extrait.",
      content: "<p>Un texte.</p>",
      published: true,
    });
    const sendHref = `/admin/newsletter/envoyer/${articleId}`;
    const row = articleRow(await adminPage("/admin/dashboard"), unsent.title);
    const send = linksNamed(row, /^Envoyer par e-mail/);
    expect(send.map((link) => textOf(link))).toEqual([`Envoyer par e-mail « ${unsent.title} »`]);
    expect(send[0]?.getAttribute("href")).toBe(sendHref);
    const edit = await adminPage(`/admin/articles/${articleId}/modifier`);
    expect(
      linksNamed(edit.document, /^Envoyer par e-mail/).map((link) => link.getAttribute("href")),
    ).toEqual([sendHref]);
  });
});
