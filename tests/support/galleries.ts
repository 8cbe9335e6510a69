import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../app/server/db/client.server";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import { galleryFormatsFor, galleryWidthsFor } from "../../app/lib/gallery-urls";
import { galleryOriginalKey, galleryVariantKey } from "../../app/server/storage/keys";
import type { Storage } from "../../app/server/storage/types";

/**
 * Galleries for tests, written straight into the database and the store (no upload, no processing queue):
 * for the tests of what comes after (client pages, ZIP, retention). The upload and processing tests use the
 * real path.
 */

const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export type TestGallery = { id: string; accessCode: string };

export async function insertTestGallery(
  db: Database,
  values: Partial<typeof galleries.$inferInsert> = {},
): Promise<TestGallery> {
  const expiresAt = values.expiresAt ?? new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const accessCode =
    values.accessCode ??
    Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
  const [row] = await db
    .insert(galleries)
    .values({
      title: "Séance en famille",
      clientName: "Julie Martin",
      clientEmail: "julie.martin@example.test",
      sessionDate: "2026-06-14",
      purgeAt: new Date(expiresAt.getTime() + 30 * 24 * 3600 * 1000),
      downloadsAllowed: true,
      ...values,
      expiresAt,
      accessCode,
    })
    .returning({ id: galleries.id });
  if (!row) throw new Error("insertTestGallery: no row");
  return { id: row.id, accessCode };
}

type WebFormat = ReturnType<typeof galleryFormatsFor>[number];

/**
 * The web sizes of the test photos, encoded once per process (decision 0175): the same test photos
 * (`makeTestPhotoSet`'s) are placed ready by several tests and files of one worker, and their encoding is
 * the slow part (about 1 s a photo). Keyed by the photo's bytes; bounded, the oldest dropped first.
 */
const encodedSizes = new Map<string, Promise<Buffer>>();
const ENCODED_SIZES_KEPT = 400;

function encodedSize(
  photo: Buffer,
  digest: string,
  width: number,
  format: WebFormat,
): Promise<Buffer> {
  const key = `${digest} ${width} ${format}`;
  const kept = encodedSizes.get(key);
  if (kept) return kept;
  const resized = sharp(photo).rotate().resize({ width });
  const encoding =
    format === "avif"
      ? resized.avif({ effort: 0, quality: 50 }).toBuffer()
      : format === "webp"
        ? resized.webp({ quality: 80 }).toBuffer()
        : resized.jpeg({ quality: 82 }).toBuffer();
  encodedSizes.set(key, encoding);
  encoding.catch(() => encodedSizes.delete(key));
  if (encodedSizes.size > ENCODED_SIZES_KEPT) {
    const [oldest] = encodedSizes.keys();
    if (oldest !== undefined) encodedSizes.delete(oldest);
  }
  return encoding;
}

/**
 * A photo as the processing leaves it: the delivery original (here the given file as is: strip its GPS
 * before if the test needs it), every web size of the convention (galleryWidthsFor × galleryFormatsFor) and
 * the row `ready` with size and CRC-32.
 */
export async function addReadyPhoto(
  db: Database,
  store: Storage,
  galleryId: string,
  photo: { name: string; buffer: Buffer },
): Promise<{ id: string }> {
  // The size as shown (orientation applied), read from the header: no decode.
  const { width, height } = (await sharp(photo.buffer).metadata()).autoOrient;
  const [{ revision }] = (await db
    .select({ revision: galleries.variantRevision })
    .from(galleries)
    .where(eq(galleries.id, galleryId))) as [{ revision: number }];
  const [row] = await db
    .insert(galleryPhotos)
    .values({
      galleryId,
      position: sql`(select coalesce(max(${galleryPhotos.position}), 0) + 1 from ${galleryPhotos} where ${galleryPhotos.galleryId} = ${galleryId})`,
      originalName: photo.name,
      sourceExtension: "jpg",
      status: "processing",
    })
    .returning({ id: galleryPhotos.id });
  if (!row) throw new Error("addReadyPhoto: no row");
  const photoId = row.id;
  await store.put(galleryOriginalKey(galleryId, photoId, "jpg"), photo.buffer, {
    contentType: "image/jpeg",
  });
  const widths = galleryWidthsFor(width);
  const digest = createHash("sha256").update(photo.buffer).digest("hex");
  for (const variantWidth of widths) {
    for (const format of galleryFormatsFor(variantWidth)) {
      await store.put(
        galleryVariantKey(galleryId, photoId, revision, variantWidth, format),
        await encodedSize(photo.buffer, digest, variantWidth, format),
        { contentType: `image/${format === "jpg" ? "jpeg" : format}` },
      );
    }
  }
  await db
    .update(galleryPhotos)
    .set({
      status: "ready",
      width,
      height,
      widths,
      variantRevision: revision,
      originalBytes: photo.buffer.length,
      originalCrc32: crc32(photo.buffer),
      originalExtension: "jpg",
      thumbhash: null,
      colour: "#a8a29e",
    })
    .where(eq(galleryPhotos.id, photoId));
  return { id: photoId };
}
