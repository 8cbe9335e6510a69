import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { EXPECTED_REFUSALS, signedInPage } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, hydrated, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage, baseUrl } = useBrowser();
const marker = randomBytes(4).toString("hex");
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});
afterAll(async () => {
  await serverDatabase()
    .delete(blogArticles)
    .where(like(blogArticles.slug, `%${marker}%`));
  await deleteAccount(admin);
});

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin, path, options);

const editor = (page: Page) => page.locator(".ProseMirror");

async function newArticlePage(): Promise<Page> {
  const page = await signedIn("/admin/articles/nouveau");
  await editor(page).waitFor();
  return page;
}

const articlesTitled = (title: string) =>
  serverDatabase().select().from(blogArticles).where(eq(blogArticles.title, title));

async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();
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
    await page.keyboard.type("Voir nos tarifs");
    for (let index = 0; index < "nos tarifs".length; index += 1) {
      await page.keyboard.press("Shift+ArrowLeft");
    }
    page.once("dialog", (dialog) => void dialog.accept("https://exemple.fr/tarifs"));
    await page.getByRole("button", { name: "Lien", exact: true }).click();
    await page.keyboard.type(" au studio");

    const link = editor(page).locator("a");
    await expect.poll(() => link.textContent()).toBe("nos tarifs");
    expect(await link.getAttribute("href")).toBe("https://exemple.fr/tarifs");
    expect(await editor(page).textContent()).toBe("Voir nos tarifs au studio");
  });

  it("inline images get a required, editable alternative text; the upload status ends in French", async () => {
    const page = await newArticlePage();
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
    // The result is said, then cleared: no 'Envoi… 100 %' left behind.
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

  it("the server refuses an inline image without alternative text", async () => {
    const page = await signedIn("/admin/articles/nouveau");
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const response = await fetch(`${baseUrl}/admin/articles/nouveau`, {
      method: "POST",
      headers: { cookie, origin: baseUrl },
      body: new URLSearchParams({
        title: "Sans alt",
        slug: `sans-alt-${marker}`,
        excerpt: "x",
        content: '<p>x</p><img src="/uploads/blog-images/a.jpg">',
        author: "x",
      }),
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      "Chaque image du contenu doit avoir un texte alternatif",
    );
  });

  it("validation errors are shown at the fields with a summary, focus on the first, and no toast", async () => {
    const page = await newArticlePage();
    expect(await page.locator("main form").getAttribute("novalidate")).not.toBeNull();
    await page.getByRole("button", { name: "Créer l'article" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "L'article n'est pas enregistré" });
    await expect.poll(() => summary.count()).toBe(1);
    expect(await summary.locator("p").first().textContent()).toBe(
      "L'article n'est pas enregistré : 4 champs à corriger.",
    );
    expect(await summary.getByRole("link").allTextContents()).toEqual([
      "Titre : Le titre est requis",
      "Slug : Le slug est requis",
      "Extrait : L'extrait est requis",
      "Contenu : Le contenu est requis",
    ]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("champ-title");
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    await summary.getByRole("link", { name: "Extrait : L'extrait est requis" }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("champ-excerpt");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a refusal by the server puts the focus on its field", async () => {
    const taken = `pris-${marker}`;
    await serverDatabase()
      .insert(blogArticles)
      .values({ title: "Pris", slug: taken, excerpt: "x", content: "<p>x</p>", author: "x" });
    const page = await newArticlePage();
    await page.getByLabel("Titre", { exact: true }).fill("Un autre");
    await page.getByLabel("Slug (adresse de l'article)").fill(taken);
    await page.getByLabel("Extrait").fill("Extrait");
    await editor(page).click();
    await page.keyboard.type("Texte");
    await page.getByRole("button", { name: "Créer l'article" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("champ-slug");
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
  });

  it("a new draft autosaves once, then its address and id follow; 'Publier' publishes it", async () => {
    const title = `Brouillon auto ${marker}`;
    const page = await newArticlePage();
    await page.getByLabel("Titre", { exact: true }).fill(title);
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

  it("autosave never touches a published article and needs a title", async () => {
    const [published] = await serverDatabase()
      .insert(blogArticles)
      .values({
        title: "Publié",
        slug: `publie-${marker}`,
        excerpt: "x",
        content: "<p>x</p>",
        author: "x",
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const page = await signedIn("/admin/dashboard");
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const post = (fields: Record<string, string>) =>
      fetch(`${baseUrl}/admin/articles/brouillon`, {
        method: "POST",
        headers: { cookie, origin: baseUrl },
        body: new URLSearchParams(fields),
      });
    const refused = await post({ id: published?.id ?? "", title: "Changé en douce" });
    expect(refused.status).toBe(409);
    const [after] = await articlesTitled("Publié");
    expect(after?.slug).toBe(`publie-${marker}`);

    const untitled = await post({ title: " ", excerpt: "x" });
    expect(untitled.status).toBe(400);
    expect(await untitled.json()).toMatchObject({ reason: "Le titre est requis" });

    const anonymous = await fetch(`${baseUrl}/admin/articles/brouillon`, {
      method: "POST",
      headers: { origin: baseUrl },
      body: new URLSearchParams({ title: "Anonyme" }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("'Publier' works without JavaScript", async () => {
    const page = await openPage("/admin/login", {
      javaScriptEnabled: false,
      allowConsole: EXPECTED_REFUSALS,
    });
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Mot de passe").fill(admin.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(/dashboard$/);
    await page.goto("/admin/articles/nouveau");
    const title = `Sans script ${marker}`;
    await page.getByLabel("Titre", { exact: true }).fill(title);
    await page.getByLabel("Slug (adresse de l'article)").fill(`sans-script-${marker}`);
    await page.getByLabel("Extrait").fill("Extrait");
    await page.locator("textarea[name=content]").fill("<p>Texte</p>");
    await page.getByRole("button", { name: "Publier" }).click();
    await page.waitForURL(/dashboard$/);
    const [row] = await articlesTitled(title);
    expect(row?.published).toBe(true);
  });

  it("the preview and the published article render through one component, the cover around its focal point", async () => {
    const slug = `meme-rendu-${marker}`;
    const cover = `/uploads/blog-images/inexistante-${marker}.jpg`;
    const [article] = await serverDatabase()
      .insert(blogArticles)
      .values({
        title: `Même rendu ${marker}`,
        slug,
        excerpt: "Extrait",
        content:
          "<h2>Section</h2><p>Un <strong>texte</strong>.</p><blockquote><p>Citation</p></blockquote>",
        author: "Studio",
        coverImageUrl: cover,
        coverFocalX: 20,
        coverFocalY: 80,
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const allow = { allowConsole: [/status of 404/] };
    const page = await signedIn(`/admin/articles/${article?.id}/apercu`, allow);
    const parts = (target: Page) =>
      target.evaluate(() => {
        const view = document.querySelector("[data-article-view]");
        return {
          article: view?.className,
          header: view?.querySelector("header")?.outerHTML,
          cover: view?.querySelector("img")?.outerHTML,
          body: view?.querySelector("[data-article-body]")?.outerHTML,
        };
      });
    const preview = await parts(page);
    const visitor = await openPage(`/blog/${slug}`, allow);
    const published = await parts(visitor);
    expect(preview.header).toContain(`Même rendu ${marker}`);
    expect(preview.body).toContain("<blockquote>");
    expect(preview).toEqual(published);
    expect(published.cover).toContain("object-position:20% 80%");

    const card = visitor.locator("article", { hasText: `Même rendu ${marker}` });
    await visitor.goto("/blog");
    expect(await card.locator("img").getAttribute("style")).toContain("object-position:20% 80%");
  });
});
