import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Page } from "playwright-core";
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
import { EXPECTED_REFUSALS, signedInPage, waitForToastsToClose } from "./support/admin";
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
 * Scheduled publishing as the owner (issue 12, item 5): an article scheduled a little over a minute ahead,
 * newsletter box ticked, is absent from /blog, the feed and the sitemap, then present once its time has
 * come, and its newsletter reaches the subscriber once. It publishes and sends on a server of its own,
 * with an SMTP capture of its own: the shared server's pages and mailbox stay as other files expect.
 */

const { url, mailsTo } = useOwnServerWithMail();
const { openPage } = useBrowser({ baseUrl: url });

const marker = randomBytes(4).toString("hex");
const title = `Portraits d'hiver ${marker}`;
const slug = `portraits-d-hiver-${marker}`;
// The refused attempts' titles: the autosave keeps a draft of the first (never its scheduling).
const refused = { title: `Essai programmé ${marker}`, slug: `essai-programme-${marker}` };
const withoutScript = { title: `Sans script ${marker}`, slug: `sans-script-${marker}` };
const unsent = { title: `Déjà en ligne ${marker}`, slug: `deja-en-ligne-${marker}` };
const subscriber = `abonnee-${marker}@example.com`;
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
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
    .where(inArray(blogArticles.slug, [slug, refused.slug, withoutScript.slug, unsent.slug]));
  await database
    .delete(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, subscriber));
  await deleteAccount(admin);
});

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin, path, options);

/** The Paris date and time `seconds` from now, to the second, as `<input type="datetime-local">` takes it. */
function parisTimeIn(seconds: number): { typed: string; at: Date } {
  const at = new Date(Math.ceil((Date.now() + seconds * 1000) / 1000) * 1000);
  const typed = `${parisDateTimeInputValue(at)}:${String(at.getUTCSeconds()).padStart(2, "0")}`;
  if (parisDateTimeToInstant(typed)?.getTime() !== at.getTime()) throw new Error(typed);
  return { typed, at };
}

async function fillArticle(
  page: Page,
  { title, scheduledAt }: { title: string; scheduledAt: string },
) {
  await page.locator(".ProseMirror").waitFor();
  await page.getByLabel("Titre", { exact: true }).fill(title);
  await page.getByLabel("Extrait").fill("La lumière basse de janvier, au studio d'Ussel.");
  await page.locator(".ProseMirror").click();
  await page.keyboard.type("Des portraits tout en douceur.");
  await page.getByLabel("Date et heure de publication (heure de Paris)").fill(scheduledAt);
  await page.getByLabel("Envoyer l'article aux abonnés à la publication").check();
}

const PAST_MESSAGE = "La date de publication programmée doit être dans le futur";

