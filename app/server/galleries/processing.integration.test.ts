import fs from "node:fs/promises";
import { crc32 } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { thumbHashToRGBA } from "thumbhash";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { insertTestGallery } from "../../../tests/support/galleries";
import { hasGps, makeTestJpeg, makeTestPng } from "../../../tests/support/photos";
import { storageDrivers, useStorageDriver } from "../../../tests/support/storage-drivers";
import { db } from "../db/client.server";
import { galleryPhotos } from "../db/schema";
import * as pool from "../images/pool.server";
import { closePhotoPool } from "../images/pool.server";
import { enqueue } from "../jobs/queue.server";
import { startWorkers } from "../boot/jobs.server";
import { galleryPhotoPrefix, galleryUploadKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import {
  handlePhotoJobs,
  reprocessGalleryVariants,
  retryPhotoProcessing,
} from "./processing.server";

// The store is a folder of this file's own (env() reads DATA_DIR once, on first use).
const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/photo-processing-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  process.env.PHOTO_WORKERS = "1";
  return directory;
});

useAppDatabase({ jobs: true });

beforeAll(async () => {
  // No SMTP here: only the publishing and photo workers start.
  await startWorkers({ mail: null, photoWorkers: 1 });
});
afterAll(async () => {
  await closePhotoPool();
  await fs.rm(dataDir, { recursive: true, force: true });
});

type Upload = { name: string; extension: "jpg" | "png" | "heic"; buffer: Buffer };

/** Adds an uploaded photo to the gallery as the upload protocol leaves it, and queues its job. */
async function upload(galleryId: string, file: Upload, position = 1): Promise<string> {
  const [row] = await db()
    .insert(galleryPhotos)
    .values({ galleryId, position, originalName: file.name, sourceExtension: file.extension })
    .returning({ id: galleryPhotos.id });
  if (!row) throw new Error("no photo row");
  const photoId = row.id;
  await storage().put(galleryUploadKey(galleryId, photoId, file.extension), file.buffer, {
    contentType: "application/octet-stream",
  });
  await enqueue("photos", { photoId });
  return photoId;
}

async function photoRow(photoId: string) {
  const [row] = await db().select().from(galleryPhotos).where(eq(galleryPhotos.id, photoId));
  if (!row) throw new Error(`no photo ${photoId}`);
  return row;
}

/** Waits for the photo to leave the queue (ready or failed). */
/**
 * The photo's preparation comes to its end. Bounded at 100 s, room for one retry of the queue (30 s after
 * a failed attempt): on a busy machine the S3 store once let a write pass its 10 s, and the test ran out of
 * time waiting for the retry.
 */
async function settled(photoId: string) {
  await expect
    .poll(async () => (await photoRow(photoId)).status, { timeout: 100_000, interval: 250 })
    .toMatch(/^(ready|failed)$/);
  return photoRow(photoId);
}

