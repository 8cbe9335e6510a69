import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clientZipPath } from "../../app/lib/gallery-urls";
import { galleries } from "../../app/server/db/schema";
import { galleryPrefix } from "../../app/server/storage/keys";
import { localStorage } from "../../app/server/storage/local.server";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { addReadyPhoto, insertTestGallery } from "../support/galleries";
import { unzip } from "../support/unzip";
import { makeTestPhotoSet } from "../support/photos";
import { hydrated, useBrowser } from "./support/browser";
import { serverBaseUrl, serverDatabase, serverDataDir } from "../support/server-under-test";

/*
 * The client's « every photo in one ZIP » through the real server (decision 0104): a gallery placed in the
 * server's own store and database, a browser holding the gallery's cookie (signed here with the server's
 * AUTH_SECRET, as the server signs it after the right code) downloads the archive from a link, and the
 * test unzips it and compares every file with what was delivered. Without the code, or once the owner
 * turned downloads off, the same address answers 404.
 */

const { openPage } = useBrowser();
const authSecret = inject("authSecret");

const store = () =>
  localStorage({
    root: path.join(serverDataDir(), "uploads"),
    partsRoot: path.join(serverDataDir(), "incoming-uploads", "parts"),
  });

let galleryId = "";
let photos: { name: string; buffer: Buffer }[] = [];

beforeAll(async () => {
  photos = await makeTestPhotoSet(5, { first: 41 });
  const gallery = await insertTestGallery(serverDatabase(), { title: "Séance d'été à Brive" });
  galleryId = gallery.id;
  for (const photo of photos) await addReadyPhoto(serverDatabase(), store(), galleryId, photo);
}, 120_000);

afterAll(async () => {
  if (!galleryId) return;
  await serverDatabase().delete(galleries).where(eq(galleries.id, galleryId));
  await store().deletePrefix(galleryPrefix(galleryId));
});

/** The cookie the code form sets: the gallery's id and code version, signed with the server's secret. */
function accessCookie() {
  return {
    name: `galerie-${galleryId}`,
    value: signLinkTokenWith(authSecret, "gallery-access", `${galleryId}.1`, {
      lifetimeSeconds: 3600,
    }),
    url: `${serverBaseUrl()}/galerie-client`,
    httpOnly: true,
    sameSite: "Lax" as const,
  };
}

const zipUrl = () => `${serverBaseUrl()}${clientZipPath(galleryId)}`;
const cookieHeader = () => `${accessCookie().name}=${accessCookie().value}`;

describe("the client's ZIP download", () => {
  it("downloads every photo, unzipped byte for byte, from a link in the browser", async () => {
    // The site's home page, holding the gallery's cookie and a link to the archive (the client page's
    // « Tout télécharger » is such a link).
    const page = await openPage("/");
    // Once React holds the page: it would otherwise drop a node it did not render.
    await hydrated(page);
    await page.context().addCookies([accessCookie()]);
    await page.evaluate((href) => {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = "Télécharger le ZIP de test";
      document.body.prepend(link);
    }, clientZipPath(galleryId));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      // From the keyboard: the site's sticky header may lie over a link added at the top of the page.
      page.getByRole("link", { name: "Télécharger le ZIP de test" }).press("Enter"),
    ]);
    expect(download.suggestedFilename()).toBe("Séance d'été à Brive.zip");
    const archive = await readFile((await download.path()) ?? "");
    const entries = await unzip(archive);
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
