import fs from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { addReadyPhoto, insertTestGallery } from "../../../tests/support/galleries";
import { makeTestJpeg } from "../../../tests/support/photos";
import { storageDrivers, useStorageDriver } from "../../../tests/support/storage-drivers";
import type { GalleryForm } from "~/lib/gallery-schemas";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import { storage } from "../storage/storage.server";
import { galleryPhotoPrefix, galleryPrefix } from "../storage/keys";
import { COVER_CID, galleryInvitationEmail } from "./emails.server";
import {
  changeAccessCode,
  createGallery,
  deleteGallery,
  expiryDay,
  extendExpiry,
  findGallery,
  galleryState,
  listGalleries,
  purgeAfterDaysOf,
  reopenSelection,
  updateGallery,
} from "./galleries.server";
import { purgeDueGalleries, purgeStaleUploads, purgeTemporaryFiles } from "./retention.server";

// The store on a folder of this file's own (env() reads DATA_DIR once, on first use).
const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/galleries-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase({ jobs: true });
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const DAY_MS = 24 * 60 * 60 * 1000;

const form = (overrides: Partial<GalleryForm> = {}): GalleryForm => ({
  title: "Mariage de Léa et Hugo",
  clientName: "Léa Dupont",
  clientEmail: "lea@example.test",
  studioId: null,
  sessionDate: "2026-09-12",
  expiresOn: "2027-01-31",
  purgeAfterDays: 30,
  downloadsAllowed: true,
  watermark: false,
  coverFocus: null,
  includedPhotos: null,
  extraPhotoPrice: null,
  allPhotosPrice: null,
  ...overrides,
});

async function stored(id: string) {
  const found = await findGallery(id);
  if (!found) throw new Error(`no gallery ${id}`);
  return found.gallery;
}

async function objectsUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage().list(prefix)) keys.push(object.key);
  return keys;
}

async function countRows(galleryId: string) {
  const result = await db().execute<{ galleries: number; photos: number; uploads: number }>(
    sql`select (select count(*)::int from galleries where id = ${galleryId}) as galleries,
               (select count(*)::int from gallery_photos where gallery_id = ${galleryId}) as photos,
               (select count(*)::int from resumable_uploads where gallery_id = ${galleryId}) as uploads`,
  );
  return result.rows[0];
}

