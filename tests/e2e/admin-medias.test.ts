import { randomBytes } from "node:crypto";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Gallery } from "../../app/content/schemas";
import { media, siteDocuments } from "../../app/server/db/schema";
import { cookieHeader, signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * The media library as the owner uses it: uploads with a progress bar, the page photos and galleries
 * changed and seen at once, their history. The page photos and /galerie it changes show on pages other
 * files check: a server of its own. The upload posted without JavaScript is tests/http/admin-medias.
 */
const url = useOwnServer();
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const alt = `Élèves devant le tableau ${marker}`;

const signedIn = (path: string) => signedInPage(openPage, admin.account(), path);

/** A real camera-sized JPEG (the demo photo enlarged): a few megabytes, so the upload takes a while. */
function bigJpeg(): Promise<Buffer> {
  return sharp(path.resolve("app/assets/photos/scolaire-hero.jpg"))
    .resize({ width: 3200 })
    .jpeg({ quality: 97 })
    .toBuffer();
}

async function uploadedRow() {
  const [row] = await serverDatabase().select().from(media).where(eq(media.alt, alt));
  return row;
}

async function loadGallery(): Promise<Gallery> {
  const [row] = await serverDatabase()
    .select()
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "gallery"));
  return row?.data as Gallery;
}

async function html(pathname: string): Promise<string> {
  const response = await fetch(`${url()}${pathname}`);
  expect(response.status).toBe(200);
  return response.text();
}

async function expectAccessible(page: Page) {
  await closeToasts(page);
  expect(await axeViolations(page)).toEqual([]);
}

/** Restores, from a page's history, the version saved `savesBack` saves before the newest one. */
async function restoreVersion(page: Page, heading: string, savesBack = 1) {
  const history = page.locator("section", { has: page.getByRole("heading", { name: heading }) });
  await history
    .getByRole("listitem")
    .nth(savesBack)
    .getByRole("button", { name: /Restaurer/ })
    .click();
  const dialog = page.getByRole("alertdialog", { name: "Remettre en ligne cette version ?" });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Restaurer cette version" }).click();
  await page.getByText("Version restaurée").first().waitFor();
}

