import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import {
  addReadyPhotoWithPlaceholder,
  insertExpiredGallery,
  clientAccessHeader,
  removeClientGalleries,
  serverStore,
  submitButton,
} from "../support/client-galleries";
import { addReadyPhoto, insertTestGallery, type TestGallery } from "../support/galleries";
import { fetchPage, postForm, textOf } from "../support/html";
import { makeTestPhotoSet } from "../support/photos";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * The client's gallery as the server answers it (decision 0103): the missing and
 * expired galleries, the code form posted without JavaScript and its limits, the grid's HTML and its private
 * files, the single-photo page, favourites, a comment and the validation without JavaScript, and the
 * selection that stays locked. What the client sees and does with JavaScript (the placeholders, the viewer,
 * the dialogs) is in tests/e2e/client-gallery-view.test.ts. Photos are placed ready in the server's store
 * (tests/support/galleries.ts): the upload and the processing have their own tests.
 */

const baseUrl = serverBaseUrl();

let gallery: TestGallery;
let expired: TestGallery;
let plainGallery: TestGallery;
let lockedGallery: TestGallery;
let photoIds: string[] = [];
let lockedPhotoId = "";

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

beforeAll(async () => {
  const database = serverDatabase();
  gallery = await insertTestGallery(database, { title: "Mariage de Léa et Hugo" });
  expired = await insertExpiredGallery();
  plainGallery = await insertTestGallery(database, { title: "Baptême de Jules" });
  lockedGallery = await insertTestGallery(database, {
    title: "Sélection déjà envoyée",
    selectionValidatedAt: new Date(),
  });
  const photos = await makeTestPhotoSet(4);
  const [first, second] = photos;
  if (!first || !second) throw new Error("no photos");
  for (const photo of [first, second])
    await addReadyPhoto(database, serverStore(), plainGallery.id, photo);
  lockedPhotoId = (await addReadyPhoto(database, serverStore(), lockedGallery.id, first)).id;
  for (const photo of photos) photoIds.push(await addReadyPhotoWithPlaceholder(gallery.id, photo));
}, 120_000);

afterAll(async () => {
  await removeClientGalleries(
    [gallery.id, expired.id, plainGallery.id, lockedGallery.id],
    [attemptAddress],
  );
  photoIds = [];
});

const galleryPath = (id: string) => `/galerie-client/${id}`;

/** Where a link of the page at `page` leads (its href resolved as the browser would), as a path. */
function linkTarget(link: Element | undefined, page: string): string {
  const target = new URL(link?.getAttribute("href") ?? "", new URL(page, baseUrl));
  return `${target.pathname}${target.search}`;
}

const buttonNamed = (page: { document: Document }, name: string) =>
  [...page.document.querySelectorAll("button")].find(
    (button) => button.getAttribute("aria-label") === name || textOf(button) === name,
  );
const linkNamed = (page: { document: Document }, name: string) =>
  [...page.document.querySelectorAll("a")].find((link) => textOf(link) === name);

const WRONG_CODE = "Code d'accès incorrect. Vérifiez le code à 8 caractères reçu par e-mail.";