async function publicText(path: string): Promise<string> {
  const response = await fetch(`${url()}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

describe("scheduling an article", () => {
  it("refuses a time already past, in French, keeping what was typed (with and without JavaScript)", async () => {
    const past = parisDateTimeInputValue(new Date(Date.now() - 120_000));
    const page = await signedIn("/admin/articles/nouveau");
    await fillArticle(page, { title: refused.title, scheduledAt: past });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Créer l'article" }).click();
    const message = page.locator("main form").getByText(PAST_MESSAGE, { exact: true });
    await expect.poll(() => message.count()).toBe(1);
    // Still on the form: the new draft's own address, or its editing address once it has saved itself
    // (a slow machine can take longer than the autosave's delay to get here).
    expect(page.url()).toMatch(/\/admin\/articles\/(nouveau|[0-9a-f-]{36}\/modifier)$/);
    expect(await page.getByLabel("Titre", { exact: true }).inputValue()).toBe(refused.title);
    expect(
      await page.getByLabel("Date et heure de publication (heure de Paris)").inputValue(),
    ).toBe(past);
    expect(await axeViolations(page)).toEqual([]);
    // The draft saves itself meanwhile, but its scheduling only ever through the form's buttons.
    await expect.poll(() => page.getByText(/^Enregistré à /).count(), { timeout: 20_000 }).toBe(1);
    const [autosaved] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.slug, refused.slug));
    expect(autosaved).toMatchObject({
      published: false,
      scheduledAt: null,
      newsletterOnPublish: false,
    });

    // The server's own check, the browser's left out.
    const plain = await openPage("/admin/login", {
      javaScriptEnabled: false,
      allowConsole: EXPECTED_REFUSALS,
    });
    await plain.getByLabel("Email").fill(admin.email);
    await plain.getByLabel("Mot de passe").fill(admin.password);
    await plain.getByRole("button", { name: "Se connecter" }).click();
    await plain.waitForURL(/dashboard$/);
    await plain.goto("/admin/articles/nouveau");
    await plain.getByLabel("Titre", { exact: true }).fill(withoutScript.title);
    await plain.getByLabel("Extrait").fill("Un extrait gardé");
    await plain.getByLabel("Date et heure de publication (heure de Paris)").fill(past);
    await plain.getByLabel("Envoyer l'article aux abonnés à la publication").check();
    await plain.getByRole("button", { name: "Créer l'article" }).click();
    await plain.waitForLoadState();
    await expect
      .poll(() => plain.locator("main form").getByText(PAST_MESSAGE, { exact: true }).count())
      .toBe(1);
    expect(
      await plain.getByLabel("Date et heure de publication (heure de Paris)").inputValue(),
    ).toBe(past);
    expect(
      await plain.getByLabel("Envoyer l'article aux abonnés à la publication").isChecked(),
    ).toBe(true);
    expect(await plain.getByLabel("Extrait").inputValue()).toBe("Un extrait gardé");
    expect(
      await serverDatabase()
        .select()
        .from(blogArticles)
        .where(eq(blogArticles.slug, withoutScript.slug)),
    ).toEqual([]);
  });

  it("publishes at the time given, on the blog, the feed and the sitemap, and sends it to the subscribers once", async () => {
    const { typed, at } = parisTimeIn(70);
    const page = await signedIn("/admin/articles/nouveau");
    await fillArticle(page, { title, scheduledAt: typed });
    await page.getByRole("button", { name: "Créer l'article" }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await expect.poll(() => page.getByText("Article créé").count()).toBe(1);

    // The dashboard: 'Programmé', with the date and time in Paris.
    const row = page.locator("li", { hasText: title });
    await expect.poll(() => row.getByText("Programmé", { exact: true }).count()).toBe(1);
    expect(await row.textContent()).toContain(
      `Publication programmée le ${formatLongDateTimeFr(at)}, avec envoi aux abonnés`,
    );
    expect(await row.getByRole("link", { name: /Envoyer par e-mail/ }).count()).toBe(0);
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);
    const [stored] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.slug, slug));
    expect(stored).toMatchObject({ published: false, scheduledAt: at, newsletterOnPublish: true });

    // The edit page shows what was scheduled.
    await row.getByRole("link", { name: /Modifier/ }).click();
    await page.waitForURL(/\/modifier$/);
    expect(
      await page.getByLabel("Date et heure de publication (heure de Paris)").inputValue(),
    ).toBe(parisDateTimeInputValue(at));
    expect(
      await page.getByLabel("Envoyer l'article aux abonnés à la publication").isChecked(),
    ).toBe(true);

    // Until then, a draft: nowhere public.
    expect(Date.now()).toBeLessThan(at.getTime());
    expect(await publicText("/blog")).not.toContain(title);
    expect(await publicText("/blog/rss.xml")).not.toContain(slug);
    expect(await publicText("/sitemap.xml")).not.toContain(slug);
    expect((await fetch(`${url()}/blog/${slug}`)).status).toBe(404);
    expect(mailsTo(subscriber)).toEqual([]);

    // Then published by the job queue, within its polling interval of the time.
    await expect
      .poll(
        async () => (await fetch(`${url()}/blog`).then((answer) => answer.text())).includes(title),
        {
          timeout: 150_000,
          interval: 2_000,
        },
      )
      .toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    expect(await publicText("/blog/rss.xml")).toContain(`/blog/${slug}`);
    expect(await publicText("/sitemap.xml")).toContain(`/blog/${slug}`);
    expect(await publicText(`/blog/${slug}`)).toContain(title);
    const [published] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.slug, slug));
    expect(published).toMatchObject({ published: true, publishedAt: at, scheduledAt: null });

    // Its newsletter, once.
    await expect
      .poll(() => mailsTo(subscriber).length, {
        timeout: 60_000,
        interval: 1_000,
      })
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
    await page.goto("/admin/dashboard");
    await expect.poll(() => row.getByText("Publié", { exact: true }).count()).toBe(1);
    const sent = row.getByRole("link", { name: /^Envoyé le / });
    expect(await sent.getAttribute("href")).toBe(`/admin/newsletter/envois/${sendings[0]?.id}`);
    expect(await row.getByText("Programmé", { exact: true }).count()).toBe(0);
    // The same on the article's edit page.
    await page.goto(`/admin/articles/${published?.id}/modifier`);
    expect(await page.getByRole("link", { name: /^Envoyé le / }).getAttribute("href")).toBe(
      `/admin/newsletter/envois/${sendings[0]?.id}`,
    );
    expect(await page.getByText("Programmer la publication").count()).toBe(0);
    expect(mailsTo(subscriber)).toHaveLength(1);
  }, 300_000);

  it("a published article not sent yet offers « Envoyer par e-mail » on the dashboard and its edit page", async () => {
    const [article] = await serverDatabase()
      .insert(blogArticles)
      .values({
        title: unsent.title,
        slug: unsent.slug,
        excerpt: "Un extrait.",
        content: "<p>Un texte.</p>",
        author: "Claire",
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const page = await signedIn("/admin/dashboard");
    const row = page.locator("li", { hasText: unsent.title });
    const send = row.getByRole("link", { name: `Envoyer par e-mail « ${unsent.title} »` });
    expect(await send.getAttribute("href")).toBe(`/admin/newsletter/envoyer/${article?.id}`);
    await page.goto(`/admin/articles/${article?.id}/modifier`);
    expect(await page.getByRole("link", { name: /^Envoyer par e-mail/ }).getAttribute("href")).toBe(
      `/admin/newsletter/envoyer/${article?.id}`,
    );
    expect(await axeViolations(page)).toEqual([]);
  });
});
