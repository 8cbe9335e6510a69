import { mkdtemp, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { JobWithMetadata } from "pg-boss";
import { db } from "../db/client.server";
import { galleries, galleryPhotos } from "../db/schema";
import { env } from "../env.server";
import { runPhotoTask } from "../images/pool.server";
import { PHOTO_MESSAGES, type PhotoFile, type PhotoTaskResult } from "../images/photo-task";
import { defineJob, queueStopping, type Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import {
  contentTypeOf,
  galleryOriginalKey,
  galleryPhotoPrefix,
  galleryUploadKey,
  parseVariantName,
} from "../storage/keys";
import { storage } from "../storage/storage.server";

/*
 * The processing of a client gallery's photos (decision 0102), one `photos` job per photo. The
 * work itself (decoding, cleaning, encoding) runs in a worker thread of the pool (images/pool.server.ts);
 * this side reads and writes the database and the store. Every step can run again: a retried job redoes
 * the whole photo and writes the same keys.
 */

export type ProcessOutcome = "ready" | "failed" | "gone";

/** Writes this many files to the store at once. */
const PUT_CONCURRENCY = 4;

async function putFile(key: string, file: PhotoFile): Promise<void> {
  const { size } = await stat(file.path);
  await storage().put(key, createReadStream(file.path), {
    contentType: contentTypeOf(key),
    contentLength: size,
  });
}

async function putAll(entries: [string, PhotoFile][]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < entries.length) {
      const [key, file] = entries[next++] as [string, PhotoFile];
      await putFile(key, file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PUT_CONCURRENCY, entries.length) }, lane));
}

/** Marks a photo failed with a message for the owner (unless it is gone). */
export async function markPhotoFailed(photoId: string, message: string): Promise<void> {
  await db()
    .update(galleryPhotos)
    .set({ status: "failed", error: message })
    .where(eq(galleryPhotos.id, photoId));
}

/** Deletes the web sizes of other revisions than `revision` (after a watermark change). */
async function deleteStaleVariants(galleryId: string, photoId: string, revision: number) {
  const prefix = galleryPhotoPrefix(galleryId, photoId);
  const stale: string[] = [];
  for await (const object of storage().list(prefix)) {
    const variant = parseVariantName(object.key.slice(prefix.length));
    if (variant && variant.revision !== revision) stale.push(object.key);
  }
  if (stale.length > 0) await storage().delete(stale);
}

/**
 * Prepares one photo: from the owner's upload (`upload.{ext}`), the delivery original without location
 * data, the web sizes of the gallery's revision and the placeholder, then the row `ready` and the upload
 * deleted. A photo already prepared (its upload gone) gets its web sizes made again from its delivery
 * original, for a new revision (watermark on or off); it stays `ready` meanwhile, showing the old ones.
 * A file that cannot be a photo makes the row `failed` with the owner's message (no retry helps); any other
 * error is thrown, for the queue to retry.
 */
export async function processPhoto(photoId: string, signal: AbortSignal): Promise<ProcessOutcome> {
  const [row] = await db()
    .select({
      galleryId: galleryPhotos.galleryId,
      sourceExtension: galleryPhotos.sourceExtension,
      originalExtension: galleryPhotos.originalExtension,
      revision: galleries.variantRevision,
      watermark: galleries.watermark,
      deletingAt: galleries.deletingAt,
    })
    .from(galleryPhotos)
    .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
    .where(eq(galleryPhotos.id, photoId));
  if (!row || row.deletingAt) return "gone";
  const { galleryId, revision } = row;
  const uploadKey = galleryUploadKey(galleryId, photoId, row.sourceExtension);
  const originalKey = row.originalExtension
    ? galleryOriginalKey(galleryId, photoId, row.originalExtension)
    : null;

  let mode: "full" | "variants";
  let input: string;
  if (await storage().head(uploadKey)) {
    mode = "full";
    input = uploadKey;
    await db()
      .update(galleryPhotos)
      .set({ status: "processing", error: null })
      .where(eq(galleryPhotos.id, photoId));
  } else if (originalKey && (await storage().head(originalKey))) {
    mode = "variants";
    input = originalKey;
  } else {
    await markPhotoFailed(photoId, PHOTO_MESSAGES.missing);
    return "failed";
  }

  const outputDirectory = await mkdtemp(path.join(os.tmpdir(), "studio-photo-"));
  try {
    const started = performance.now();
    const result: PhotoTaskResult = await storage().withLocalFile(input, (file) =>
      runPhotoTask(
        { input: file, mode, outputDirectory, revision, watermark: row.watermark },
        { signal, threads: env().PHOTO_WORKERS },
      ),
    );
    if (!result.ok) {
      log.warn("gallery_photo_rejected", { photoId, reason: result.message });
      await markPhotoFailed(photoId, result.message);
      return "failed";
    }
    const prefix = galleryPhotoPrefix(galleryId, photoId);
    await putAll([
      ...(result.original
        ? [
            [
              galleryOriginalKey(galleryId, photoId, result.original.extension),
              result.original,
            ] as [string, PhotoFile],
          ]
        : []),
      ...result.files.map((file): [string, PhotoFile] => [`${prefix}${file.name}`, file]),
    ]);
    const updated = await db()
      .update(galleryPhotos)
      .set({
        status: "ready",
        error: null,
        width: result.width,
        height: result.height,
        widths: result.widths,
        variantRevision: revision,
        thumbhash: result.thumbhash,
        colour: result.colour,
        ...(result.original
          ? {
              originalBytes: result.original.bytes,
              originalCrc32: result.original.crc32,
              originalExtension: result.original.extension,
            }
          : {}),
      })
      .where(
        and(
          eq(galleryPhotos.id, photoId),
          // A gallery being deleted may have emptied its prefix already: nothing is added after that.
          sql`not exists (select 1 from ${galleries} where ${galleries.id} = ${galleryId} and ${galleries.deletingAt} is not null)`,
        ),
      )
      .returning({ id: galleryPhotos.id });
    if (updated.length === 0) {
      // Deleted while it was being prepared (the photo, or its gallery): nothing of it stays in the store.
      await storage().deletePrefix(prefix);
      return "gone";
    }
    if (mode === "full") await storage().delete([uploadKey]);
    await deleteStaleVariants(galleryId, photoId, revision);
    log.info("gallery_photo_ready", {
      photoId,
      mode,
      files: result.files.length + (result.original ? 1 : 0),
      ms: Math.round(performance.now() - started),
    });
    return "ready";
  } finally {
    await rm(outputDirectory, { recursive: true, force: true });
  }
}

