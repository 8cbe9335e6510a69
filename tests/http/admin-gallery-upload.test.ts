import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import {
  photoJobs,
  serverStore,
  storedPhotos,
  useTestGalleries,
} from "../support/client-galleries";
import { addReadyPhoto } from "../support/galleries";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, textOf } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { makeTestPhotoSet } from "../support/photos";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * The photos page of a client gallery as the server answers it: the plain form a browser without
 * JavaScript sends one photo by, a ready photo's private preview and the progress the page polls. The upload
 * by pieces (progress, retries, order, cover) is in tests/e2e/admin-gallery-upload.test.ts. A server of
 * the file's own without the photos worker (PHOTO_WORKERS=0): what the upload leaves stays as it is.
 */

useOwnServer({ PHOTO_WORKERS: "0" });
const admin = useAdmin();
const newGallery = useTestGalleries();

/**
 * Sends `file` through the page's plain form, as a browser without JavaScript does: where the answer leads,
 * and that page.
 */
async function sendByForm(page: Awaited<ReturnType<typeof fetchPage>>, file: File) {
  const field = page.document.querySelector('input[type="file"]');
  const form = field?.closest("form");
  const body = new FormData();
  body.append(field?.getAttribute("name") ?? "", file);
  const answer = await fetch(new URL(form?.getAttribute("action") ?? "", serverBaseUrl()), {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Cookie: admin.cookie(), Origin: new URL(serverBaseUrl()).origin },
  });
  expect(answer.status).toBe(302);
  const location = answer.headers.get("location") ?? "";
  return { location, next: await fetchPage(location, { cookie: admin.cookie() }) };
}