// Signing in, axe on pages of sixty photos and encoding a camera photo at five widths take a while on a
// shared machine: each test gets a budget well above the default (no assertion depends on time).
describe("the media library (/admin/medias)", () => {
  it("refuses a file that is not an image in French, keeping the alternative text, and an empty one before sending", async () => {
    const page = await signedIn("/admin/medias");
    await expectAccessible(page);
    const kept = `Texte gardé ${marker}`;
    await page.getByLabel("Photo", { exact: true }).setInputFiles({
      name: "photo.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from("ceci n'est pas une photo"),
    });
    await page.getByLabel("Texte alternatif (obligatoire)").fill(kept);
    await page.getByRole("button", { name: "Téléverser la photo" }).click();
    await page.getByText("Le fichier n'est pas une image valide.").waitFor();
    expect(await page.getByLabel("Texte alternatif (obligatoire)").inputValue()).toBe(kept);
    expect(await axeViolations(page)).toEqual([]);

    // The upload page, where the form posts without JavaScript.
    await page.goto("/admin/medias/televerser");
    await expectAccessible(page);

    // An empty description is refused before anything is sent.
    await page.getByLabel("Texte alternatif (obligatoire)").fill("");
    await page.getByRole("button", { name: "Téléverser la photo" }).click();
    await page.getByText("le texte alternatif est obligatoire").first().waitFor();
  }, 240_000);

  it("uploads a photo into a page's hero with a progress bar, shows it at once, guards it while used, restores and deletes it", async () => {
    const page = await signedIn("/admin/medias/emplacements");
    await expectAccessible(page);
    await page.getByRole("link", { name: "Changer la photo : Scolaire : grande photo" }).click();
    await page.getByRole("heading", { name: "Changer la photo" }).waitFor();
    await expectAccessible(page);

    // A slow line (≈ 1 MB/s up), so that the progress bar shows while the photo is sent.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });
    await page.getByLabel("Photo", { exact: true }).setInputFiles({
      name: "IMG_2024.jpg",
      mimeType: "image/jpeg",
      buffer: await bigJpeg(),
    });
    await page.getByLabel("Texte alternatif (obligatoire)").fill(alt);
    await page.getByRole("button", { name: "Téléverser la photo" }).click();
    await page.getByRole("progressbar").waitFor();
    await page.waitForURL(/\/admin\/medias\/emplacements$/, { timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    const row = await uploadedRow();
    expect(row).toMatchObject({ width: 2400, widths: [400, 800, 1280, 1920, 2400] });
    const file = row?.file ?? "";
    expect(file).not.toBe("");

    // The public page shows it at once: its widths in the srcset, its intrinsic size on the <img>.
    const scolaire = await html("/scolaire");
    expect(scolaire).toContain(`/uploads/media/${file}-1920.avif 1920w`);
    const image = /<img[^>]*\/uploads\/media\/[^>]*>/.exec(scolaire)?.[0] ?? "";
    expect(image).toMatch(/width="\d+"/);
    expect(image).toMatch(/height="\d+"/);
    expect((await fetch(`${url()}/uploads/media/${file}-400.avif`)).status).toBe(200);

    // Its page: the focal point, placed after the upload.
    await page.goto(`/admin/medias/${row?.id}`);
    await page.getByText("Scolaire : grande photo").first().waitFor();
    await expectAccessible(page);
    await page.getByLabel(/Position horizontale/).fill("30");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await page.getByText("Photo enregistrée").first().waitFor();
    expect(await uploadedRow()).toMatchObject({ focalX: 30, focalY: 50 });

    // In use: no delete button, and the action refuses it too.
    await page.goto("/admin/medias");
    const card = page.locator(`li[data-media-id="${row?.id}"]`);
    await card.getByText("Utilisée : Scolaire : grande photo").waitFor();
    expect(await card.getByRole("button", { name: /Supprimer/ }).count()).toBe(0);
    const refused = await fetch(`${url()}/admin/medias`, {
      method: "POST",
      headers: { cookie: await cookieHeader(page), origin: url() },
      body: new URLSearchParams({ intent: "delete", id: row?.id ?? "" }),
      redirect: "manual",
    });
    expect(refused.status).toBe(302);
    expect(await uploadedRow()).toBeDefined();

    // The history brings the demo photo back.
    await page.goto("/admin/medias/emplacements");
    await restoreVersion(page, "Historique des photos des pages");
    const restored = await html("/scolaire");
    expect(restored).not.toContain(`/uploads/media/${file}`);
    expect(restored).toMatch(/scolaire-hero[^"]*\.avif/);

    // Unused now: it can be deleted, and its files go with it.
    await page.goto("/admin/medias");
    await closeToasts(page);
    await card.getByRole("button", { name: /Supprimer/ }).click();
    const dialog = page.getByRole("alertdialog", {
      name: "Supprimer cette photo de la médiathèque ?",
    });
    await dialog.getByRole("button", { name: /Supprimer/ }).click();
    await page.getByText("Photo supprimée").first().waitFor();
    expect(await uploadedRow()).toBeUndefined();
    expect((await fetch(`${url()}/uploads/media/${file}-400.avif`)).status).toBe(404);
  }, 240_000);

  it("changes a /galerie item's title and photo and moves another up, each seen at once, then restores the gallery", async () => {
    const page = await signedIn("/admin/medias/galerie");
    await expectAccessible(page);
    const [before] = (await loadGallery()).items;
    const title = `Mariage au château ${marker}`;
    await page.locator("#champ-item-0-title").fill(title);
    await page.getByRole("button", { name: "Enregistrer la galerie" }).click();
    await page.getByText("Galerie enregistrée").first().waitFor();
    expect(await html("/galerie")).toContain(title);

    // Its photo: the second item's (demo photos, each named after its file in the built assets).
    const [first, second] = (await loadGallery()).items;
    const nameOf = async (id: string | undefined) =>
      (
        await serverDatabase()
          .select()
          .from(media)
          .where(eq(media.id, id ?? ""))
      )[0]?.builtin;
    const [firstName, secondName] = [await nameOf(first?.photo), await nameOf(second?.photo)];
    expect(await html("/galerie")).toContain(`/assets/${firstName}-`);
    await page.getByRole("link", { name: `Changer la photo : ${title}` }).click();
    await page.getByRole("heading", { name: "Changer la photo" }).waitFor();
    await expectAccessible(page);
    await page.locator(`input[name="photo"][value="${second?.photo}"]`).check();
    await page.getByRole("button", { name: "Utiliser cette photo" }).click();
    await page.getByText("Photo remplacée").first().waitFor();
    const galerie = await html("/galerie");
    expect(galerie).not.toContain(`/assets/${firstName}-`);
    expect(galerie).toContain(`/assets/${secondName}-`);

    // The second item moved up: /galerie shows the new order at once.
    await page.goto("/admin/medias/galerie");
    const order = (text: string) => [text.indexOf(title), text.indexOf(second?.title ?? "?")];
    const [a, b] = order(await html("/galerie"));
    expect(a).toBeGreaterThan(-1);
    expect(b).toBeGreaterThan(a ?? 0);
    expect(await page.getByRole("button", { name: `Monter « ${title} »` }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: `Monter « ${second?.title} »` }).click();
    await page.getByText("Galerie enregistrée").first().waitFor();
    const [firstAfter, secondAfter] = (await loadGallery()).items;
    expect([firstAfter?.title, secondAfter?.title]).toEqual([second?.title, title]);
    const [a2, b2] = order(await html("/galerie"));
    expect(b2).toBeGreaterThan(-1);
    expect(a2).toBeGreaterThan(b2 ?? 0);
    await expectAccessible(page);

    // Three saves: the title, the photo, the order; the version before them all comes back.
    await restoreVersion(page, "Historique de la galerie", 3);
    const restored = await html("/galerie");
    expect(restored).not.toContain(title);
    expect(restored).toContain("Mariage de Camille et Thomas");
    const [firstBack] = (await loadGallery()).items;
    expect(firstBack).toEqual(before);
  }, 240_000);

  it("adds a titled photo of the library to /boudoir's empty gallery, seen at once, then removes it", async () => {
    const page = await signedIn("/admin/medias/emplacements");
    const form = page.getByRole("form", { name: "Boudoir : la galerie" });
    expect(await form.getByRole("group").count()).toBe(0);
    expect(await html("/boudoir")).toContain("Galerie disponible prochainement");
    await form.getByRole("button", { name: "Ajouter une photo" }).click();
    const item = form.getByRole("group", { name: "Photo 1 (Boudoir : la galerie)" });
    await item.waitFor();
    // A title and a photo are both required.
    await form.getByRole("button", { name: "Enregistrer la galerie" }).click();
    await item.getByText("Choisissez une photo de la liste").waitFor();
    expect(await item.getByText("Ce champ est requis").count()).toBe(1);
    await expectAccessible(page);

    const title = `Dentelle et lumière ${marker}`;
    await item.getByLabel("Titre").fill(title);
    const photo = item.getByLabel(/^Photo/);
    await photo.selectOption({ index: 1 });
    const chosen = await photo.inputValue();
    await form.getByRole("button", { name: "Enregistrer la galerie" }).click();
    await page.getByText("Galerie enregistrée").first().waitFor();
    const boudoir = await html("/boudoir");
    expect(boudoir).toContain(title);
    expect(boudoir).not.toContain("Galerie disponible prochainement");
    const [row] = await serverDatabase()
      .select()
      .from(siteDocuments)
      .where(eq(siteDocuments.key, "pagePhotos"));
    expect((row?.data as { galleries: Record<string, unknown> }).galleries.boudoir).toEqual([
      { title, photo: chosen },
    ]);

    await closeToasts(page);
    const saved = form.getByRole("group", { name: `${title} (Boudoir : la galerie)` });
    await saved.getByRole("button", { name: /^Retirer/ }).click();
    await expect.poll(() => form.getByRole("group").count()).toBe(0);
    await form.getByRole("button", { name: "Enregistrer la galerie" }).click();
    await page.getByText("Galerie enregistrée").first().waitFor();
    await expect.poll(async () => html("/boudoir")).toContain("Galerie disponible prochainement");
    expect(await html("/boudoir")).not.toContain(title);
  }, 240_000);
});
