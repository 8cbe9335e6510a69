import fs from "node:fs/promises";
import { eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { addReadyPhoto, insertTestGallery } from "../../../tests/support/galleries";
import { makeTestPhotoSet } from "../../../tests/support/photos";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import { galleryPrefix, galleryUploadKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import { findClientGallery } from "./access.server";
import {
  deleteGallery,
  forgetInactiveClients,
  purgeDueGalleries,
  purgeStaleUploads,
} from "./retention.server";

const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/gallery-retention-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase();
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const DAY = 24 * 3600 * 1000;

async function objectsOf(galleryId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage().list(galleryPrefix(galleryId))) keys.push(object.key);
  return keys;
}

async function galleryWithPhoto(values: Parameters<typeof insertTestGallery>[1] = {}) {
  const gallery = await insertTestGallery(db(), values);
  const [photo] = await makeTestPhotoSet(1);
  if (!photo) throw new Error("no photo");
  await addReadyPhoto(db(), storage(), gallery.id, photo);
  return gallery;
}

describe("gallery retention", () => {
  it("deletes the galleries whose purge date has come, with their files, and no other", async () => {
    const now = new Date();
    const due = await galleryWithPhoto({
      expiresAt: new Date(now.getTime() - 40 * DAY),
      purgeAt: new Date(now.getTime() - 10 * DAY),
    });
    const expiredNotDue = await galleryWithPhoto({
      expiresAt: new Date(now.getTime() - 5 * DAY),
      purgeAt: new Date(now.getTime() + 25 * DAY),
    });
    expect((await objectsOf(due.id)).length).toBeGreaterThan(1);

    expect(await purgeDueGalleries(now)).toBe(1);
    expect(await objectsOf(due.id)).toEqual([]);
    expect(await db().select().from(galleries).where(eq(galleries.id, due.id))).toEqual([]);
    expect(
      await db().select().from(galleryPhotos).where(eq(galleryPhotos.galleryId, due.id)),
    ).toEqual([]);
    expect((await objectsOf(expiredNotDue.id)).length).toBeGreaterThan(1);
    expect(await findClientGallery(expiredNotDue.id)).not.toBeNull();
    // Nothing more to do: a second run changes nothing.
    expect(await purgeDueGalleries(now)).toBe(0);
  });

  it("finishes a deletion interrupted after its mark, and the gallery answers 404 meanwhile", async () => {
    const gallery = await galleryWithPhoto();
    await db()
      .update(galleries)
      .set({ deletingAt: new Date() })
      .where(eq(galleries.id, gallery.id));
    expect(await findClientGallery(gallery.id)).toBeNull();
    expect(await purgeDueGalleries()).toBe(1);
    expect(await objectsOf(gallery.id)).toEqual([]);
    expect(await deleteGallery(gallery.id)).toBe(false);
  });

  it("deletes at once when the owner deletes, uploads under way included", async () => {
    const gallery = await galleryWithPhoto();
    const key = galleryUploadKey(gallery.id, crypto.randomUUID(), "jpg");
    const uploadId = await storage().startMultipart(key, "image/jpeg");
    await storage().putPart(key, uploadId, 1, Buffer.alloc(1000, 1), 1000);
    await db().insert(resumableUploads).values({
      galleryId: gallery.id,
      fileName: "IMG_9.jpg",
      size: 5000,
      contentType: "image/jpeg",
      chunkSize: 1000,
      received: 1000,
      storageKey: key,
      storageUploadId: uploadId,
    });
    expect(await deleteGallery(gallery.id)).toBe(true);
    expect(await objectsOf(gallery.id)).toEqual([]);
    expect(
      await db().select().from(resumableUploads).where(eq(resumableUploads.galleryId, gallery.id)),
    ).toEqual([]);
    await expect(fs.readdir(`${dataDir}/incoming-uploads/parts/${uploadId}`)).rejects.toThrow();
  });

  it("forgets uploads left unfinished for 48 hours, and keeps the recent ones", async () => {
    const gallery = await insertTestGallery(db());
    const make = async (name: string, updatedAt: Date) => {
      const key = galleryUploadKey(gallery.id, crypto.randomUUID(), "jpg");
      const uploadId = await storage().startMultipart(key, "image/jpeg");
      const [row] = await db()
        .insert(resumableUploads)
        .values({
          galleryId: gallery.id,
          fileName: name,
          size: 5000,
          contentType: "image/jpeg",
          chunkSize: 1000,
          storageKey: key,
          storageUploadId: uploadId,
          updatedAt,
        })
        .returning({ id: resumableUploads.id });
      return row?.id ?? "";
    };
    const stale = await make("vieux.jpg", new Date(Date.now() - 49 * 3600 * 1000));
    const recent = await make("recent.jpg", new Date(Date.now() - 3600 * 1000));
    expect(await purgeStaleUploads()).toBe(1);
    const left = await db()
      .select({ id: resumableUploads.id })
      .from(resumableUploads)
      .where(inArray(resumableUploads.id, [stale, recent]));
    expect(left.map((row) => row.id)).toEqual([recent]);
  });

  it("forgets the client's e-mail, name and comments after 18 months without activity", async () => {
    const old = await galleryWithPhoto({ clientEmail: "ancien@example.test" });
    const active = await galleryWithPhoto({ clientEmail: "actif@example.test" });
    await db()
      .update(galleryPhotos)
      .set({ favourite: true, favouriteComment: "Celle-ci en grand" })
      .where(inArray(galleryPhotos.galleryId, [old.id, active.id]));
    await db()
      .update(galleries)
      .set({ lastClientActivityAt: new Date(Date.now() - 19 * 30 * DAY) })
      .where(eq(galleries.id, old.id));
    await db()
      .update(galleries)
      .set({ lastClientActivityAt: new Date(Date.now() - 30 * DAY) })
      .where(eq(galleries.id, active.id));

    expect(await forgetInactiveClients(18)).toBe(1);
    const rows = await db()
      .select({ id: galleries.id, email: galleries.clientEmail, name: galleries.clientName })
      .from(galleries)
      .where(inArray(galleries.id, [old.id, active.id]));
    expect(rows.find((row) => row.id === old.id)).toMatchObject({ email: "", name: "Client" });
    expect(rows.find((row) => row.id === active.id)).toMatchObject({
      email: "actif@example.test",
    });
    const comments = await db()
      .select({ galleryId: galleryPhotos.galleryId, comment: galleryPhotos.favouriteComment })
      .from(galleryPhotos)
      .where(inArray(galleryPhotos.galleryId, [old.id, active.id]));
    expect(comments.find((row) => row.galleryId === old.id)?.comment).toBeNull();
    expect(comments.find((row) => row.galleryId === active.id)?.comment).toBe("Celle-ci en grand");
    expect(await forgetInactiveClients(18)).toBe(0);
  });
});
