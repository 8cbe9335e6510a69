import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { insertTestGallery } from "../../../tests/support/galleries";
import { makeTestJpeg } from "../../../tests/support/photos";
import { storageDrivers, useStorageDriver } from "../../../tests/support/storage-drivers";
import { MAX_GALLERY_PHOTO_BYTES, UPLOAD_CHUNK_BYTES } from "~/lib/gallery-urls";
import { photoJob } from "../galleries/processing.server";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import { galleryUploadKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import {
  DUPLICATE,
  receiveChunk,
  receiveWholePhoto,
  startUpload,
  TOO_LARGE,
  UNSUPPORTED,
  uploadProgress,
  UploadRefusal,
  type StartRequest,
} from "./resumable.server";

// The store is a folder of this file's own (env() reads DATA_DIR once, on first use).
const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/resumable-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase({ jobs: true });
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const MIB = 1024 * 1024;
let galleryId = "";
let otherGalleryId = "";

/** A file of `size` bytes that starts like a JPEG (the protocol only checks the first bytes). */
function jpegLike(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return bytes;
}

function start(name: string, size: number, overrides: Partial<StartRequest> = {}) {
  return startUpload(
    { galleryId, name, size, type: "image/jpeg", lastModified: 1_700_000_000_000, ...overrides },
    null,
  );
}

function send(uploadId: string, file: Buffer, offset: number, gallery = galleryId) {
  const piece = file.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
  return receiveChunk({
    uploadId,
    galleryId: gallery,
    offset,
    length: piece.length,
    body: Readable.from([piece]),
  });
}

async function refusal(promise: Promise<unknown>): Promise<UploadRefusal> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UploadRefusal);
  return error as UploadRefusal;
}

async function photoJobs(photoId: string): Promise<number> {
  const result = await db().execute<{ count: string }>(
    sql`select count(*) from pgboss.job where name = 'photos' and data->>'photoId' = ${photoId}`,
  );
  return Number(result.rows[0]?.count);
}