async function read(key: string): Promise<Buffer> {
  const object = await storage().get(key);
  if (!object) throw new Error(`missing ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The photo's files come to be exactly `expected`: the upload and a former revision's sizes are deleted
 * just after the row says `ready` (never before: a page may still name them), a moment later when the
 * machine is busy.
 */
async function expectKeys(galleryId: string, photoId: string, expected: string[]) {
  await expect
    .poll(() => keysOf(galleryId, photoId), { timeout: 30_000, interval: 250 })
    .toEqual([...expected].sort());
}

async function keysOf(galleryId: string, photoId: string): Promise<string[]> {
  const prefix = galleryPhotoPrefix(galleryId, photoId);
  const names: string[] = [];
  for await (const object of storage().list(prefix)) names.push(object.key.slice(prefix.length));
  return names.sort();
}

const variantNames = (revision: number, widths: number[]) =>
  widths
    .flatMap((width) =>
      (width <= 1600 ? ["avif", "webp", "jpg"] : ["webp", "jpg"]).map(
        (format) => `r${revision}-w${width}.${format}`,
      ),
    )
    .sort();

const rawCrc = async (file: Buffer) => crc32(await sharp(file).raw().toBuffer());

// The same tests on the local disk and on a real S3-compatible server (s3rver in a child process): the worker
// thread works on local files either way; what it reads and writes goes through storage().
describe.each(storageDrivers)("on the $kind store", (driver) => {
  useStorageDriver(driver);

  describe("gallery photo processing (through the photos queue)", { timeout: 120_000 }, () => {
    it("prepares a camera JPEG: original without GPS, with its capture date and the same pixels, web sizes, placeholder", async () => {
      const gallery = await insertTestGallery(db());
      const source = await makeTestJpeg({ index: 1, width: 2600, height: 1733 });
      expect(await hasGps(source)).toBe(true);
      const photoId = await upload(gallery.id, {
        name: "IMG_0001.jpg",
        extension: "jpg",
        buffer: source,
      });

      const row = await settled(photoId);
      expect(row).toMatchObject({
        status: "ready",
        error: null,
        width: 2600,
        height: 1733,
        widths: [480, 960, 1600, 2400],
        variantRevision: 1,
        originalExtension: "jpg",
      });
      await expectKeys(gallery.id, photoId, [
        ...variantNames(1, [480, 960, 1600, 2400]),
        "original.jpg",
      ]);
      const original = await read(`${galleryPhotoPrefix(gallery.id, photoId)}original.jpg`);
      expect(await hasGps(original)).toBe(false);
      // Everything but the place stays (decision 0102): the camera and the capture date.
      expect(original.includes(Buffer.from("Studio Test"))).toBe(true);
      expect(original.includes(Buffer.from("2026:06:14 15:29:58"))).toBe(true);
      expect(await rawCrc(original)).toBe(await rawCrc(source));
      expect(row.originalBytes).toBe(original.length);
      expect(row.originalCrc32).toBe(crc32(original));

      const web = await read(`${galleryPhotoPrefix(gallery.id, photoId)}r1-w960.jpg`);
      const webMetadata = await sharp(web).metadata();
      expect([webMetadata.width, webMetadata.height]).toEqual([960, 640]);
      expect(webMetadata.exif).toBeUndefined();
      expect(
        (
          await sharp(
            await read(`${galleryPhotoPrefix(gallery.id, photoId)}r1-w480.avif`),
          ).metadata()
        ).width,
      ).toBe(480);
      const placeholder = thumbHashToRGBA(Buffer.from(row.thumbhash ?? "", "base64"));
      expect(placeholder.w / placeholder.h).toBeCloseTo(2600 / 1733, 0);
      expect(row.colour).toMatch(/^#[0-9a-f]{6}$/);
    });

    it("keeps a turned photo's orientation in the original and makes upright web sizes", async () => {
      const gallery = await insertTestGallery(db());
      const source = await makeTestJpeg({ index: 7, width: 1600, height: 1067, orientation: 6 });
      const photoId = await upload(gallery.id, {
        name: "IMG_0007.jpg",
        extension: "jpg",
        buffer: source,
      });

      const row = await settled(photoId);
      expect(row).toMatchObject({
        status: "ready",
        width: 1067,
        height: 1600,
        widths: [480, 960, 1067],
      });
      const original = await read(`${galleryPhotoPrefix(gallery.id, photoId)}original.jpg`);
      expect((await sharp(original).metadata()).orientation).toBe(6);
      expect(await hasGps(original)).toBe(false);
      expect(await rawCrc(original)).toBe(await rawCrc(source));
      const web = await sharp(
        await read(`${galleryPhotoPrefix(gallery.id, photoId)}r1-w1067.webp`),
      ).metadata();
      expect([web.width, web.height, web.orientation]).toEqual([1067, 1600, undefined]);
    });

    it("prepares a PNG (original PNG, same pixels) and a HEIC (original becomes a JPEG)", async () => {
      const gallery = await insertTestGallery(db());
      const png = await makeTestPng({ index: 2, width: 1200, height: 800 });
      const pngId = await upload(
        gallery.id,
        { name: "scan.png", extension: "png", buffer: png },
        1,
      );
      const heic = await fs.readFile(
        new URL("../../../tests/fixtures/photo.heic", import.meta.url),
      );
      const heicId = await upload(
        gallery.id,
        { name: "IMG_4000.HEIC", extension: "heic", buffer: heic },
        2,
      );

      const pngRow = await settled(pngId);
      expect(pngRow).toMatchObject({
        status: "ready",
        width: 1200,
        height: 800,
        widths: [480, 960, 1200],
        originalExtension: "png",
      });
      const pngOriginal = await read(`${galleryPhotoPrefix(gallery.id, pngId)}original.png`);
      expect(await rawCrc(pngOriginal)).toBe(await rawCrc(png));

      // A 16-bit PNG with transparency (as exported by editors): laid on white, 8 bits for the web.
      const deep = await sharp({
        create: {
          width: 500,
          height: 300,
          channels: 4,
          background: { r: 200, g: 30, b: 40, alpha: 0.5 },
        },
      })
        .png()
        .toColourspace("rgb16")
        .toBuffer();
      expect((await sharp(deep).metadata()).depth).toBe("ushort");
      const deepId = await upload(
        gallery.id,
        { name: "export.png", extension: "png", buffer: deep },
        3,
      );
      expect(await settled(deepId)).toMatchObject({ status: "ready", widths: [480, 500] });
      const web = await sharp(await read(`${galleryPhotoPrefix(gallery.id, deepId)}r1-w500.jpg`))
        .raw()
        .toBuffer();
      // Half-transparent red on white: pink, not black.
      expect(web[0]).toBeGreaterThan(200);
      expect(web[1]).toBeGreaterThan(100);

      const heicRow = await settled(heicId);
      expect(heicRow).toMatchObject({
        status: "ready",
        width: 320,
        height: 240,
        widths: [160, 320],
        originalExtension: "jpg",
      });
      await expectKeys(gallery.id, heicId, [...variantNames(1, [160, 320]), "original.jpg"]);
      const heicOriginal = await read(`${galleryPhotoPrefix(gallery.id, heicId)}original.jpg`);
      const decoded = await sharp(heicOriginal).metadata();
      expect([decoded.format, decoded.width, decoded.height]).toEqual(["jpeg", 320, 240]);
      // The fixture's left half has a red disc on green: the delivery JPEG shows the same picture.
      const { data } = await sharp(heicOriginal)
        .extract({ left: 100, top: 120, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(data[0]).toBeGreaterThan(150);
      expect(data[1]).toBeLessThan(100);
      // That HEIC has no Exif: its JPEG carries none either.
      expect(decoded.exif).toBeUndefined();
    });

    it("carries a HEIC's Exif into its delivery JPEG, upright, without the location", async () => {
      const gallery = await insertTestGallery(db());
      const heic = await fs.readFile(
        new URL("../../../tests/fixtures/photo-exif.heic", import.meta.url),
      );
      const id = await upload(
        gallery.id,
        { name: "IMG_4001.HEIC", extension: "heic", buffer: heic },
        1,
      );
      expect(await settled(id)).toMatchObject({ status: "ready", originalExtension: "jpg" });
      const original = await read(`${galleryPhotoPrefix(gallery.id, id)}original.jpg`);
      const { exif, orientation } = await sharp(original).metadata();
      expect(exif?.toString("latin1")).toContain("2026:06:14 15:29:58");
      expect(exif?.toString("latin1")).toContain("Studio Test");
      expect(orientation).toBe(1);
      expect(await hasGps(original)).toBe(false);
    });

    it("marks a damaged or foreign file failed with a message for the owner, and keeps nothing made of it", async () => {
      const gallery = await insertTestGallery(db());
      const source = await makeTestJpeg({ index: 9, width: 800, height: 600 });
      const brokenId = await upload(
        gallery.id,
        { name: "coupé.jpg", extension: "jpg", buffer: source.subarray(0, source.length / 2) },
        1,
      );
      const foreignId = await upload(
        gallery.id,
        { name: "notes.jpg", extension: "jpg", buffer: Buffer.from("pas une photo") },
        2,
      );

      expect(await settled(brokenId)).toMatchObject({
        status: "failed",
        error: "Fichier illisible ou endommagé.",
      });
      expect(await settled(foreignId)).toMatchObject({
        status: "failed",
        error: "Format non pris en charge : envoyez des photos JPEG, PNG ou HEIC.",
      });
      expect(await keysOf(gallery.id, brokenId)).toEqual(["upload.jpg"]);
    });

    it("marks the brand bottom-right when the gallery asks for it, and redoes the web sizes when it changes", async () => {
      const plain = await insertTestGallery(db());
      const marked = await insertTestGallery(db(), { watermark: true });
      const source = await makeTestJpeg({ index: 11, width: 1000, height: 700, gps: false });
      const plainId = await upload(plain.id, { name: "a.jpg", extension: "jpg", buffer: source });
      const markedId = await upload(marked.id, { name: "a.jpg", extension: "jpg", buffer: source });
      await settled(plainId);
      await settled(markedId);

      const corner = async (galleryId: string, photoId: string, revision: number) => {
        const file = await read(`${galleryPhotoPrefix(galleryId, photoId)}r${revision}-w960.webp`);
        // The middle of the mark: 960 × 2 % margin + half of 18 % from the right and bottom edges.
        const { data } = await sharp(file)
          .extract({ left: 960 - 19 - 86, top: 672 - 19 - 86, width: 1, height: 1 })
          .raw()
          .toBuffer({ resolveWithObject: true });
        return [...data];
      };
      const markedAvif = await read(`${galleryPhotoPrefix(marked.id, markedId)}r1-w960.avif`);
      expect((await sharp(markedAvif).metadata()).hasAlpha).toBe(false);
      const plainCorner = await corner(plain.id, plainId, 1);
      const markedCorner = await corner(marked.id, markedId, 1);
      // The mark's dark centre darkens the photo there; the rest of the photo is nearly the same.
      const distance = plainCorner.reduce(
        (sum, value, channel) => sum + Math.abs(value - (markedCorner[channel] ?? 0)),
        0,
      );
      expect(distance).toBeGreaterThan(60);

      // The owner turns the watermark off: a new revision, made from the delivery original.
      await db().transaction(async (tx) => {
        await tx.execute(sqlWatermarkOff(marked.id));
        expect(await reprocessGalleryVariants(marked.id, { tx })).toBe(1);
      });
      await expect
        .poll(async () => (await photoRow(markedId)).variantRevision, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe(2);
      // The first revision's sizes go once the row names the second (never while a page may show them).
      await expectKeys(marked.id, markedId, [...variantNames(2, [480, 960, 1000]), "original.jpg"]);
      const unmarked = await corner(marked.id, markedId, 2);
      const back = unmarked.reduce(
        (sum, value, channel) => sum + Math.abs(value - (plainCorner[channel] ?? 0)),
        0,
      );
      expect(back).toBeLessThan(15);
      expect((await photoRow(markedId)).status).toBe("ready");
    });
  });

  describe("a photo whose preparation keeps failing", () => {
    it("is retried by the queue, and marked failed for the owner after the last attempt only", async () => {
      const gallery = await insertTestGallery(db());
      const source = await makeTestJpeg({ index: 12, width: 400, height: 300 });
      const [row] = await db()
        .insert(galleryPhotos)
        .values({
          galleryId: gallery.id,
          position: 1,
          originalName: "a.jpg",
          sourceExtension: "jpg",
        })
        .returning({ id: galleryPhotos.id });
      if (!row) throw new Error("no photo row");
      await storage().put(galleryUploadKey(gallery.id, row.id, "jpg"), source, {
        contentType: "image/jpeg",
      });
      // The job as pg-boss hands it to the handler (only what the handler reads).
      const job = (retryCount: number) =>
        ({
          id: `job-${retryCount}`,
          data: { photoId: row.id },
          retryCount,
          retryLimit: 3,
          signal: new AbortController().signal,
        }) as unknown as Parameters<typeof handlePhotoJobs>[0][number];
      const spy = vi.spyOn(pool, "runPhotoTask").mockRejectedValue(new Error("Disque plein"));
      try {
        await expect(handlePhotoJobs([job(1)])).rejects.toThrow("Disque plein");
        expect(await photoRow(row.id)).toMatchObject({ status: "processing", error: null });
        await expect(handlePhotoJobs([job(3)])).rejects.toThrow("Disque plein");
        expect(await photoRow(row.id)).toMatchObject({
          status: "failed",
          error: "Erreur pendant la préparation : réessayez.",
        });
      } finally {
        spy.mockRestore();
      }
      // The owner's « Relancer » queues it again: the upload is still there and the photo gets ready.
      expect(await retryPhotoProcessing(row.id)).toBe(true);
      expect(await retryPhotoProcessing(row.id)).toBe(false);
      expect(await settled(row.id)).toMatchObject({
        status: "ready",
        error: null,
        widths: [200, 400],
      });
    });
  });
});

function sqlWatermarkOff(galleryId: string) {
  return sql`update galleries set watermark = false where id = ${galleryId}`;
}