describe("the client's gallery over HTTP", () => {
  it("answers 404 for an unknown or malformed id, 410 once expired, never indexed nor cached", async () => {
    for (const id of [randomUUID(), "pas-un-identifiant"]) {
      const response = await fetchPage(galleryPath(id));
      expect(response.status).toBe(404);
      expect(response.html).toContain("Galerie introuvable. Vérifiez le lien reçu par e-mail.");
      expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
      expect(response.headers.get("referrer-policy")).toBe("same-origin");
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    const gone = await fetchPage(galleryPath(expired.id));
    expect(gone.status).toBe(410);
    expect(textOf(gone.document.querySelector("h1"))).toBe("Galerie expirée");
    expect(textOf(gone.document.querySelector("main") ?? gone.document.body)).toMatch(
      /Cette galerie a expiré le (?:1er|\d{1,2}) [a-zéû]+ \d{4}\. Pour retrouver vos photos, contactez le studio/,
    );
    expect(gone.html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it("asks for the code, never cached; a wrong one comes back with its message, the right one in any form opens", async () => {
    const first = await fetchPage(galleryPath(gallery.id));
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-page-cache") ?? "").not.toMatch(/hit/i);
    const again = await fetchPage(galleryPath(gallery.id));
    expect(again.headers.get("x-page-cache") ?? "").not.toMatch(/hit/i);
    // React Router would take the address in capitals too: it is sent to the one its policies know.
    const shouted = await fetchPage(galleryPath(gallery.id).toUpperCase());
    expect(shouted.status).toBe(308);
    expect(shouted.headers.get("location")).toBe(`/galerie-client/${gallery.id.toUpperCase()}`);
    expect(again.document.querySelector('input[name="code"]')).not.toBeNull();
    for (const id of photoIds) expect(again.html).not.toContain(id);

    const button = () => buttonNamed(again, "Voir mes photos");
    const path = galleryPath(gallery.id);
    const wrong = await submitButton(button(), path, { changes: { code: "zzzz-zzzz" } });
    expect(wrong.status).toBe(400);
    expect(textOf(wrong.document.querySelector("#code-error"))).toBe(WRONG_CODE);
    expect(wrong.document.querySelector("#code")?.getAttribute("value")).toBe("zzzz-zzzz");

    const typed = `${gallery.accessCode.slice(0, 4).toLowerCase()}-${gallery.accessCode.slice(4)}`;
    const right = await submitButton(button(), path, { changes: { code: typed } });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(path);
    const cookie = right.headers
      .getSetCookie()
      .find((entry) => entry.startsWith(`galerie-${gallery.id}=`));
    expect(cookie).toMatch(/; Path=\/galerie-client(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    const opened = await fetchPage(path, { cookie: cookie?.split(";")[0] });
    expect(opened.document.querySelectorAll("ul.justified > li")).toHaveLength(4);
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

  it("renders the justified grid without style attributes; its files only in the sizes written, private for a day", async () => {
    const cookie = clientAccessHeader(gallery.id);
    const page = await fetchPage(galleryPath(gallery.id), { cookie });
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<[^>]+\sstyle=/);
    expect(page.html).toContain('type="image/avif"');
    for (const id of photoIds)
      expect(page.html).toContain(`/galerie-client/${gallery.id}/photos/${id}/`);
    const tiles = [...page.document.querySelectorAll("ul.justified > li")];
    expect(tiles).toHaveLength(4);
    for (const tile of tiles) {
      // Its shape, and its row on a phone (decision 0134).
      expect(tile.getAttribute("class")).toMatch(/^ratio-\d+ row-ratio-\d+ row-of-[123]$/);
      expect(tile.getAttribute("data-thumbhash")).toBeTruthy();
    }
    // The gallery's own header, under its title (the site's header comes first).
    const header = page.document.querySelector("h1")?.closest("header");
    expect(textOf(header)).toContain("Disponible jusqu'au");
    const zip = [...page.document.querySelectorAll("a")].find((link) =>
      /^Tout télécharger \(ZIP, [\d,]+ [kKMG]o\)$/.test(textOf(link)),
    );
    expect(zip?.getAttribute("href")).toBe(`/galerie-client/${gallery.id}/telecharger.zip`);

    const src = page.document.querySelector("ul.justified img")?.getAttribute("src") ?? "";
    const file = await fetch(`${baseUrl}${src}`, { headers: { cookie } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(file.headers.get("cache-control")).toBe("private, max-age=86400");
    expect(file.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
    const wrongSize = src.replace(/-w\d+\./, "-w123.");
    expect((await fetch(`${baseUrl}${wrongSize}`, { headers: { cookie } })).status).toBe(404);
    expect((await fetch(`${baseUrl}${src}`)).status).toBe(404);
  });

  it("names only files that exist: every address of the grid, the cover and a single photo's page answers 200", async () => {
    const cookie = clientAccessHeader(gallery.id);
    await serverDatabase()
      .update(galleries)
      .set({ coverPhotoId: photoIds[1] })
      .where(eq(galleries.id, gallery.id));
    try {
      const path = galleryPath(gallery.id);
      const grid = await fetchPage(path, { cookie });
      const single = await fetchPage(`${path}?photo=${photoIds[2]}`, { cookie });
      // The cover above the grid's four tiles.
      expect(grid.document.querySelectorAll("main picture")).toHaveLength(5);
      const addresses = new Set<string>();
      for (const page of [grid, single]) {
        for (const element of page.document.querySelectorAll(
          "main picture source, main picture img",
        )) {
          const src = element.getAttribute("src");
          if (src) addresses.add(src);
          for (const candidate of (element.getAttribute("srcset") ?? "").split(",")) {
            const address = candidate.trim().split(/\s+/)[0];
            if (address) addresses.add(address);
          }
        }
      }
      // 4 photos × (3 widths × 3 formats) + their fallback <img src> among them.
      expect(addresses.size).toBe(36);
      for (const address of addresses) {
        const answer = await fetch(`${baseUrl}${address}`, { method: "HEAD", headers: { cookie } });
        expect(answer.status, address).toBe(200);
      }
    } finally {
      await serverDatabase()
        .update(galleries)
        .set({ coverPhotoId: null })
        .where(eq(galleries.id, gallery.id));
    }
  });

  it("shows one photo a page without JavaScript: its position, the next one, its download", async () => {
    const cookie = clientAccessHeader(gallery.id);
    const path = galleryPath(gallery.id);
    const grid = await fetchPage(path, { cookie });
    const secondPath = linkTarget(grid.document.querySelectorAll("ul.justified > li a")[1], path);
    const second = await fetchPage(secondPath, { cookie });
    expect(textOf(second.document.querySelector('nav[aria-label="Photos"]'))).toContain("2 / 4");
    const thirdPath = linkTarget(linkNamed(second, "Photo suivante"), secondPath);
    const third = await fetchPage(thirdPath, { cookie });
    expect(textOf(third.document.querySelector('nav[aria-label="Photos"]'))).toContain("3 / 4");
    const downloadPath = `/galerie-client/${gallery.id}/telecharger/${photoIds[2]}`;
    expect(linkNamed(third, "Télécharger")?.getAttribute("href")).toBe(downloadPath);
    const download = await fetch(`${baseUrl}${downloadPath}`, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="IMG_0003.jpg"; filename*=UTF-8''IMG_0003.jpg`,
    );
  });

  it("works without JavaScript: a favourite, a comment, the validation's question on the page", async () => {
    const cookie = clientAccessHeader(plainGallery.id);
    const path = galleryPath(plainGallery.id);
    const grid = await fetchPage(path, { cookie });
    const favourite = await submitButton(
      buttonNamed(grid, "Ajouter aux favoris : IMG_0001.jpg"),
      path,
      { cookie },
    );
    expect(favourite.status).toBe(200);
    expect(linkNamed(favourite, "Mes favoris (1)")).toBeDefined();

    const photoPath = linkTarget(
      favourite.document.querySelector("ul.justified > li a") ?? undefined,
      path,
    );
    const photoPage = await fetchPage(photoPath, { cookie });
    const label = [...photoPage.document.querySelectorAll("label")].find(
      (element) => textOf(element) === "Commentaire pour le studio",
    );
    expect(photoPage.document.querySelector(`#${label?.getAttribute("for")}`)?.tagName).toBe(
      "TEXTAREA",
    );
    const commented = await submitButton(
      buttonNamed(photoPage, "Enregistrer le commentaire"),
      photoPath,
      { cookie, changes: { comment: "Celle-ci en grand format" } },
    );
    expect(commented.status).toBe(200);

    const list = await fetchPage(
      linkTarget(linkNamed(commented, "Retour à la galerie"), photoPath),
      {
        cookie,
      },
    );
    const question = await submitButton(buttonNamed(list, "Valider ma sélection"), path, {
      cookie,
    });
    expect(textOf(question.document.querySelector("#valider-question"))).toBe(
      "Valider ma sélection de 1 photo ? Vous ne pourrez plus la modifier.",
    );
    const validated = await submitButton(
      buttonNamed(question, "Oui, valider ma sélection"),
      `${path}?valider=1`,
      { cookie },
    );
    expect(validated.status).toBe(200);
    expect(textOf(validated.document.body)).toMatch(/Sélection envoyée au studio le \d/);
    const rows = await serverDatabase()
      .select({ favourite: galleryPhotos.favourite, comment: galleryPhotos.favouriteComment })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, plainGallery.id))
      .orderBy(galleryPhotos.originalName);
    expect(rows).toEqual([
      { favourite: true, comment: "Celle-ci en grand format" },
      { favourite: false, comment: null },
    ]);
  });

  it("refuses a late favourite once the selection is validated, and changes nothing", async () => {
    // Another tab, an old page: the heart posted after the validation.
    const late = await postForm(
      galleryPath(lockedGallery.id),
      { intent: "favourite", photoId: lockedPhotoId, value: "1" },
      { cookie: clientAccessHeader(lockedGallery.id) },
    );
    expect(late.status).toBe(409);
    expect(late.html).toContain(
      "elle ne peut plus être modifiée. Contactez le studio pour la rouvrir.",
    );
    const [photo] = await serverDatabase()
      .select({ favourite: galleryPhotos.favourite })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.id, lockedPhotoId));
    expect(photo?.favourite).toBe(false);
  });
});
