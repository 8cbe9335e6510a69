import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import {
  addReadyPhotoWithPlaceholder,
  insertExpiredGallery,
  clientAccessCookie,
  removeClientGalleries,
} from "../support/client-galleries";
import { insertTestGallery, type TestGallery } from "../support/galleries";
import { makeTestPhotoSet } from "../support/photos";
import { serverDatabase } from "../support/server-under-test";
import { axeViolations, useBrowser } from "./support/browser";
import { viewerZoomedIn, zoomInWithKeyboard } from "./support/viewer";

/*
 * The client's gallery as the client lives it with JavaScript (issue 14, items 2 and 5; decision 0103): the
 * code typed, the justified grid with its placeholders, the viewer (counter, arrows, zoom, Escape),
 * favourites and a comment, the validated selection that locks; axe on each. What the server answers
 * (missing and expired galleries, the forms without JavaScript, the limits, the files) is in
 * tests/http/client-gallery-view.test.ts. Photos are placed ready in the server's store.
 */

const { openPage } = useBrowser();
// Refused forms (400) and the expired gallery (410) show in the console as failed loads.
const allowConsole = [/status of 4\d\d/];

let gallery: TestGallery;
let expired: TestGallery;
let photoIds: string[] = [];

beforeAll(async () => {
  const database = serverDatabase();
  gallery = await insertTestGallery(database, { title: "Mariage de Léa et Hugo" });
  expired = await insertExpiredGallery();
  for (const photo of await makeTestPhotoSet(4)) {
    photoIds.push(await addReadyPhotoWithPlaceholder(gallery.id, photo));
  }
}, 120_000);

afterAll(async () => {
  await removeClientGalleries([gallery.id, expired.id]);
  photoIds = [];
});

const galleryPath = (id: string) => `/galerie-client/${id}`;

/** The gallery's page as the client finds it once the code was typed (the form has its own test). */
const openGallery = () =>
  openPage(galleryPath(gallery.id), { allowConsole, session: clientAccessCookie(gallery.id) });

describe("the client's gallery", () => {
  it("asks for the code: a wrong one stays with its message, the right one in any form opens the grid, its placeholders painted after hydration", async () => {
    const gone = await openPage(galleryPath(expired.id), { allowConsole });
    await gone.getByRole("heading", { name: "Galerie expirée" }).waitFor();
    expect(await axeViolations(gone)).toEqual([]);

    const page = await openPage(galleryPath(gallery.id), { allowConsole });
    expect(await axeViolations(page)).toEqual([]);
    const field = page.getByLabel("Code d'accès");
    await field.fill("zzzz-zzzz");
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    await page
      .getByText("Code d'accès incorrect. Vérifiez le code à 8 caractères reçu par e-mail.")
      .waitFor();
    expect(await field.inputValue()).toBe("zzzz-zzzz");

    const typed = `${gallery.accessCode.slice(0, 4).toLowerCase()}-${gallery.accessCode.slice(4)}`;
    await field.fill(typed);
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    const tiles = page.locator("ul.justified > li");
    await tiles.first().waitFor();
    expect(await tiles.count()).toBe(4);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>("ul.justified > li")].every((tile) =>
          tile.style.backgroundImage.startsWith('url("data:image/png'),
        ),
      null,
      { timeout: 10_000 },
    );
    expect(await page.getByText("Disponible jusqu'au").isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("opens the viewer: counter, arrows, zoom, Escape", async () => {
    const page = await openGallery();
    await page.locator("ul.justified > li a").first().click();
    const counter = page.locator(".yarl__counter");
    await counter.waitFor();
    expect(await counter.textContent()).toBe("1 / 4");
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      () => document.querySelector(".yarl__counter")?.textContent === "2 / 4",
    );
    await page.waitForURL((url) => url.searchParams.get("photo") === photoIds[1]);

    expect(await viewerZoomedIn(page)).toBe(false);
    await zoomInWithKeyboard(page);
    await page.keyboard.press("Escape");
    await counter.waitFor({ state: "detached" });
    await page.waitForURL((url) => !url.searchParams.has("photo"));
  });

  it("keeps favourites and a comment, then validates the selection, which locks it", async () => {
    const page = await openGallery();
    const heart = page.getByRole("button", { name: "Ajouter aux favoris : IMG_0001.jpg" });
    await heart.click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('button[aria-label="Ajouter aux favoris : IMG_0001.jpg"]')
          ?.getAttribute("aria-pressed") === "true",
    );
    await page.getByRole("button", { name: /^Commentaire : IMG_0002\.jpg/ }).click();
    const dialog = page.getByRole("dialog", { name: "Commentaire sur IMG_0002.jpg" });
    await dialog
      .getByLabel("Votre commentaire pour le studio")
      .fill("Plus lumineuse, s'il vous plaît");
    await dialog.getByRole("button", { name: "Enregistrer" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("link", { name: "Mes favoris (2)" }).waitFor();

    const rows = await serverDatabase()
      .select({
        name: galleryPhotos.originalName,
        favourite: galleryPhotos.favourite,
        comment: galleryPhotos.favouriteComment,
      })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, gallery.id))
      .orderBy(galleryPhotos.originalName);
    expect(rows.slice(0, 2)).toEqual([
      { name: "IMG_0001.jpg", favourite: true, comment: null },
      { name: "IMG_0002.jpg", favourite: true, comment: "Plus lumineuse, s'il vous plaît" },
    ]);

    await page.getByRole("link", { name: "Mes favoris (2)" }).click();
    await page.waitForFunction(() => document.querySelectorAll("ul.justified > li").length === 2);

    await page.getByRole("button", { name: "Valider ma sélection" }).click();
    const confirm = page.getByRole("dialog", {
      name: "Valider ma sélection de 2 photos ? Vous ne pourrez plus la modifier.",
    });
    await confirm.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: "Oui, valider ma sélection" }).click();
    await page.getByText(/^Sélection envoyée au studio le \d/).waitFor();
    expect(await heart.isDisabled()).toBe(true);
    const [row] = await serverDatabase()
      .select({ validatedAt: galleries.selectionValidatedAt })
      .from(galleries)
      .where(eq(galleries.id, gallery.id));
    expect(row?.validatedAt).toBeInstanceOf(Date);
  });
});