async function storedBytes(photoId: string, extension = "jpg"): Promise<Buffer> {
  const object = await storage().get(galleryUploadKey(galleryId, photoId, extension));
  if (!object) throw new Error("not stored");
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// The same tests on the local disk and on a real S3-compatible server (s3rver in a child process).
describe.each(storageDrivers)("resumable uploads of a gallery's photos ($kind)", (driver) => {
  const store = useStorageDriver(driver);

  beforeAll(async () => {
    galleryId = (await insertTestGallery(db())).id;
    otherGalleryId = (await insertTestGallery(db(), { title: "Autre galerie" })).id;
  });

  it("receives a 17 MB photo in 3 pieces, takes a retried piece, refuses a wrong offset, resumes", async () => {
    const file = jpegLike(17 * MIB);
    const started = await start("IMG_0001.jpg", file.length);
    expect(started.status).toBe(201);
    const { uploadId, chunkSize, received } = started.state;
    expect({ chunkSize, received }).toEqual({ chunkSize: UPLOAD_CHUNK_BYTES, received: 0 });

    expect(await send(uploadId, file, 0)).toEqual({ status: 200, received: UPLOAD_CHUNK_BYTES });
    // The same piece again (its answer was lost): refused with where the upload stands.
    const retried = await refusal(send(uploadId, file, 0));
    expect(retried.status).toBe(409);
    expect(retried.body.received).toBe(UPLOAD_CHUNK_BYTES);
    // A piece too far ahead: the same answer.
    const ahead = await refusal(send(uploadId, file, 2 * UPLOAD_CHUNK_BYTES));
    expect(ahead.status).toBe(409);
    expect(ahead.body.received).toBe(UPLOAD_CHUNK_BYTES);

    // A reload: the same file dropped again finds its upload, and the GET says where to go on.
    const again = await start("IMG_0001.jpg", file.length);
    expect(again).toEqual({
      status: 200,
      state: { ...started.state, received: UPLOAD_CHUNK_BYTES },
    });
    const progress = await uploadProgress(uploadId, galleryId);
    expect(progress).toEqual({ received: UPLOAD_CHUNK_BYTES, size: file.length, photoId: null });

    // A piece whose connection drops midway: nothing counted, sent again whole.
    const cut = new Readable({ read() {} });
    cut.push(file.subarray(UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES + MIB));
    setTimeout(() => cut.destroy(new Error("connexion perdue")), 20);
    const dropped = await refusal(
      receiveChunk({
        uploadId,
        galleryId,
        offset: UPLOAD_CHUNK_BYTES,
        length: UPLOAD_CHUNK_BYTES,
        body: cut,
      }),
    );
    expect(dropped.status).toBe(400);
    expect((await uploadProgress(uploadId, galleryId)).received).toBe(UPLOAD_CHUNK_BYTES);

    expect(await send(uploadId, file, UPLOAD_CHUNK_BYTES)).toEqual({
      status: 200,
      received: 2 * UPLOAD_CHUNK_BYTES,
    });
    const last = await send(uploadId, file, 2 * UPLOAD_CHUNK_BYTES);
    expect(last.status).toBe(201);
    if (last.status !== 201) return;

    // The photo row, the completed upload and the processing job exist together.
    const [photo] = await db()
      .select()
      .from(galleryPhotos)
      .where(eq(galleryPhotos.id, last.photoId));
    expect(photo).toMatchObject({
      galleryId,
      originalName: "IMG_0001.jpg",
      status: "uploaded",
      sourceExtension: "jpg",
      position: 1,
    });
    expect(await photoJobs(last.photoId)).toBe(1);
    const [upload] = await db()
      .select()
      .from(resumableUploads)
      .where(eq(resumableUploads.id, uploadId));
    expect(upload?.completedAt).toBeInstanceOf(Date);
    expect((await storedBytes(last.photoId)).equals(file)).toBe(true);
    expect(await uploadProgress(uploadId, galleryId)).toMatchObject({ photoId: last.photoId });

    // Dropped again once in the gallery: « Déjà dans la galerie ».
    const duplicate = await refusal(start("IMG_0001.jpg", file.length));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ error: DUPLICATE, duplicate: true });
  });

  it("makes the photo row and its job in one transaction: neither exists when the job cannot be made", async () => {
    const file = await makeTestJpeg({ index: 3 });
    const { state } = await start("IMG_0003.jpg", file.length);
    vi.spyOn(photoJob, "send").mockRejectedValueOnce(new Error("file de tâches indisponible"));
    await expect(send(state.uploadId, file, 0)).rejects.toThrow("file de tâches indisponible");
    const rows = await db()
      .select()
      .from(galleryPhotos)
      .where(
        and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.originalName, "IMG_0003.jpg")),
      );
    expect(rows).toEqual([]);
    const progress = await uploadProgress(state.uploadId, galleryId);
    expect(progress).toEqual({ received: file.length, size: file.length, photoId: null });

    // Every byte is there: the browser's empty last call completes it.
    const completed = await receiveChunk({
      uploadId: state.uploadId,
      galleryId,
      offset: file.length,
      length: 0,
      body: Readable.from([]),
    });
    expect(completed.status).toBe(201);
    if (completed.status !== 201) return;
    expect(await photoJobs(completed.photoId)).toBe(1);
    expect((await storedBytes(completed.photoId)).equals(file)).toBe(true);
  });

  it("refuses a photo over 50 Mo and a file that is not a photo by its name", async () => {
    const tooLarge = await refusal(start("IMG_0100.jpg", 51 * MIB));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toBe(TOO_LARGE);
    expect((await refusal(start("IMG_0101.jpg", MAX_GALLERY_PHOTO_BYTES + 1))).status).toBe(413);
    const document = await refusal(start("contrat.pdf", 1000, { type: "application/pdf" }));
    expect(document.status).toBe(415);
    expect(document.body.error).toBe(UNSUPPORTED);
    const count = await db()
      .select({ id: resumableUploads.id })
      .from(resumableUploads)
      .where(eq(resumableUploads.fileName, "contrat.pdf"));
    expect(count).toEqual([]);
  });

  it("refuses a fake JPEG at completion and forgets it", async () => {
    const fake = Buffer.from("<html>pas une photo</html>".repeat(40));
    const { state } = await start("faux.jpg", fake.length);
    const refused = await refusal(send(state.uploadId, fake, 0));
    expect(refused.status).toBe(415);
    expect(refused.body.error).toBe(UNSUPPORTED);
    expect(
      await db().select().from(resumableUploads).where(eq(resumableUploads.id, state.uploadId)),
    ).toEqual([]);
    expect(
      await db()
        .select()
        .from(galleryPhotos)
        .where(
          and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.originalName, "faux.jpg")),
        ),
    ).toEqual([]);
    // Nothing of it is left in the store (its parts folder included).
    const stored: string[] = [];
    for await (const object of storage().list(`galleries/${galleryId}/`)) stored.push(object.key);
    expect(stored.filter((key) => key.endsWith(".jpg")).length).toBe(2);
    if (driver.kind === "local") {
      // The local driver's pieces live in a folder of their own until completion (S3 aborts its upload).
      const partsFolder = path.join(store().dataDir, "incoming-uploads", "parts");
      expect(await fs.readdir(partsFolder).catch(() => [])).toEqual([]);
    }
  });

  it("refuses another gallery's upload id, and an upload into an unknown gallery", async () => {
    const file = jpegLike(1000);
    const { state } = await start("IMG_0200.jpg", file.length);
    const foreign = await refusal(send(state.uploadId, file, 0, otherGalleryId));
    expect(foreign.status).toBe(404);
    expect((await refusal(uploadProgress(state.uploadId, otherGalleryId))).status).toBe(404);
    expect((await uploadProgress(state.uploadId, galleryId)).received).toBe(0);
    const unknown = await refusal(
      startUpload(
        {
          galleryId: "00000000-0000-4000-8000-000000000000",
          name: "IMG_0201.jpg",
          size: 10,
          type: "image/jpeg",
          lastModified: null,
        },
        null,
      ),
    );
    expect(unknown.status).toBe(404);
  });

  it("gives photos the next positions and takes one whole photo from the form without JavaScript", async () => {
    const file = await makeTestJpeg({ index: 5 });
    const incoming = path.join(store().dataDir, "form-upload.part");
    await fs.writeFile(incoming, file);
    const photoId = await receiveWholePhoto({
      galleryId,
      name: "IMG_0005.jpg",
      size: file.length,
      path: incoming,
      head: file.subarray(0, 16),
      adminId: null,
    });
    const [photo] = await db().select().from(galleryPhotos).where(eq(galleryPhotos.id, photoId));
    expect(photo).toMatchObject({ status: "uploaded", position: 3 });
    expect(await photoJobs(photoId)).toBe(1);
    expect((await storedBytes(photoId)).equals(file)).toBe(true);
    // The same file through the uploader afterwards: already there.
    expect((await refusal(start("IMG_0005.jpg", file.length))).body.error).toBe(DUPLICATE);
  });

  it("places a batch in the order its uploads started, whatever the order they finish in", async () => {
    const { id: batchGallery } = await insertTestGallery(db(), { title: "Ordre d'un lot" });
    const files = [jpegLike(3000), jpegLike(1000), jpegLike(2000)];
    const names = ["IMG_0401.jpg", "IMG_0402.jpg", "IMG_0403.jpg"];
    const started = [];
    for (const [index, name] of names.entries())
      started.push(await start(name, files[index]?.length ?? 0, { galleryId: batchGallery }));
    // They finish in the order 2, 3, 1.
    for (const index of [1, 2, 0])
      await send(
        started[index]?.state.uploadId ?? "",
        files[index] ?? Buffer.alloc(0),
        0,
        batchGallery,
      );
    const rows = await db()
      .select({ name: galleryPhotos.originalName, position: galleryPhotos.position })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, batchGallery))
      .orderBy(galleryPhotos.position);
    expect(rows).toEqual(names.map((name, index) => ({ name, position: index + 1 })));
  });

  it("gives no new photo to a gallery being deleted", async () => {
    const file = jpegLike(2000);
    const { state } = await start("IMG_0300.jpg", file.length);
    await db().update(galleries).set({ deletingAt: new Date() }).where(eq(galleries.id, galleryId));
    try {
      expect((await refusal(send(state.uploadId, file, 0))).status).toBe(404);
      expect(
        await db()
          .select()
          .from(galleryPhotos)
          .where(
            and(
              eq(galleryPhotos.galleryId, galleryId),
              eq(galleryPhotos.originalName, "IMG_0300.jpg"),
            ),
          ),
      ).toEqual([]);
      expect((await refusal(start("IMG_0301.jpg", 10))).status).toBe(404);
    } finally {
      await db().update(galleries).set({ deletingAt: null }).where(eq(galleries.id, galleryId));
    }
  });
});
