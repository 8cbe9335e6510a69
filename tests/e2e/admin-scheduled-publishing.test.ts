import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { parisDateTimeInputValue } from "../../app/lib/dates";
import { blogArticles } from "../../app/server/db/schema";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { addArticle, DAY_MS } from "../support/newsletter-admin";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServer } from "../support/own-server";

/*
 * Scheduling an article in the browser (decision 0080): the form's own check of a time already past,
 * the autosave that leaves the scheduling to the form's buttons, and axe on the pages that show what was
 * scheduled or is still to send. A server of its own: a published article would show on the shared
 * server's blog. Publishing at the time given and the newsletter that follows, the server's own check and
 * the dashboard's links are tests/http/admin-scheduled-publishing.
 */

const url = useOwnServer();
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();

const marker = randomBytes(4).toString("hex");
// The refused attempt's title: the autosave keeps a draft of it (never its scheduling).
const refused = { title: `Essai programmé ${marker}`, slug: `essai-programme-${marker}` };
const scheduled = { title: `Portraits d'hiver ${marker}`, slug: `portraits-d-hiver-${marker}` };
const unsent = { title: `Déjà en ligne ${marker}`, slug: `deja-en-ligne-${marker}` };

afterAll(async () => {
  await serverDatabase()
    .delete(blogArticles)
    .where(inArray(blogArticles.slug, [refused.slug, scheduled.slug, unsent.slug]));
});

const signedIn = (path: string) => signedInPage(openPage, admin.account(), path);

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

describe("scheduling an article", () => {
  it("refuses a time already past, in French, keeping what was typed; the autosave never schedules", async () => {
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
  });

  it("the dashboard with a scheduled article and the edit page offering « Envoyer par e-mail » have no accessibility violation", async () => {
    await serverDatabase()
      .insert(blogArticles)
      .values({
        ...scheduled,
        excerpt: "Un extrait.",
        content: "<p>Un texte.</p>",
        author: "Claire",
        scheduledAt: new Date(Date.now() + DAY_MS),
        newsletterOnPublish: true,
      });
    const publishedId = await addArticle({
      ...unsent,
      excerpt: "Un extrait.",
      content: "<p>Un texte.</p>",
      published: true,
    });
    const page = await signedIn("/admin/dashboard");
    const row = page.locator("li", { hasText: scheduled.title });
    await expect.poll(() => row.getByText("Programmé", { exact: true }).count()).toBe(1);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`/admin/articles/${publishedId}/modifier`);
    await page.getByRole("link", { name: /^Envoyer par e-mail/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
