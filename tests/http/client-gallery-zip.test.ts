import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientZipPath } from "../../app/lib/gallery-urls";
import { galleries } from "../../app/server/db/schema";
import {
  clientAccessHeader,
  removeClientGalleries,
  serverStore,
} from "../support/client-galleries";
import { expectFileRefusal } from "../support/file-refusal";
import { addReadyPhoto, insertTestGallery } from "../support/galleries";
import { fetchPage } from "../support/html";
import { makeTestPhotoSet } from "../support/photos";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { unzip } from "../support/unzip";

/*
 * The client's « every photo in one ZIP » through the real server (decision 0104): a gallery placed in the
 * server's own store and database, asked with the gallery's cookie (signed here with the server's
 * AUTH_SECRET, as the server signs it after the right code); the test unzips the archive and compares every
 * file with what was delivered. Without the code, or once the owner turned downloads off, the same address
 * answers 404. The client's page links here (client-gallery-view); the journey downloads it in the
 * browser (tests/e2e/client-gallery.test.ts).
 */

let galleryId = "";
let photos: { name: string; buffer: Buffer }[] = [];

beforeAll(async () => {
  photos = await makeTestPhotoSet(5, { first: 41 });
  const gallery = await insertTestGallery(serverDatabase(), { title: "Séance d'été à Brive" });
  galleryId = gallery.id;
  for (const photo of photos)
    await addReadyPhoto(serverDatabase(), serverStore(), galleryId, photo);
}, 120_000);

afterAll(() => removeClientGalleries(galleryId ? [galleryId] : []));

const zipUrl = () => `${serverBaseUrl()}${clientZipPath(galleryId)}`;
const cookieHeader = () => clientAccessHeader(galleryId);

/** The name a browser saves an attachment under: the exact UTF-8 name of `filename*`. */
function savedName(disposition: string | null): string | undefined {
  const exact = /filename\*=UTF-8''([^;]+)/.exec(disposition ?? "")?.[1];
  return exact === undefined ? undefined : decodeURIComponent(exact);
}

describe("the client's ZIP download", () => {
  it("downloads every photo as an attachment named after the gallery, unzipped byte for byte", async () => {
    const response = await fetch(zipUrl(), { headers: { Cookie: cookieHeader() } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const disposition = response.headers.get("content-disposition");
    expect(disposition).toMatch(/^attachment;/);
    expect(savedName(disposition)).toBe("Séance d'été à Brive.zip");
    const entries = await unzip(Buffer.from(await response.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual(
      photos.map((photo) => `Séance d'été à Brive/${photo.name}`),
    );
    entries.forEach((entry, index) => {
      expect(entry.bytes.equals(photos[index]?.buffer ?? Buffer.alloc(0))).toBe(true);
    });
  });

  it("answers with its length, uncompressed, privately, and one range of it", async () => {
    const response = await fetch(zipUrl(), {
      headers: { Cookie: cookieHeader(), "Accept-Encoding": "gzip, br" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
    expect(response.headers.get("x-page-cache")).toBeNull();
    const whole = Buffer.from(await response.arrayBuffer());
    expect(whole.length).toBe(Number(response.headers.get("content-length")));

    const partial = await fetch(zipUrl(), {
      headers: { Cookie: cookieHeader(), Range: "bytes=100000-400000" },
    });
    expect(partial.status).toBe(206);
    expect(Buffer.from(await partial.arrayBuffer()).equals(whole.subarray(100000, 400001))).toBe(
      true,
    );

    const head = await fetch(zipUrl(), { method: "HEAD", headers: { Cookie: cookieHeader() } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(whole.length));
  });

  it("answers 404 without the code, with a forged cookie, and when downloads are not allowed", async () => {
    const without = await fetch(zipUrl());
    expect(without.status).toBe(404);
    expect(without.headers.get("content-type")).not.toBe("application/zip");
    // Opened from the gallery's e-mail in another browser: a French page, not a bare answer.
    expectFileRefusal(await fetchPage(clientZipPath(galleryId)), 404);

    const forged = await fetch(zipUrl(), {
      headers: { Cookie: `galerie-${galleryId}=${galleryId}.1.forged` },
    });
    expect(forged.status).toBe(404);

    await serverDatabase()
      .update(galleries)
      .set({ downloadsAllowed: false })
      .where(eq(galleries.id, galleryId));
    try {
      const refused = await fetch(zipUrl(), { headers: { Cookie: cookieHeader() } });
      expect(refused.status).toBe(404);
      expect(Buffer.from(await refused.arrayBuffer()).subarray(0, 4)).not.toEqual(
        Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      );
    } finally {
      await serverDatabase()
        .update(galleries)
        .set({ downloadsAllowed: true })
        .where(eq(galleries.id, galleryId));
    }
  });
});
