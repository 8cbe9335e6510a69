import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { signedInPage } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, hydrated, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

/*
 * The article editor as the owner uses it: typing, the toolbar, inline images, the cover's focal point,
 * the autosave. The form's validation is admin-articles.test.ts; what the server answers without a
 * browser (its own checks, the autosave's refusals, the preview's HTML) is tests/http/admin-articles.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  await serverDatabase()
    .delete(blogArticles)
    .where(like(blogArticles.slug, `%${marker}%`));
});

const signedIn = (path: string) => signedInPage(openPage, admin.account(), path);

const editor = (page: Page) => page.locator(".ProseMirror");

async function newArticlePage(options: { clock?: boolean } = {}): Promise<Page> {
  const page = await signedInPage(openPage, admin.account(), "/admin/articles/nouveau", options);
  await editor(page).waitFor();
  return page;
}

/**
 * The editor saves a draft 3 s after the last change (`AUTOSAVE_DELAY_MS`): on a page opened with
 * `clock: true`, the test moves the page's clock past it instead of waiting (decision 0175). What follows
 * waits on the save itself, as before.
 */
const AUTOSAVE_DELAY_MS = 3_000;
const pastAutosaveDelay = (page: Page) => page.clock.fastForward(AUTOSAVE_DELAY_MS);

const articlesTitled = (title: string) =>
  serverDatabase().select().from(blogArticles).where(eq(blogArticles.title, title));

async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();
}

/** Types `text` in the editor, then selects its last `words` with the keyboard (Shift+←). */
async function typeAndSelectLast(page: Page, text: string, words: string) {
  await page.keyboard.type(text);
  for (let index = 0; index < words.length; index += 1) {
    await page.keyboard.press("Shift+ArrowLeft");
  }
}

