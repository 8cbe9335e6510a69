import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { crc32 } from "node:zlib";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { addReadyPhoto, insertTestGallery } from "../../../tests/support/galleries";
import { makeTestPhotoSet } from "../../../tests/support/photos";
import { storageDrivers, useStorageDriver } from "../../../tests/support/storage-drivers";
import { unzip, type UnzippedEntry } from "../../../tests/support/unzip";
import { loader } from "../../routes/galerie-client/zip";
import { db } from "../db/client.server";
import { galleries, galleryPhotos } from "../db/schema";
import { galleryOriginalKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import { galleryAccessCookie } from "./access.server";
import { galleryZipEntries, layout, zipBytes } from "./zip.server";

// The store is the local disk under a folder of this file's own (env() reads DATA_DIR once, on first use).
const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/gallery-zip-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase();
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

type Photo = { name: string; buffer: Buffer };
let galleryId = "";
let photos: Photo[] = [];
let photoIds: string[] = [];
let cookie = "";

async function galleryRow() {
  const [row] = await db().select().from(galleries).where(eq(galleries.id, galleryId));
  if (!row) throw new Error("no gallery");
  return row;
}

const expectedNames = [
  "Mariage Julie & Tom Brive/IMG_0001.jpg",
  "Mariage Julie & Tom Brive/IMG_0002.jpg",
  "Mariage Julie & Tom Brive/IMG_0001 (2).jpg",
  "Mariage Julie & Tom Brive/IMG_0004.jpg",
  "Mariage Julie & Tom Brive/Été 2026.jpg",
];

function zipRequest(headers: Record<string, string> = {}, query = ""): Request {
  return new Request(`http://localhost/galerie-client/${galleryId}/telecharger.zip${query}`, {
    headers: { Cookie: cookie, ...headers },
  });
}

function callLoader(request: Request, id = galleryId) {
  return loader({ request, params: { id }, context: undefined } as unknown as Parameters<
    typeof loader
  >[0]);
}

/** The status a loader's refusal carries (`throw data(…, { status })`). */
/** The status of a refusal: the French page the file route answers (decision 0202), or what it threw. */
async function refusal(promise: Promise<unknown>): Promise<number> {
  try {
    const answer = await promise;
    return answer instanceof Response ? answer.status : 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? -1;
  }
}

async function bodyOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

async function collect(iterable: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function expectSamePhotos(entries: UnzippedEntry[], indexes = [0, 1, 2, 3, 4]) {
  expect(entries.map((entry) => entry.name)).toEqual(indexes.map((index) => expectedNames[index]));
  entries.forEach((entry, position) => {
    const photo = photos[indexes[position] ?? -1];
    expect(entry.bytes.equals(photo?.buffer ?? Buffer.alloc(0))).toBe(true);
    expect(entry.crc32).toBe(crc32(entry.bytes));
    expect(entry.utf8).toBe(true);
  });
}

// The same tests on the local disk and on a real S3-compatible server (s3rver in a child process).
describe.each(storageDrivers)("the gallery's ZIP ($kind)", (driver) => {
  useStorageDriver(driver);

  beforeAll(async () => {
    const set = await makeTestPhotoSet(5);
    // Two photos of the same name (two cameras), and one uploaded as HEIC (delivered as JPEG).
    photos = set.map((photo, index) =>
      index === 2
        ? { ...photo, name: "IMG_0001.jpg" }
        : index === 4
          ? { ...photo, name: "Été 2026.HEIC" }
          : photo,
    );
    const gallery = await insertTestGallery(db(), {
      title: "Mariage Julie & Tom / Brive",
      sessionDate: "2026-06-14",
    });
    galleryId = gallery.id;
    photoIds = [];
    for (const photo of photos) {
      photoIds.push((await addReadyPhoto(db(), storage(), galleryId, photo)).id);
    }
    cookie = (await galleryAccessCookie(await galleryRow())).split(";")[0] ?? "";
  }, 120_000);

  it("holds every ready photo, named, in order, with its CRC-32, read back by yauzl", async () => {
    const response = await callLoader(zipRequest());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="galerie.zip"; filename*=UTF-8''Mariage%20Julie%20%26%20Tom%20Brive.zip`,
    );
    const archive = await bodyOf(response);
    expect(archive.length).toBe(Number(response.headers.get("Content-Length")));
    const entries = await unzip(archive);
    expectSamePhotos(entries);
    expect(entries.some((entry) => entry.zip64)).toBe(false);
  });

  it("is read by yauzl with every ZIP64 field forced (and by unzip -t when present)", async () => {
    const zip = layout(await galleryZipEntries(await galleryRow()), { forceZip64: true });
    const archive = await collect(zipBytes(zip, storage()));
    expect(archive.length).toBe(zip.total);
    const entries = await unzip(archive);
    expectSamePhotos(entries);
    expect(entries.every((entry) => entry.zip64)).toBe(true);
    if (existsSync("/usr/bin/unzip")) {
      const file = path.join(dataDir, "forced-zip64.zip");
      await fs.writeFile(file, archive);
      const { stdout } = await promisify(execFile)("/usr/bin/unzip", ["-t", file]);
      expect(stdout).toContain("No errors detected");
    }
  });

  it("serves one range as the same bytes of the whole archive (206), and resumes only the same one", async () => {
    const whole = await bodyOf(await callLoader(zipRequest()));
    const entries = await galleryZipEntries(await galleryRow());
    const zip = layout(entries);
    // From the middle of the second photo to the middle of the third (across a local header).
    const start = (zip.offsets[1] ?? 0) + 1000;
    const end = (zip.offsets[2] ?? 0) + 5000;
    const partial = await callLoader(zipRequest({ Range: `bytes=${start}-${end}` }));
    expect(partial.status).toBe(206);
    expect(partial.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/${whole.length}`);
    expect(partial.headers.get("Content-Length")).toBe(String(end - start + 1));
    expect((await bodyOf(partial)).equals(whole.subarray(start, end + 1))).toBe(true);

    const etag = partial.headers.get("ETag") ?? "";
    const tail = await callLoader(zipRequest({ Range: `bytes=${start}-`, "If-Range": etag }));
    expect(tail.status).toBe(206);
    expect((await bodyOf(tail)).equals(whole.subarray(start))).toBe(true);

    // Another archive since (a photo added, removed or reordered): the whole of it again.
    const stale = await callLoader(
      zipRequest({ Range: `bytes=${start}-`, "If-Range": '"zip-old"' }),
    );
    expect(stale.status).toBe(200);
    expect((await bodyOf(stale)).equals(whole)).toBe(true);

    const past = await callLoader(zipRequest({ Range: `bytes=${whole.length}-` }));
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe(`bytes */${whole.length}`);
  });

  it("holds the favourites only with ?favoris=1", async () => {
    await db()
      .update(galleryPhotos)
      .set({ favourite: true })
      .where(inArray(galleryPhotos.id, [photoIds[1] ?? "", photoIds[4] ?? ""]));
    const response = await callLoader(zipRequest({}, "?favoris=1"));
    expect(response.headers.get("Content-Disposition")).toContain("Brive%20-%20favoris.zip");
    expectSamePhotos(await unzip(await bodyOf(response)), [1, 4]);
    await db().update(galleryPhotos).set({ favourite: false });
    expect(await refusal(callLoader(zipRequest({}, "?favoris=1")))).toBe(404);
  });

  it("answers 404 without the gallery's code, to another gallery's code, or when downloads are off", async () => {
    expect(await refusal(callLoader(zipRequest({ Cookie: "" })))).toBe(404);
    const other = await insertTestGallery(db());
    const [otherRow] = await db().select().from(galleries).where(eq(galleries.id, other.id));
    if (!otherRow) throw new Error("no gallery");
    const otherCookie = (await galleryAccessCookie(otherRow)).split(";")[0] ?? "";
    expect(await refusal(callLoader(zipRequest({ Cookie: otherCookie })))).toBe(404);
    // Its own cookie does not open the first gallery's ZIP under the other's address either.
    expect(await refusal(callLoader(zipRequest(), other.id))).toBe(404);

    await db()
      .update(galleries)
      .set({ downloadsAllowed: false })
      .where(eq(galleries.id, galleryId));
    try {
      expect(await refusal(callLoader(zipRequest()))).toBe(404);
    } finally {
      await db()
        .update(galleries)
        .set({ downloadsAllowed: true })
        .where(eq(galleries.id, galleryId));
    }
  });

  it("answers 410 once the gallery has expired, even to its cookie", async () => {
    const { expiresAt } = await galleryRow();
    await db()
      .update(galleries)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(galleries.id, galleryId));
    try {
      expect(await refusal(callLoader(zipRequest()))).toBe(410);
    } finally {
      await db().update(galleries).set({ expiresAt }).where(eq(galleries.id, galleryId));
    }
  });

  it("fails the download (never a complete-looking archive) when an object is not its row", async () => {
    const key = galleryOriginalKey(galleryId, photoIds[3] ?? "", "jpg");
    const original = photos[3]?.buffer ?? Buffer.alloc(0);
    await storage().put(key, original.subarray(0, original.length - 10), {
      contentType: "image/jpeg",
    });
    try {
      const response = await callLoader(zipRequest());
      const expected = Number(response.headers.get("Content-Length"));
      const reader = response.body?.getReader();
      let received = 0;
      await expect(
        (async () => {
          for (;;) {
            const chunk = await reader?.read();
            if (!chunk || chunk.done) return;
            received += chunk.value.length;
          }
        })(),
      ).rejects.toThrow(/bytes stored/);
      expect(received).toBeLessThan(expected);
    } finally {
      await storage().put(key, original, { contentType: "image/jpeg" });
    }
  });
});