/** A job of the `photos` queue: the photo to process (its row says which gallery and file). */
export type PhotoJob = { photoId: string };

/**
 * The `photos` queue's handler: one photo per job. After the queue's last attempt a photo that still
 * fails is marked `failed` for the owner (« Erreur pendant la préparation : réessayez. »).
 */
export async function handlePhotoJobs(jobs: JobWithMetadata<PhotoJob>[]): Promise<void> {
  for (const job of jobs) {
    const signal = AbortSignal.any([job.signal, queueStopping()]);
    try {
      await processPhoto(job.data.photoId, signal);
    } catch (error) {
      log.error("gallery_photo_error", {
        photoId: job.data.photoId,
        attempt: job.retryCount,
        error,
      });
      if (job.retryCount >= job.retryLimit && !signal.aborted) {
        await markPhotoFailed(job.data.photoId, PHOTO_MESSAGES.failed);
      }
      throw error;
    }
  }
}

/**
 * The queue `photos`: one uploaded photo of a client gallery each, decoded, cleaned of its location data,
 * made into web sizes and a placeholder, in a worker thread (decision 0102). A few attempts only: a file
 * that fails three times is damaged, and the owner reads why on the gallery's page. One worker per thread
 * of the photo pool (PHOTO_WORKERS, none when 0); photos whose retry time has come are looked for every 10 s.
 */
export const photoJob = defineJob<PhotoJob, { photoWorkers: number }>({
  name: "photos",
  policy: {
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    notify: true,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 30,
    retentionSeconds: 30 * 24 * 60 * 60,
    deleteAfterSeconds: 24 * 60 * 60,
  },
  workers: ({ photoWorkers }) => photoWorkers,
  backlog: true,
  pollingIntervalSeconds: 10,
  handler: handlePhotoJobs,
});

/**
 * The web sizes of every photo of a gallery made again (the watermark was turned on or off): the gallery's
 * `variant_revision` grows and each prepared photo gets a job. Call it inside the transaction that changes
 * the watermark (`tx`), so the jobs exist exactly when the change does. Photos still waiting for their
 * first processing take the new revision anyway.
 */
export async function reprocessGalleryVariants(
  galleryId: string,
  { tx = db() }: { tx?: Executor } = {},
): Promise<number> {
  await tx
    .update(galleries)
    .set({ variantRevision: sql`${galleries.variantRevision} + 1` })
    .where(eq(galleries.id, galleryId));
  const photos = await tx
    .select({ id: galleryPhotos.id })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.status, "ready")));
  for (const photo of photos) {
    await photoJob.send({ photoId: photo.id }, { tx });
  }
  return photos.length;
}

/**
 * « Relancer »: a failed photo goes back to the queue (its upload is kept when it fails). Inside `tx` when
 * given, so the job exists exactly when the change does. Returns false when the photo is not failed.
 */
export async function retryPhotoProcessing(
  photoId: string,
  { tx = db() }: { tx?: Executor } = {},
): Promise<boolean> {
  const updated = await tx
    .update(galleryPhotos)
    .set({ status: "uploaded", error: null })
    .where(and(eq(galleryPhotos.id, photoId), eq(galleryPhotos.status, "failed")))
    .returning({ id: galleryPhotos.id });
  if (updated.length === 0) return false;
  await photoJob.send({ photoId }, { tx });
  return true;
}