describe("article editor", () => {
  it("keeps what the owner typed in the plain text area while the editor's script was on its way", async () => {
    const page = await signedIn("/admin/dashboard");
    // The editor's script is held back (a slow line): the plain text area stands in, and takes text.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/rich-text-editor-[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto("/admin/articles/nouveau");
    await hydrated(page);
    const plain = page.locator("textarea[name=content]");
    await plain.fill("Premier paragraphe tapé avant l'éditeur");
    release();
    await editor(page).waitFor();
    await expect
      .poll(() => editor(page).textContent())
      .toContain("Premier paragraphe tapé avant l'éditeur");
    await expect
      .poll(() => page.locator("input[type=hidden][name=content]").inputValue())
      .toContain("Premier paragraphe tapé avant l'éditeur");
  });

  it("after inserting a link the caret is after it: the next keys add text, they do not replace the words", async () => {
    const page = await newArticlePage();
    await editor(page).click();
    await typeAndSelectLast(page, "Voir nos tarifs", "nos tarifs");
    await page.getByRole("button", { name: "Lien", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Ajouter un lien" });
    await dialog.getByLabel("Adresse du lien").fill("https://exemple.fr/tarifs");
    await dialog.getByRole("button", { name: "Appliquer le lien" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.keyboard.type(" au studio");

    const link = editor(page).locator("a");
    await expect.poll(() => link.textContent()).toBe("nos tarifs");
    expect(await link.getAttribute("href")).toBe("https://exemple.fr/tarifs");
    expect(await editor(page).textContent()).toBe("Voir nos tarifs au studio");
  });

  it("links to a page of the site from the site's own dialog: picked from the list, checked, changed, removed", async () => {
    const page = await newArticlePage();
    // The browser's prompt() is not used any more: any dialog of the browser fails the test.
    page.on("dialog", (browserDialog) => {
      throw new Error(`boîte du navigateur : ${browserDialog.message()}`);
    });
    await editor(page).click();
    await typeAndSelectLast(page, "Voir nos tarifs", "nos tarifs");
    await page.getByRole("button", { name: "Lien", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Ajouter un lien" });
    const address = dialog.getByLabel("Adresse du lien");
    // A wrong address is refused in French, at the field.
    await address.fill("tarifs");
    await address.press("Enter");
    await dialog
      .getByText(
        "Adresse invalide : une page du site (/tarifs), une adresse web (https://…) ou un e-mail (mailto:…)",
      )
      .waitFor();
    // The list of the site's pages filters as she types; a page picked fills the address.
    await dialog.getByLabel("Ou choisissez une page du site").fill("tarif");
    const pages = dialog.getByRole("list", { name: "Pages du site" });
    await pages.getByRole("button", { name: /^Tarifs/ }).click();
    expect(await address.inputValue()).toBe("/tarifs");
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Appliquer le lien" }).click();
    await dialog.waitFor({ state: "detached" });
    const link = editor(page).locator("a");
    await expect.poll(() => link.getAttribute("href")).toBe("/tarifs");
    // Nothing of a new tab or nofollow in what the editor writes for a page of the site.
    expect(await link.getAttribute("target")).toBeNull();
    expect(await link.getAttribute("rel")).toBeNull();

    // On the link again: « Modifier le lien », then « Retirer le lien ».
    await link.click();
    await page.getByRole("button", { name: "Lien", exact: true }).click();
    const editing = page.getByRole("dialog", { name: "Modifier le lien" });
    expect(await editing.getByLabel("Adresse du lien").inputValue()).toBe("/tarifs");
    await editing.getByRole("button", { name: "Retirer le lien" }).click();
    await editing.waitFor({ state: "detached" });
    await expect.poll(() => editor(page).locator("a").count()).toBe(0);
    expect(await editor(page).textContent()).toBe("Voir nos tarifs");
  });

  it("inline images get a required, editable alternative text; the upload status ends in French", async () => {
    const page = await newArticlePage({ clock: true });
    await editor(page).click();
    await page.keyboard.type("Avant l'image");
    await page
      .locator('[role="toolbar"] input[type="file"]')
      .setInputFiles({ name: "maries.jpg", mimeType: "image/jpeg", buffer: await jpeg(800, 600) });

    const dialog = page.getByRole("dialog", { name: "Texte alternatif de l'image" });
    await dialog.waitFor();
    const status = page.locator('[role="toolbar"] [role="status"]');
    expect(await status.textContent()).toBe("Image téléversée.");
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Insérer l'image" }).click();
    await expect.poll(() => dialog.getByText("Le texte alternatif est requis").count()).toBe(1);
    await dialog.getByLabel("Texte alternatif").fill("Les mariés sous les platanes");
    await dialog.getByRole("button", { name: "Insérer l'image" }).click();

    const image = editor(page).locator("img");
    await expect.poll(() => image.getAttribute("alt")).toBe("Les mariés sous les platanes");
    // The result is said, then cleared (after 4 s, DONE_VISIBLE_MS of app/components/admin/upload.ts, on
    // the page's clock moved on): no 'Envoi… 100 %' left behind.
    await page.clock.fastForward(4_000);
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe("");
    expect(await page.getByText(/100 %/).count()).toBe(0);

    await image.click();
    await page.getByRole("button", { name: "Texte alternatif de l'image" }).click();
    const edit = page.getByRole("dialog", { name: "Texte alternatif de l'image" });
    expect(await edit.getByLabel("Texte alternatif").inputValue()).toBe(
      "Les mariés sous les platanes",
    );
    await edit.getByLabel("Texte alternatif").fill("Les mariés à Brive");
    await edit.getByRole("button", { name: "Enregistrer le texte" }).click();
    await expect.poll(() => image.getAttribute("alt")).toBe("Les mariés à Brive");
  });

  it("a new draft autosaves once, then its address and id follow; 'Publier' publishes it", async () => {
    const title = `Brouillon auto ${marker}`;
    const page = await newArticlePage({ clock: true });
    await page.getByLabel("Titre", { exact: true }).fill(title);
    await pastAutosaveDelay(page);
    const status = page.locator("main form > div:last-child [role='status']");
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^Enregistré à /);
    await expect.poll(() => page.url()).toMatch(/\/admin\/articles\/[0-9a-f-]{36}\/modifier$/);
    let rows = await articlesTitled(title);
    expect(rows).toHaveLength(1);
    const [draft] = rows;
    expect(draft).toMatchObject({
      published: false,
      slug: `brouillon-auto-${marker}`,
      excerpt: "",
    });
    expect(page.url()).toContain(draft?.id);
    const paris = new Intl.DateTimeFormat("fr-FR", {
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "Europe/Paris",
    });
    expect(await status.textContent()).toBe(`Enregistré à ${paris.format(draft?.updatedAt)}`);

    // A second change updates the same draft.
    await page.getByLabel("Extrait").fill("Un extrait enregistré tout seul.");
    await pastAutosaveDelay(page);
    await expect
      .poll(async () => (await articlesTitled(title))[0]?.excerpt, { timeout: 15_000 })
      .toBe("Un extrait enregistré tout seul.");

    // The cover's focal point: a click on the preview, then the keyboard.
    await page
      .locator("fieldset", { hasText: "Image de couverture" })
      .locator('input[type="file"]')
      .setInputFiles({
        name: "couverture.jpg",
        mimeType: "image/jpeg",
        buffer: await jpeg(1200, 800),
      });
    const preview = page.getByAltText("Aperçu : image de couverture");
    await preview.waitFor();
    await expect
      .poll(() =>
        preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      )
      .toBe(1200);
    const box = await preview.boundingBox();
    if (!box) throw new Error("aperçu sans dimensions");
    await preview.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    const horizontal = page.getByLabel(/^Position horizontale/);
    const vertical = page.getByLabel(/^Position verticale/);
    await expect.poll(() => horizontal.inputValue()).toMatch(/^2[4-6]$/);
    expect(Number(await vertical.inputValue())).toBeGreaterThanOrEqual(74);
    await horizontal.fill("30");
    await vertical.focus();
    await vertical.fill("70");
    await vertical.press("ArrowUp");
    expect(await vertical.inputValue()).toBe("71");

    await editor(page).click();
    await page.keyboard.type("Le texte de l'article.");
    await page.getByRole("button", { name: "Publier" }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await expect.poll(() => page.getByText("Article publié").count()).toBe(1);
    rows = await articlesTitled(title);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ published: true, coverFocalX: 30, coverFocalY: 71 });
    expect(rows[0]?.publishedAt).toBeInstanceOf(Date);
  });

  it("« Nouvel article » offers the draft left unfinished; the same title opens it instead of a twin", async () => {
    const title = `Laissé en plan ${marker}`;
    const slug = `laisse-en-plan-${marker}`;
    const status = (page: Page) => page.locator("main form > div:last-child [role='status']");
    const left = await newArticlePage({ clock: true });
    await left.getByLabel("Titre", { exact: true }).fill(title);
    await pastAutosaveDelay(left);
    await expect
      .poll(() => status(left).textContent(), { timeout: 15_000 })
      .toMatch(/^Enregistré à /);
    await left.close({ runBeforeUnload: false });
    const [draft] = await articlesTitled(title);

    const page = await newArticlePage({ clock: true });
    const offer = page.getByRole("link", {
      name: new RegExp(`^Reprendre le brouillon « ${title} » enregistré le `),
    });
    await offer.waitFor();
    expect(await page.getByText("Ou commencez un nouvel article ci-dessous.").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // She writes the same title again: the unfinished draft opens, completed, instead of a twin beside it
    // (decision 0130).
    await page.getByLabel("Titre", { exact: true }).fill(title);
    await pastAutosaveDelay(page);
    await page.waitForURL(new RegExp(`/admin/articles/${draft?.id}/modifier$`), {
      timeout: 15_000,
    });
    await expect.poll(() => page.getByLabel("Slug (adresse de l'article)").inputValue()).toBe(slug);
    expect(await page.getByLabel("Titre", { exact: true }).inputValue()).toBe(title);
    expect(await articlesTitled(title)).toHaveLength(1);
  });

  it("what was typed is saved when the tab is closed", async () => {
    const title = `Onglet fermé ${marker}`;
    const page = await newArticlePage();
    await page.getByLabel("Titre", { exact: true }).fill(title);
    await page.close({ runBeforeUnload: false });
    await expect
      .poll(async () => (await articlesTitled(title)).length, { timeout: 10_000 })
      .toBe(1);
    expect((await articlesTitled(title))[0]?.published).toBe(false);
  });
});
