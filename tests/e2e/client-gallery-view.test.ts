import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { eq, inArray, like, or } from "drizzle-orm";
import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { galleries, galleryPhotos, rateLimits } from "../../app/server/db/schema";
import { localStorage } from "../../app/server/storage/local.server";
import { galleryPrefix } from "../../app/server/storage/keys";
import { addReadyPhoto, insertTestGallery, type TestGallery } from "../support/galleries";
import { makeTestPhotoSet } from "../support/photos";
import { axeViolations, hydrated, useBrowser } from "./support/browser";
import { serverDatabase, serverDataDir } from "../support/server-under-test";
import { viewerZoomedIn, zoomInWithKeyboard } from "./support/viewer";

/*
 * The client's gallery as the client lives it (issue 14, items 2 and 5; decision 0103): the code form, the
 * justified grid with its placeholders, the viewer (counter, arrows, zoom, Escape), favourites and a
 * comment, the validated selection that locks; the missing and expired galleries. Photos are placed ready
 * in the server's store (tests/support/galleries.ts): the upload and the processing have their own tests.
 */

const { openPage, baseUrl } = useBrowser();
// Refused forms (400, 409) and missing galleries (404, 410) show in the console as failed loads.
const allowConsole = [/status of 4\d\d/];

const store = () =>
  localStorage({
    root: path.join(serverDataDir(), "uploads"),
    partsRoot: path.join(serverDataDir(), "incoming-uploads", "parts"),
  });

let gallery: TestGallery;
let expired: TestGallery;
let plainGallery: TestGallery;
let photoIds: string[] = [];