describe("gallery queries", () => {
  it("keeps the cover's point the owner chose, and the stored one when a form does not say (decision 0134)", async () => {
    const id = await createGallery(form(), null);
    expect(await stored(id)).toMatchObject({ coverFocalX: 50, coverFocalY: 50 });
    expect(await updateGallery(id, form({ coverFocus: "haut" }))).toBe(true);
    expect(await stored(id)).toMatchObject({ coverFocalX: 50, coverFocalY: 0 });
    expect(await updateGallery(id, form({ coverFocus: undefined }))).toBe(true);
    expect(await stored(id)).toMatchObject({ coverFocalX: 50, coverFocalY: 0 });
    await deleteGallery(id);
  });

  it("creates a gallery with a code, the end of its expiry day in Paris and its purge date", async () => {
    const id = await createGallery(form(), null);
    const gallery = await stored(id);
    expect(gallery).toMatchObject({
      title: "Mariage de Léa et Hugo",
      clientEmail: "lea@example.test",
      accessVersion: 1,
      downloadsAllowed: true,
    });
    expect(gallery.accessCode).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    // 31 January ends at midnight Paris time (UTC+1 in winter).
    expect(gallery.expiresAt.toISOString()).toBe("2027-01-31T23:00:00.000Z");
    expect(expiryDay(gallery.expiresAt)).toBe("2027-01-31");
    expect(purgeAfterDaysOf(gallery)).toBe(30);
    expect(galleryState(gallery, new Date("2027-01-01T00:00:00Z"))).toEqual({ kind: "draft" });
    expect(galleryState(gallery, new Date("2027-02-01T00:00:00Z")).kind).toBe("expired");
  });

  it("lists galleries with photos ready / total, favourites and the originals' bytes", async () => {
    const { id } = await insertTestGallery(db(), { title: "Liste" });
    const photo = await makeTestJpeg({ index: 1, width: 400, height: 300 });
    await addReadyPhoto(db(), storage(), id, { name: "IMG_0001.jpg", buffer: photo });
    await db()
      .insert(galleryPhotos)
      .values({ galleryId: id, position: 5, originalName: "IMG_0002.jpg", sourceExtension: "jpg" });
    const row = (await listGalleries()).rows.find((gallery) => gallery.id === id);
    expect(row).toMatchObject({ ready: 1, total: 2, favourites: 0, bytes: photo.length });
  });

  it("changes the code and its version, reopens a validated selection, extends the expiry", async () => {
    const { id, accessCode } = await insertTestGallery(db(), {
      selectionValidatedAt: new Date(),
      expiresAt: new Date(Date.now() - DAY_MS),
      purgeAt: new Date(Date.now() + 9 * DAY_MS),
    });
    const code = await changeAccessCode(id);
    expect(code).not.toBe(accessCode);
    const after = await stored(id);
    expect(after).toMatchObject({ accessCode: code, accessVersion: 2 });

    expect(await reopenSelection(id)).toBe(true);
    expect(await reopenSelection(id)).toBe(false);
    expect((await stored(id)).selectionValidatedAt).toBeNull();

    // Expired yesterday: extended from today, and the deletion moves with it (same delay).
    const until = await extendExpiry(id, 30);
    expect(until?.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    const extended = await stored(id);
    expect(purgeAfterDaysOf(extended)).toBe(10);
    expect(await changeAccessCode("00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it("turning the watermark on makes new web sizes: the revision grows and ready photos are queued", async () => {
    const { id } = await insertTestGallery(db(), { watermark: false });
    const photo = await makeTestJpeg({ index: 2, width: 400, height: 300 });
    const { id: photoId } = await addReadyPhoto(db(), storage(), id, {
      name: "IMG_0003.jpg",
      buffer: photo,
    });
    const before = (await stored(id)).variantRevision;
    expect(await updateGallery(id, form({ watermark: true }))).toBe(true);
    expect((await stored(id)).variantRevision).toBe(before + 1);
    const jobs = await db().execute<{ count: number }>(
      sql`select count(*)::int as count from pgboss.job where name = 'photos' and data->>'photoId' = ${photoId}`,
    );
    expect(jobs.rows[0]?.count).toBe(1);
    // Saving again without a change keeps the revision.
    expect(await updateGallery(id, form({ watermark: true }))).toBe(true);
    expect((await stored(id)).variantRevision).toBe(before + 1);
  });

  it("writes the invitation with the link, the code, the expiry date in French and the downloads", async () => {
    const { id, accessCode } = await insertTestGallery(db(), {
      title: "Naissance de Jules",
      expiresAt: new Date("2027-03-12T23:00:00Z"),
      purgeAt: new Date("2027-04-12T23:00:00Z"),
      downloadsAllowed: false,
    });
    const mail = await galleryInvitationEmail(id);
    expect(mail?.to).toBe("julie.martin@example.test");
    expect(mail?.subject).toBe("Vos photos sont prêtes : Naissance de Jules");
    const code = `${accessCode.slice(0, 4)}-${accessCode.slice(4)}`;
    for (const body of [mail?.text, mail?.html]) {
      expect(body).toContain(`/galerie-client/${id}`);
      expect(body).toContain(code);
      expect(body).toContain("12 mars 2027");
      expect(body).toContain("le téléchargement n");
    }
    expect(mail?.replyTo?.address).toMatch(/@/);
    // No cover chosen: no image.
    expect(mail?.inlineImages).toBeUndefined();
    expect(mail?.html).not.toContain("cid:");
    await deleteGallery(id);
    expect(await galleryInvitationEmail(id)).toBeNull();
  });

  it("carries the gallery's cover inside the invitation, its web size up to 1200 px as JPEG", async () => {
    const { id } = await insertTestGallery(db(), { title: "Mariage de Lou et Sam" });
    const photo = await makeTestJpeg({ index: 5, width: 1600, height: 1067 });
    const { id: photoId } = await addReadyPhoto(db(), storage(), id, {
      name: "IMG_0005.jpg",
      buffer: photo,
    });
    await db().update(galleries).set({ coverPhotoId: photoId }).where(eq(galleries.id, id));
    const mail = await galleryInvitationEmail(id);
    const [image] = mail?.inlineImages ?? [];
    expect(image).toMatchObject({ cid: COVER_CID, contentType: "image/jpeg" });
    // 960 px: the web sizes of a 1600 px photo are 480, 960 and 1600.
    expect(await sharp(image?.content).metadata()).toMatchObject({ format: "jpeg", width: 960 });
    expect(mail?.html).toContain(
      `<img src="cid:${COVER_CID}" width="560" alt="Photo de couverture : Mariage de Lou et Sam"`,
    );
    // A cover whose files are gone (deleted meanwhile) leaves the invitation without an image.
    await storage().deletePrefix(galleryPhotoPrefix(id, photoId));
    const without = await galleryInvitationEmail(id);
    expect(without?.inlineImages).toBeUndefined();
    expect(without?.html).not.toContain("cid:");
    await deleteGallery(id);
  });
});

// The same tests on the local disk and on a real S3-compatible server (s3rver in a child process).
describe.each(storageDrivers)("on the $kind store", (driver) => {
  useStorageDriver(driver);

  describe("deleteGallery", () => {
    it("removes the rows and every object of the gallery, and no other gallery's", async () => {
      const kept = await insertTestGallery(db());
      const gone = await insertTestGallery(db());
      const photo = await makeTestJpeg({ index: 3, width: 400, height: 300 });
      await addReadyPhoto(db(), storage(), kept.id, { name: "a.jpg", buffer: photo });
      await addReadyPhoto(db(), storage(), gone.id, { name: "b.jpg", buffer: photo });
      expect((await objectsUnder(galleryPrefix(gone.id))).length).toBeGreaterThan(3);

      expect(await deleteGallery(gone.id)).toBe(true);
      expect(await objectsUnder(galleryPrefix(gone.id))).toEqual([]);
      expect(await countRows(gone.id)).toEqual({ galleries: 0, photos: 0, uploads: 0 });
      expect((await objectsUnder(galleryPrefix(kept.id))).length).toBeGreaterThan(3);
      expect(await countRows(kept.id)).toMatchObject({ galleries: 1, photos: 1 });
      expect(await deleteGallery(gone.id)).toBe(false);
    });

    it("finishes after a crash that left the row marked and files behind", async () => {
      const { id } = await insertTestGallery(db(), { deletingAt: new Date(Date.now() - 3600_000) });
      const photo = await makeTestJpeg({ index: 4, width: 400, height: 300 });
      await addReadyPhoto(db(), storage(), id, { name: "c.jpg", buffer: photo });
      expect(await findGallery(id)).not.toBeNull();
      // The retention picks it first (already being deleted), even with its purge date ahead.
      await db()
        .update(galleries)
        .set({ purgeAt: new Date(Date.now() - 1000), expiresAt: new Date(Date.now() - 2000) })
        .where(eq(galleries.id, id));
      expect(await purgeDueGalleries(1)).toBe(1);
      expect(await objectsUnder(galleryPrefix(id))).toEqual([]);
      expect(await countRows(id)).toMatchObject({ galleries: 0 });
    });
  });

  describe("retention", () => {
    it("deletes only the galleries whose purge date passed", async () => {
      const due = await insertTestGallery(db(), {
        expiresAt: new Date(Date.now() - 40 * DAY_MS),
        purgeAt: new Date(Date.now() - 10 * DAY_MS),
      });
      const expiredNotDue = await insertTestGallery(db(), {
        expiresAt: new Date(Date.now() - 5 * DAY_MS),
        purgeAt: new Date(Date.now() + 25 * DAY_MS),
      });
      const open = await insertTestGallery(db());
      const photo = await makeTestJpeg({ index: 5, width: 400, height: 300 });
      await addReadyPhoto(db(), storage(), due.id, { name: "d.jpg", buffer: photo });

      expect(await purgeDueGalleries()).toBeGreaterThanOrEqual(1);
      expect(await countRows(due.id)).toMatchObject({ galleries: 0, photos: 0 });
      expect(await objectsUnder(galleryPrefix(due.id))).toEqual([]);
      expect(await countRows(expiredNotDue.id)).toMatchObject({ galleries: 1 });
      expect(await countRows(open.id)).toMatchObject({ galleries: 1 });
    });

    it("takes 20 galleries a run at most", async () => {
      for (let index = 0; index < 22; index++) {
        await insertTestGallery(db(), {
          expiresAt: new Date(Date.now() - 40 * DAY_MS),
          purgeAt: new Date(Date.now() - DAY_MS),
        });
      }
      expect(await purgeDueGalleries()).toBe(20);
      expect(await purgeDueGalleries()).toBe(2);
      expect(await purgeDueGalleries()).toBe(0);
    });

    it("aborts uploads untouched for 48 hours and removes their rows, keeping recent and finished ones", async () => {
      const { id } = await insertTestGallery(db());
      const started = async (key: string, hoursAgo: number, completed = false) => {
        const uploadId = await storage().startMultipart(key, "image/jpeg");
        await storage().putPart(key, uploadId, 1, Buffer.from("partie"), 6);
        const at = new Date(Date.now() - hoursAgo * 3600_000);
        const [row] = await db()
          .insert(resumableUploads)
          .values({
            galleryId: id,
            fileName: `${key.split("/").at(-1)}`,
            size: 6,
            contentType: "image/jpeg",
            chunkSize: 6,
            storageKey: key,
            storageUploadId: uploadId,
            updatedAt: at,
            createdAt: at,
            completedAt: completed ? at : null,
          })
          .returning({ id: resumableUploads.id });
        if (!row) throw new Error("no upload row");
        return row.id;
      };
      const stale = await started(`${galleryPrefix(id)}stale/upload.jpg`, 49);
      const recent = await started(`${galleryPrefix(id)}recent/upload.jpg`, 47);
      const finished = await started(`${galleryPrefix(id)}done/upload.jpg`, 72, true);

      expect(await purgeStaleUploads()).toBe(1);
      const left = await db().select({ id: resumableUploads.id }).from(resumableUploads);
      const ids = left.map((row) => row.id);
      expect(ids).not.toContain(stale);
      expect(ids).toEqual(expect.arrayContaining([recent, finished]));
      expect(await purgeStaleUploads()).toBe(0);
    });
  });
});

describe("temporary files", () => {
  it("removes temporary files older than a day, not newer ones nor the store's parts", async () => {
    const directory = path.join(dataDir, "incoming-uploads");
    await fs.mkdir(path.join(directory, "parts"), { recursive: true });
    const old = path.join(directory, "vieux.tmp");
    const fresh = path.join(directory, "neuf.tmp");
    await fs.writeFile(old, "x");
    await fs.writeFile(fresh, "x");
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
    await fs.utimes(old, twoDaysAgo, twoDaysAgo);
    expect(await purgeTemporaryFiles()).toBe(1);
    await expect(fs.stat(old)).rejects.toThrow();
    await expect(fs.stat(fresh)).resolves.toBeTruthy();
    await expect(fs.stat(path.join(directory, "parts"))).resolves.toBeTruthy();
  });
});
