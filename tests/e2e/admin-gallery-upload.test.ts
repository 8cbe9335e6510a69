import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { galleries, resumableUploads } from "../../app/server/db/schema";
import { galleryPhotoPrefix, galleryUploadKey } from "../../app/server/storage/keys";
import { UPLOAD_CHUNK_BYTES } from "../../app/lib/gallery-urls";
import { addReadyPhoto } from "../support/galleries";
import { makeTestJpeg, makeTestPhotoSet } from "../support/photos";
import { EXPECTED_REFUSALS, signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import {
  photoJobs,
  serverStore,
  storedPhotos,
  useTestGalleries,
} from "../support/client-galleries";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase, serverDataDir } from "../support/server-under-test";
import { useOwnServer } from "../support/own-server";

// A server of the file's own without the photos worker (PHOTO_WORKERS=0): this file checks what the upload
// leaves (the stored upload, queued jobs, order) before any processing; client-gallery.test.ts goes through it.
// The plain form without JavaScript and the previews' privacy are asked over HTTP
// (tests/http/admin-gallery-upload.test.ts).
const url = useOwnServer({ PHOTO_WORKERS: "0" });
const admin = useAdmin();
const { openPage } = useBrowser({ baseUrl: url });
const newGallery = useTestGalleries();

function storedUpload(galleryId: string, photoId: string): Promise<Buffer> {
  return fs.readFile(
    path.join(serverDataDir(), "uploads", galleryUploadKey(galleryId, photoId, "jpg")),
  );
}

async function expectAccessible(page: Page) {
  await closeToasts(page);
  expect(await axeViolations(page)).toEqual([]);
}

const picker = (page: Page) => page.getByLabel("Photos à ajouter à la galerie");