describe("the photos page of a client gallery over HTTP", () => {
  it("takes one photo by the plain form without JavaScript, and refuses a file that is not a photo", async () => {
    const galleryId = await newGallery("Sans JavaScript");
    const [photo] = await makeTestPhotoSet(1, { first: 30 });
    const page = await fetchPage(`/admin/galeries/${galleryId}`, { cookie: admin.cookie() });
    const form = page.document.querySelector('input[type="file"]')?.closest("form");
    // The file's bytes go only in a multipart body (React writes the attribute `encType`).
    expect(form?.outerHTML).toMatch(/^<form[^>]* enctype="multipart\/form-data"/i);
    expect(textOf(form?.querySelector("label"))).toMatch(/^Photo à ajouter/);
    expect(textOf(form?.querySelector('button[type="submit"]'))).toBe("Envoyer la photo");

    const sent = await sendByForm(
      page,
      new File([new Uint8Array(photo?.buffer ?? Buffer.alloc(0))], photo?.name ?? "", {
        type: "image/jpeg",
      }),
    );
    expect(sent.location).toBe(`/admin/galeries/${galleryId}?envoi=ok`);
    const text = textOf(sent.next.document.body);
    expect(text).toContain("Photo envoyée : elle est en préparation.");
    expect(text).toContain("Préparation…");
    const [row] = await storedPhotos(galleryId);
    expect(row?.originalName).toBe(photo?.name);
    expect(await photoJobs([row?.id ?? ""])).toBe(1);

    // A file that is not a photo: refused, with the reason.
    const refused = await sendByForm(
      page,
      new File([new Uint8Array(Buffer.from("pas une photo"))], "devis.jpg", {
        type: "image/jpeg",
      }),
    );
    expect(textOf(refused.next.document.body)).toContain(
      "Format non pris en charge : JPEG, HEIC ou PNG.",
    );
    expect(await storedPhotos(galleryId)).toHaveLength(1);
  });

  it("serves a ready photo's preview within its own gallery only, and the progress the page polls", async () => {
    const galleryId = await newGallery("Photos prêtes");
    const otherId = await newGallery("Autre galerie");
    const [photo] = await makeTestPhotoSet(1, { first: 50 });
    const { id: photoId } = await addReadyPhoto(serverDatabase(), serverStore(), galleryId, {
      name: photo?.name ?? "",
      buffer: photo?.buffer ?? Buffer.alloc(0),
    });
    const cookie = admin.cookie();
    const address = `/admin/galeries/${galleryId}/photos/${photoId}/r1-w480.jpg`;
    const page = await fetchPage(`/admin/galeries/${galleryId}`, { cookie });
    const tile = [...page.document.querySelectorAll("li")].find(
      (item) => textOf(item.querySelector("h3")) === photo?.name,
    );
    expect(textOf(tile)).toContain("Prête");
    expect(tile?.querySelector("img")?.getAttribute("src")).toBe(address);

    const answer = await fetch(`${serverBaseUrl()}${address}`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/jpeg");
    const preview = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
    expect(preview.width).toBe(480);
    // Another gallery's address, a width it does not have, a name outside the convention: nothing, said
    // by the site's French page of a file refused, as every other file route (decision 0202).
    for (const wrong of [
      `/admin/galeries/${otherId}/photos/${photoId}/r1-w480.jpg`,
      `/admin/galeries/${galleryId}/photos/${photoId}/r1-w2400.jpg`,
      `/admin/galeries/${galleryId}/photos/${photoId}/upload.jpg`,
    ]) {
      expectFileRefusal(await fetchPage(wrong, { cookie }), 404, wrong);
    }
    // Signed out: the page of a sign-in, back to the photo once signed in.
    const signedOut = await fetchPage(address);
    expectFileRefusal(signedOut, 401, address);
    expect(
      signedOut.document.querySelector(
        `a[href="/admin/login?retour=${encodeURIComponent(address)}"]`,
      ),
    ).not.toBeNull();
    // The progress JSON the page polls.
    const progress = await fetch(`${serverBaseUrl()}/admin/galeries/${galleryId}/progression`, {
      headers: { cookie },
    });
    expect(await progress.json()).toMatchObject({
      total: 1,
      ready: 1,
      preparing: 0,
      photos: [{ id: photoId, status: "ready", preview: "r1-w480.jpg" }],
    });
  });
});

describe("an upload interrupted before its last byte", () => {
  it("is named on the gallery's page with the share received, until it completes", async () => {
    const galleryId = await newGallery("Envoi interrompu");
    const headers = { Cookie: admin.cookie(), Origin: new URL(serverBaseUrl()).origin };
    // 9 MiB that start as a JPEG does: the first piece (8 MiB) arrives, then the page is left.
    const size = 9 * 1024 * 1024;
    const bytes = Buffer.alloc(size, 7);
    bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
    // Starts (or finds again) the upload of the same file: name, size and date.
    const startUpload = () =>
      fetch(new URL("/admin/envois", serverBaseUrl()), {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({
          galleryId,
          name: "DSC_7001.jpg",
          size,
          type: "image/jpeg",
          lastModified: 1_700_000_000_000,
        }),
      });
    const start = await startUpload();
    expect(start.status).toBe(201);
    const { uploadId, chunkSize } = (await start.json()) as { uploadId: string; chunkSize: number };
    const piece = await fetch(
      new URL(`/admin/envois/${uploadId}?galerie=${galleryId}&offset=0`, serverBaseUrl()),
      {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/octet-stream" },
        body: bytes.subarray(0, chunkSize),
      },
    );
    expect(piece.status).toBe(200);

    const page = await fetchPage(`/admin/galeries/${galleryId}`, { cookie: admin.cookie() });
    const list = page.document.querySelector('ul[aria-label="Envois interrompus"]');
    expect(
      [...(list?.querySelectorAll("li") ?? [])].map((item) =>
        [...item.querySelectorAll("span")].map((part) => textOf(part)),
      ),
    ).toEqual([["DSC_7001.jpg", "88 % reçus (8 Mo sur 9 Mo)"]]);
    expect(textOf(list?.parentElement)).toContain(
      "Une photo n'a pas fini d'arriver. Choisissez-les à nouveau (ou tout le dossier) : chacune reprend où elle s'était arrêtée",
    );
    // The same file started again goes on from the byte reached, and once complete is named no more.
    const again = await startUpload();
    expect(await again.json()).toMatchObject({ uploadId, received: chunkSize });
    const last = await fetch(
      new URL(
        `/admin/envois/${uploadId}?galerie=${galleryId}&offset=${chunkSize}`,
        serverBaseUrl(),
      ),
      {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/octet-stream" },
        body: bytes.subarray(chunkSize),
      },
    );
    expect(last.status).toBe(201);
    const after = await fetchPage(`/admin/galeries/${galleryId}`, { cookie: admin.cookie() });
    expect(after.document.querySelector('ul[aria-label="Envois interrompus"]')).toBeNull();
  });
});