// The code's attempts from a loopback address of this file's own (127.x.y.z all reach the server): the
// limits count per address, and other files type codes from 127.0.0.1 at the same time.
const attemptAddress = `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;

function postCodeFrom(client: string, galleryId: string, code: string) {
  const { hostname, port } = new URL(baseUrl);
  const body = new URLSearchParams({ intent: "code", code }).toString();
  return new Promise<{ status: number; retryAfter?: string; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port,
        method: "POST",
        path: `/galerie-client/${galleryId}`,
        localAddress: client,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers["retry-after"],
            text: Buffer.concat(chunks).toString("utf8").replaceAll("<!-- -->", ""),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

async function thumbhashOf(buffer: Buffer): Promise<string> {
  const { data, info } = await sharp(buffer)
    .rotate()
    .resize(100, 100, { fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
}

beforeAll(async () => {
  const database = serverDatabase();
  gallery = await insertTestGallery(database, { title: "Mariage de Léa et Hugo" });
  expired = await insertTestGallery(database, {
    expiresAt: new Date(Date.now() - 60_000),
    purgeAt: new Date(Date.now() + 86_400_000),
  });
  plainGallery = await insertTestGallery(database, { title: "Baptême de Jules" });
  const photos = await makeTestPhotoSet(4);
  await addReadyPhoto(
    database,
    store(),
    plainGallery.id,
    photos[0] ?? { name: "", buffer: Buffer.alloc(0) },
  );
  for (const photo of photos) {
    const { id } = await addReadyPhoto(database, store(), gallery.id, photo);
    await database
      .update(galleryPhotos)
      .set({ thumbhash: await thumbhashOf(photo.buffer) })
      .where(eq(galleryPhotos.id, id));
    photoIds.push(id);
  }
}, 120_000);

afterAll(async () => {
  const database = serverDatabase();
  const ids = [gallery.id, expired.id, plainGallery.id];
  await database.delete(galleries).where(inArray(galleries.id, ids));
  await database
    .delete(rateLimits)
    .where(
      or(
        ...ids.map((id) => like(rateLimits.key, `galerie-code:%${id}`)),
        like(rateLimits.key, `galerie-code:${attemptAddress}%`),
      ),
    );
  for (const id of ids) await store().deletePrefix(galleryPrefix(id));
  photoIds = [];
});

const galleryPath = (id: string) => `/galerie-client/${id}`;

async function cookieOf(page: Awaited<ReturnType<typeof openPage>>) {
  const cookies = await page.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

describe("the client's gallery", () => {
  it("answers 404 for an unknown or malformed id, 410 once expired, never indexed nor cached", async () => {
    for (const id of [randomUUID(), "pas-un-identifiant"]) {
      const response = await fetch(`${baseUrl}${galleryPath(id)}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain(
        "Galerie introuvable. Vérifiez le lien reçu par e-mail.",
      );
      expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
      expect(response.headers.get("referrer-policy")).toBe("same-origin");
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    const gone = await fetch(`${baseUrl}${galleryPath(expired.id)}`);
    expect(gone.status).toBe(410);
    const text = (await gone.text()).replaceAll("<!-- -->", "");
    expect(text).toMatch(
      /Cette galerie a expiré le \d{1,2} [a-zéû]+ \d{4}\. Pour retrouver vos photos, contactez le studio/,
    );
    expect(text).toContain('<meta name="robots" content="noindex, nofollow"/>');

    const page = await openPage(galleryPath(expired.id), { allowConsole });
    await expect(page.getByRole("heading", { name: "Galerie expirée" }).isVisible()).resolves.toBe(
      true,
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it("asks for the code, keeps a wrong one with its message, opens with the right one in any form", async () => {
    const first = await fetch(`${baseUrl}${galleryPath(gallery.id)}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-page-cache") ?? "").not.toMatch(/hit/i);
    const again = await fetch(`${baseUrl}${galleryPath(gallery.id)}`);
    expect(again.headers.get("x-page-cache") ?? "").not.toMatch(/hit/i);
    // React Router would take the address in capitals too: it is sent to the one its policies know.
    const shouted = await fetch(`${baseUrl}${galleryPath(gallery.id).toUpperCase()}`, {
      redirect: "manual",
    });
    expect(shouted.status).toBe(308);
    expect(shouted.headers.get("location")).toBe(`/galerie-client/${gallery.id.toUpperCase()}`);
    const html = await again.text();
    expect(html).toContain('name="code"');
    for (const id of photoIds) expect(html).not.toContain(id);

    const page = await openPage(galleryPath(gallery.id), { allowConsole });
    await hydrated(page);
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
    await page.locator("ul.justified > li").first().waitFor();
    const cookie = (await page.context().cookies()).find(
      (entry) => entry.name === `galerie-${gallery.id}`,
    );
    expect(cookie).toMatchObject({ path: "/galerie-client", httpOnly: true, sameSite: "Lax" });
  });

  it("counts attempts before comparing: the 9th in 15 minutes is refused, even with the right code", async () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const wrong = await postCodeFrom(attemptAddress, gallery.id, `FAUX${attempt}`);
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain(
        "Code d&#x27;accès incorrect. Vérifiez le code à 8 caractères reçu par e-mail.",
      );
    }
    const refused = await postCodeFrom(attemptAddress, gallery.id, gallery.accessCode);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(800);
    expect(refused.text).toMatch(/Trop de tentatives\. Réessayez dans 1[45] minutes\./);
    expect(refused.text).toContain('value="' + gallery.accessCode + '"');
  });

  it("shows a justified grid without style attributes, placeholders painted after hydration, axe clean", async () => {
    const page = await openPage(galleryPath(gallery.id), { allowConsole });
    await page.getByLabel("Code d'accès").fill(gallery.accessCode);
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    const tiles = page.locator("ul.justified > li");
    await tiles.first().waitFor();
    expect(await tiles.count()).toBe(4);
    expect(await tiles.first().getAttribute("class")).toMatch(/^ratio-\d+$/);
    expect(await tiles.first().getAttribute("data-thumbhash")).toBeTruthy();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>("ul.justified > li")].every((tile) =>
          tile.style.backgroundImage.startsWith('url("data:image/png'),
        ),
      null,
      { timeout: 10_000 },
    );
    expect(await page.getByText("Disponible jusqu'au").isVisible()).toBe(true);
    expect(
      await page
        .getByRole("link", { name: /^Tout télécharger \(ZIP, [\d,]+ [kKMG]o\)$/ })
        .getAttribute("href"),
    ).toBe(`/galerie-client/${gallery.id}/telecharger.zip`);
    expect(await axeViolations(page)).toEqual([]);

    const response = await fetch(`${baseUrl}${galleryPath(gallery.id)}`, {
      headers: { cookie: await cookieOf(page) },
    });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).not.toMatch(/<[^>]+\sstyle=/);
    expect(html).toContain('type="image/avif"');
    for (const id of photoIds)
      expect(html).toContain(`/galerie-client/${gallery.id}/photos/${id}/`);

    // The files: only the sizes written, private for a day.
    const src = await page.locator("ul.justified img").first().getAttribute("src");
    const file = await fetch(`${baseUrl}${src}`, { headers: { cookie: await cookieOf(page) } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(file.headers.get("cache-control")).toBe("private, max-age=86400");
    expect(file.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
    const wrongSize = src?.replace(/-w\d+\./, "-w123.") ?? "";
    expect(
      (await fetch(`${baseUrl}${wrongSize}`, { headers: { cookie: await cookieOf(page) } })).status,
    ).toBe(404);
    expect((await fetch(`${baseUrl}${src}`)).status).toBe(404);
  });

  it("opens the viewer: counter, arrows, zoom, Escape; a single-photo page without JavaScript", async () => {
    const page = await openPage(galleryPath(gallery.id), { allowConsole });
    await page.getByLabel("Code d'accès").fill(gallery.accessCode);
    await page.getByRole("button", { name: "Voir mes photos" }).click();
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

    const plain = await openPage(galleryPath(gallery.id), {
      javaScriptEnabled: false,
      allowConsole,
    });
    await plain.getByLabel("Code d'accès").fill(gallery.accessCode);
    await plain.getByRole("button", { name: "Voir mes photos" }).click();
    await plain.locator("ul.justified > li a").nth(1).click();
    await plain.getByText("2 / 4").waitFor();
    await plain.getByRole("link", { name: "Photo suivante" }).click();
    await plain.getByText("3 / 4").waitFor();
    expect(await plain.getByRole("link", { name: "Télécharger" }).getAttribute("href")).toBe(
      `/galerie-client/${gallery.id}/telecharger/${photoIds[2]}`,
    );
    const download = await fetch(
      `${baseUrl}/galerie-client/${gallery.id}/telecharger/${photoIds[2]}`,
      { headers: { cookie: await cookieOf(plain) } },
    );
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="IMG_0003.jpg"; filename*=UTF-8''IMG_0003.jpg`,
    );
  });

  it("keeps favourites and a comment, then validates the selection, which locks it", async () => {
    const page = await openPage(galleryPath(gallery.id), { allowConsole });
    await page.getByLabel("Code d'accès").fill(gallery.accessCode);
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    await hydrated(page);
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

    // A late ♥ (another tab, an old page) is refused and changes nothing.
    const late = await fetch(`${baseUrl}${galleryPath(gallery.id)}`, {
      method: "POST",
      headers: { cookie: await cookieOf(page) },
      body: new URLSearchParams({ intent: "favourite", photoId: photoIds[3] ?? "", value: "1" }),
    });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain(
      "elle ne peut plus être modifiée. Contactez le studio pour la rouvrir.",
    );
    const [fourth] = await serverDatabase()
      .select({ favourite: galleryPhotos.favourite })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.id, photoIds[3] ?? ""));
    expect(fourth?.favourite).toBe(false);
  });

  it("works without JavaScript: a favourite, a comment, the validation's question on the page", async () => {
    const page = await openPage(galleryPath(plainGallery.id), {
      javaScriptEnabled: false,
      allowConsole,
    });
    await page.getByLabel("Code d'accès").fill(plainGallery.accessCode);
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    await page.getByRole("button", { name: "Ajouter aux favoris : IMG_0001.jpg" }).click();
    await page.getByRole("link", { name: "Mes favoris (1)" }).waitFor();
    await page.locator("ul.justified > li a").first().click();
    await page.getByLabel("Commentaire pour le studio").fill("Celle-ci en grand format");
    await page.getByRole("button", { name: "Enregistrer le commentaire" }).click();
    await page.getByRole("link", { name: "Retour à la galerie" }).click();
    await page.getByRole("button", { name: "Valider ma sélection" }).click();
    await page
      .getByText("Valider ma sélection de 1 photo ? Vous ne pourrez plus la modifier.")
      .waitFor();
    await page.getByRole("button", { name: "Oui, valider ma sélection" }).click();
    await page.getByText(/^Sélection envoyée au studio le \d/).waitFor();
    const [photo] = await serverDatabase()
      .select({ favourite: galleryPhotos.favourite, comment: galleryPhotos.favouriteComment })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, plainGallery.id));
    expect(photo).toEqual({ favourite: true, comment: "Celle-ci en grand format" });
  });
});
