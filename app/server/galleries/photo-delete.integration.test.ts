import fs from "node:fs/promises";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { insertTestGallery } from "../../../tests/support/galleries";
import { makeTestJpeg } from "../../../tests/support/photos";
import { storageDrivers, useStorageDriver } from "../../../tests/support/storage-drivers";
import { db } from "../db/client.server";
import { galleries, galleryPhotos } from "../db/schema";
import * as pool from "../images/pool.server";
import { closePhotoPool } from "../images/pool.server";
import { galleryPrefix, galleryUploadKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import { deletePhoto } from "../uploads/gallery-photos.server";
import { deleteGallery } from "./galleries.server";
import { processPhoto } from "./processing.server";

/*
 * The owner deletes a photo, or its whole gallery, while the photos worker prepares it (decision 0102):
 * nothing of it may stay in the store nor in the database, whichever step the deletion falls on. Each
 * deletion is run from inside the worker's task (a spy around the real one), so the order is certain.
 */

const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/photo-delete-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  process.env.PHOTO_WORKERS = "1";
  return directory;
});

useAppDatabase({ jobs: true });

afterAll(async () => {
  await closePhotoPool();
  await fs.rm(dataDir, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const runTask = pool.runPhotoTask;

/** An uploaded photo as the upload protocol leaves it (its job is not queued: the test runs it). */
async function uploadedPhoto(galleryId: string): Promise<string> {
  const [row] = await db()
    .insert(galleryPhotos)
    .values({ galleryId, position: 1, originalName: "IMG_0001.jpg", sourceExtension: "jpg" })
    .returning({ id: galleryPhotos.id });
  if (!row) throw new Error("no photo row");
  const source = await makeTestJpeg({ index: 7, width: 640, height: 480 });
  await storage().put(galleryUploadKey(galleryId, row.id, "jpg"), source, {
    contentType: "image/jpeg",
  });
  return row.id;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage().list(prefix)) keys.push(object.key);
  return keys;
}

/** Runs `during` inside the worker's task, after the real task has written its files. */
function whileTheWorkerRuns(during: () => Promise<void>) {
  vi.spyOn(pool, "runPhotoTask").mockImplementation(async (...args) => {
    const result = await runTask(...args);
    await during();
    return result;
  });
}

describe.each(storageDrivers)("a deletion while the photo is prepared ($kind)", (driver) => {
  useStorageDriver(driver);

  it("leaves nothing of a photo deleted before its results are stored", async () => {
    const gallery = await insertTestGallery(db());
    const photoId = await uploadedPhoto(gallery.id);
    whileTheWorkerRuns(async () => {
      expect(await deletePhoto(gallery.id, photoId)).toBe("IMG_0001.jpg");
    });
    expect(await processPhoto(photoId, new AbortController().signal)).toBe("gone");
    expect(await db().select().from(galleryPhotos).where(eq(galleryPhotos.id, photoId))).toEqual(
      [],
    );
    expect(await keysUnder(galleryPrefix(gallery.id))).toEqual([]);
  });

  it("leaves nothing of a photo whose job comes after its deletion", async () => {
    const gallery = await insertTestGallery(db());
    const photoId = await uploadedPhoto(gallery.id);
    await deletePhoto(gallery.id, photoId);
    const task = vi.spyOn(pool, "runPhotoTask");
    expect(await processPhoto(photoId, new AbortController().signal)).toBe("gone");
    expect(task).not.toHaveBeenCalled();
    expect(await keysUnder(galleryPrefix(gallery.id))).toEqual([]);
  });

  it("leaves nothing of a gallery deleted while one of its photos is prepared", async () => {
    const gallery = await insertTestGallery(db());
    const photoId = await uploadedPhoto(gallery.id);
    // deleteGallery's first steps (marked, files deleted) fall while the worker runs; its last one (the
    // rows) after the results are stored: the store must still end empty.
    whileTheWorkerRuns(async () => {
      await db()
        .update(galleries)
        .set({ deletingAt: new Date() })
        .where(eq(galleries.id, gallery.id));
      await storage().deletePrefix(galleryPrefix(gallery.id));
    });
    expect(await processPhoto(photoId, new AbortController().signal)).toBe("gone");
    await db().delete(galleries).where(eq(galleries.id, gallery.id));
    expect(await keysUnder(galleryPrefix(gallery.id))).toEqual([]);
  });

  it("leaves nothing of a gallery deleted whole while one of its photos is prepared", async () => {
    const gallery = await insertTestGallery(db());
    const photoId = await uploadedPhoto(gallery.id);
    whileTheWorkerRuns(async () => {
      expect(await deleteGallery(gallery.id)).toBe(true);
    });
    expect(await processPhoto(photoId, new AbortController().signal)).toBe("gone");
    expect(await keysUnder(galleryPrefix(gallery.id))).toEqual([]);
    expect(await db().select().from(galleries).where(eq(galleries.id, gallery.id))).toEqual([]);
  });
});