// A test that uploads: its own waits (a batch may take 60 s on a busy machine) fit in its time.
describe("the photos page of a client gallery", { timeout: 180_000 }, () => {
  it("uploads 12 photos with a bar each and one for the batch, and queues their preparation", async () => {
    const galleryId = await newGallery("Mariage Claire et Hugo");
    const photos = await makeTestPhotoSet(12);
    const page = await signedInPage(openPage, admin.account(), `/admin/galeries/${galleryId}`);
    await page.getByRole("heading", { level: 1, name: "Mariage Claire et Hugo" }).waitFor();
    expect(await page.getByText("Aucune photo pour l'instant.").count()).toBe(1);
    await expectAccessible(page);

    // Given in a shuffled order: they are sent (and placed) by name.
    const shuffled = [...photos].reverse();
    await picker(page).setInputFiles(
      shuffled.map(({ name, buffer }) => ({ name, mimeType: "image/jpeg", buffer })),
    );
    await page.getByText("12 photos envoyées sur 12 · 100 %").waitFor({ timeout: 60_000 });
    const list = page.getByRole("list", { name: "Photos envoyées" });
    for (const { name } of photos) {
      const bar = list.getByRole("progressbar", { name });
      expect(await bar.getAttribute("aria-valuenow"), name).toBe("100");
    }
    const batch = page.getByRole("progressbar", { name: /12 photos envoyées sur 12/ });
    expect(await batch.getAttribute("aria-valuenow")).toBe("100");

    // The rows, in the order of the names, each with its processing job.
    const rows = await storedPhotos(galleryId);
    expect(rows.map((row) => row.originalName)).toEqual(photos.map((photo) => photo.name));
    expect(rows.filter((row) => row.status === "failed")).toEqual([]);
    expect(await photoJobs(rows.map((row) => row.id))).toBe(12);
    for (const row of rows) {
      const original = photos.find((photo) => photo.name === row.originalName);
      expect(
        (await storedUpload(galleryId, row.id)).equals(original?.buffer ?? Buffer.alloc(0)),
      ).toBe(true);
    }
    // The grid shows them as they are prepared (without the worker here: « Préparation… »).
    const grid = page.getByRole("list", { name: /Photos de la galerie/ });
    await expect.poll(() => grid.getByRole("listitem").count(), { timeout: 15_000 }).toBe(12);
    expect(await grid.getByText("Préparation…").count()).toBeGreaterThan(0);
    await expectAccessible(page);

    // Dropped again: each is recognised, nothing is sent twice.
    await picker(page).setInputFiles(
      photos.slice(0, 2).map(({ name, buffer }) => ({ name, mimeType: "image/jpeg", buffer })),
    );
    await expect
      .poll(() => list.getByText("Déjà dans la galerie").count(), { timeout: 15_000 })
      .toBe(2);
    expect(await storedPhotos(galleryId)).toHaveLength(12);
  });

  it("goes on after a piece fails: the stored upload is the file byte for byte", async () => {
    const galleryId = await newGallery("Portrait studio");
    const big = await makeTestJpeg({
      index: 40,
      noise: true,
      width: 4000,
      height: 3000,
      quality: 95,
    });
    expect(big.length).toBeGreaterThan(UPLOAD_CHUNK_BYTES + 1);
    const page = await signedInPage(openPage, admin.account(), `/admin/galeries/${galleryId}`, {
      // The failed piece is logged by the browser as a network error.
      allowConsole: [...EXPECTED_REFUSALS, /net::ERR_FAILED/],
    });
    let failed = 0;
    const pieces: string[] = [];
    await page.route(/\/admin\/envois\/[0-9a-f-]+\?.*offset=/, async (route) => {
      const offset = new URL(route.request().url()).searchParams.get("offset") ?? "";
      pieces.push(offset);
      if (offset === String(UPLOAD_CHUNK_BYTES) && failed === 0) {
        failed += 1;
        await route.abort("failed");
      } else {
        await route.continue();
      }
    });
    await picker(page).setInputFiles({ name: "DSC_4000.jpg", mimeType: "image/jpeg", buffer: big });
    await page.getByText("1 photo envoyée sur 1 · 100 %").waitFor({ timeout: 60_000 });
    expect(failed).toBe(1);
    // The second piece was sent twice (after asking the server where it stood).
    expect(pieces.filter((offset) => offset === String(UPLOAD_CHUNK_BYTES))).toHaveLength(2);
    const [row] = await storedPhotos(galleryId);
    expect(row?.originalName).toBe("DSC_4000.jpg");
    expect((await storedUpload(galleryId, row?.id ?? "")).equals(big)).toBe(true);
    expect(await photoJobs([row?.id ?? ""])).toBe(1);
  });

  it("pauses while pieces fail, and the same file dropped on a new page goes on where it was", async () => {
    const galleryId = await newGallery("Reprise après rechargement");
    const big = await makeTestJpeg({
      index: 41,
      noise: true,
      width: 4000,
      height: 3000,
      quality: 95,
    });
    // A file on the disk: dropped twice, it keeps its name, size and date, as a photographer's file does.
    const file = path.join(os.tmpdir(), `galerie-${galleryId}`, "DSC_4100.jpg");
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, big);
    const first = await signedInPage(openPage, admin.account(), `/admin/galeries/${galleryId}`, {
      allowConsole: [...EXPECTED_REFUSALS, /net::ERR_FAILED/],
    });
    // Every piece after the first fails: the connection is gone for good on this page.
    await first.route(/\/admin\/envois\/[0-9a-f-]+\?.*offset=/, (route) =>
      new URL(route.request().url()).searchParams.get("offset") === "0"
        ? route.continue()
        : route.abort("failed"),
    );
    await picker(first).setInputFiles(file);
    await first
      .getByText(/Envoi interrompu : nouvel essai dans \d+ s\./)
      .waitFor({ timeout: 30_000 });
    expect(
      await first.getByRole("progressbar", { name: "DSC_4100.jpg" }).getAttribute("aria-valuenow"),
    ).toBe(String(Math.floor((UPLOAD_CHUNK_BYTES / big.length) * 100)));
    await expectAccessible(first);
    // Left for another page: leaving the document cancels its requests, where closing it at once could let
    // a retry caught in this test's route go on to the server unchecked (and the file would be complete).
    await first.evaluate(() => window.location.assign("about:blank"));
    await first.waitForURL("about:blank");
    await first.close();

    // A new page (a reload, another day): it names the file that did not finish, with what arrived.
    const reached = String(Math.floor((UPLOAD_CHUNK_BYTES / big.length) * 100));
    const second = await signedInPage(openPage, admin.account(), `/admin/galeries/${galleryId}`);
    const interrupted = second.getByRole("list", { name: "Envois interrompus" });
    await interrupted.getByText("DSC_4100.jpg", { exact: true }).waitFor();
    expect(await interrupted.getByText(new RegExp(`^${reached} % reçus`)).count()).toBe(1);
    const offsets: string[] = [];
    second.on("request", (request) => {
      const offset = new URL(request.url()).searchParams.get("offset");
      if (request.method() === "POST" && offset !== null) offsets.push(offset);
    });
    // Chosen again, its bar starts at the byte reached (held here before the server's answer), and the
    // file goes on from the second piece.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await second.route(/\/admin\/envois$/, async (route) => {
      await held;
      await route.continue();
    });
    await picker(second).setInputFiles(file);
    await expect
      .poll(() =>
        second.getByRole("progressbar", { name: "DSC_4100.jpg" }).getAttribute("aria-valuenow"),
      )
      .toBe(reached);
    expect(await interrupted.count()).toBe(0);
    release();
    await second.getByText("1 photo envoyée sur 1 · 100 %").waitFor({ timeout: 60_000 });
    // Sent, not found already there; the browser's request events may reach the test after the page
    // has drawn the answer.
    await second
      .getByRole("list", { name: "Photos envoyées" })
      .getByText("Envoyée", { exact: true })
      .waitFor();
    await expect.poll(() => offsets).toEqual([String(UPLOAD_CHUNK_BYTES)]);
    const [row] = await storedPhotos(galleryId);
    expect((await storedUpload(galleryId, row?.id ?? "")).equals(big)).toBe(true);
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  });

  it("orders the photos, chooses the cover and deletes one with its files", async () => {
    const galleryId = await newGallery("Séance famille Dubois");
    const photos = await makeTestPhotoSet(3, { first: 20 });
    const page = await signedInPage(openPage, admin.account(), `/admin/galeries/${galleryId}`);
    await picker(page).setInputFiles(
      photos.map(({ name, buffer }) => ({ name, mimeType: "image/jpeg", buffer })),
    );
    await page.getByText("3 photos envoyées sur 3 · 100 %").waitFor({ timeout: 60_000 });
    await page.reload();
    const grid = page.getByRole("list", { name: /Photos de la galerie/ });
    // The order the page shows, then the order stored: the next pointer action aims at tiles where the
    // page has put them (a drag started while the grid is redrawn would pick up another photo).
    const stored = async () => (await storedPhotos(galleryId)).map((row) => row.originalName);
    const shown = () => grid.getByRole("heading", { level: 3 }).allTextContents();
    const ordered = async (order: string[]) => {
      await expect.poll(shown, { timeout: 10_000 }).toEqual(order);
      await expect.poll(stored, { timeout: 10_000 }).toEqual(order);
    };
    const sorted = ["IMG_0020.jpg", "IMG_0021.jpg", "IMG_0022.jpg"];
    expect(await stored()).toEqual(sorted);
    expect(await shown()).toEqual(sorted);

    // Keyboard: « Descendre » on the first photo.
    await page.getByRole("button", { name: "Descendre « IMG_0020.jpg »" }).focus();
    await page.keyboard.press("Enter");
    await ordered(["IMG_0021.jpg", "IMG_0020.jpg", "IMG_0022.jpg"]);
    await page.getByRole("button", { name: "Monter « IMG_0022.jpg »" }).click();
    await ordered(["IMG_0021.jpg", "IMG_0022.jpg", "IMG_0020.jpg"]);
    // With the pointer: the last photo dropped on the first takes its place.
    const tile = (name: string) => grid.getByRole("listitem").filter({ hasText: name });
    await tile("IMG_0020.jpg").dragTo(tile("IMG_0021.jpg"));
    await ordered(["IMG_0020.jpg", "IMG_0021.jpg", "IMG_0022.jpg"]);
    await tile("IMG_0020.jpg").dragTo(tile("IMG_0022.jpg"));
    await ordered(["IMG_0021.jpg", "IMG_0022.jpg", "IMG_0020.jpg"]);
    await page.getByRole("button", { name: "Trier par nom de fichier" }).click();
    await ordered(sorted);

    const choose = page.getByRole("button", {
      name: "Choisir comme couverture « IMG_0021.jpg »",
    });
    await choose.click();
    const cover = async () => {
      const [gallery] = await serverDatabase()
        .select({ cover: galleries.coverPhotoId })
        .from(galleries)
        .where(eq(galleries.id, galleryId));
      return gallery?.cover;
    };
    // The cover has no « Choisir comme couverture » button, and says what it is (the button's own words
    // hold « couverture »: the exact mark is awaited).
    await choose.waitFor({ state: "detached" });
    await page
      .getByRole("listitem")
      .filter({ hasText: "IMG_0021.jpg" })
      .getByText("· Couverture", { exact: true })
      .waitFor();
    const second = (await storedPhotos(galleryId))[1];
    expect(await cover()).toBe(second?.id);
    await expectAccessible(page);

    // Delete the cover photo: confirmed in a dialog; its row, its uploads and its files go.
    await page.getByRole("button", { name: "Supprimer « IMG_0021.jpg »" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Supprimer cette photo de la galerie ?" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Supprimer" }).click();
    await ordered(["IMG_0020.jpg", "IMG_0022.jpg"]);
    expect(await cover()).toBeNull();
    const folder = path.join(
      serverDataDir(),
      "uploads",
      galleryPhotoPrefix(galleryId, second?.id ?? ""),
    );
    await expect
      .poll(() =>
        fs.stat(folder).then(
          () => true,
          () => false,
        ),
      )
      .toBe(false);
    expect(
      await serverDatabase()
        .select()
        .from(resumableUploads)
        .where(eq(resumableUploads.photoId, second?.id ?? "")),
    ).toEqual([]);
  });

  it("shows a ready photo as « Prête » with its preview", async () => {
    const galleryId = await newGallery("Photos prêtes");
    const [photo] = await makeTestPhotoSet(1, { first: 50 });
    await addReadyPhoto(serverDatabase(), serverStore(), galleryId, {
      name: photo?.name ?? "",
      buffer: photo?.buffer ?? Buffer.alloc(0),
    });
    const page = await signedInPage(openPage, admin.account(), `/admin/galeries/${galleryId}`);
    const tile = page.getByRole("listitem").filter({ hasText: photo?.name ?? "" });
    await tile.getByText("Prête").waitFor();
    const preview = tile.locator("img");
    await expect
      .poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(480);
    await expectAccessible(page);
  });
});
