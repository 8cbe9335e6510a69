import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import { log } from "../logger.server";
import { galleryPrefix } from "../storage/keys";
import { storage } from "../storage/storage.server";
import type { Storage } from "../storage/types";

/*
 * Retention of client galleries (issue 14, item 4; decision 0105): a gallery and every file it holds go at
 * its `purge_at` (the expiry plus 30 days unless the owner chose otherwise); an upload never completed goes
 * 48 hours after its last piece; a gallery left alone for the site's 18 months forgets its client's e-mail,
 * name and comments (normally purged long before).
 */

/** How long an unfinished upload waits for its next piece (decision 0101). */
export const STALE_UPLOAD_HOURS = 48;
/** Galleries deleted per run: each may hold thousands of objects. The next run takes the rest. */
const BATCH = 20;

/**
 * Deletes a gallery and its files, now (the owner's « Supprimer ») or at its purge date. Marked first
 * (`deleting_at`: its pages answer 404 from then on), then its objects, then its row (photos and uploads
 * go with it): after a crash between the steps the row is still there, marked, and the next run finishes.
 * Returns false when there was no such gallery.
 */
export async function deleteGallery(
  galleryId: string,
  store: Storage = storage(),
): Promise<boolean> {
  const [marked] = await db()
    .update(galleries)
    .set({ deletingAt: sql`coalesce(${galleries.deletingAt}, now())` })
    .where(eq(galleries.id, galleryId))
    .returning({ id: galleries.id });
  if (!marked) return false;
  // Unfinished uploads keep parts outside the gallery's prefix (multipart uploads): forgotten first.
  const uploads = await db()
    .select({ key: resumableUploads.storageKey, uploadId: resumableUploads.storageUploadId })
    .from(resumableUploads)
    .where(and(eq(resumableUploads.galleryId, galleryId), isNull(resumableUploads.completedAt)));
  for (const upload of uploads) await abortQuietly(store, upload.key, upload.uploadId);
  const objects = await store.deletePrefix(galleryPrefix(galleryId));
  await db().delete(galleries).where(eq(galleries.id, galleryId));
  log.info("gallery_deleted", { galleryId, objects });
  return true;
}

async function abortQuietly(store: Storage, key: string, uploadId: string) {
  try {
    await store.abortMultipart(key, uploadId);
  } catch (error) {
    // Best effort (some stores keep parts until a lifecycle rule): the upload's row goes anyway.
    log.warn("gallery_upload_abort_failed", { key, error });
  }
}

/** The galleries whose purge date has come, and those whose deletion was interrupted: up to 20 a run. */
export async function purgeDueGalleries(
  now: Date = new Date(),
  store: Storage = storage(),
): Promise<number> {
  const due = await db()
    .select({ id: galleries.id })
    .from(galleries)
    .where(or(lte(galleries.purgeAt, now), isNotNull(galleries.deletingAt)))
    .orderBy(galleries.purgeAt)
    .limit(BATCH);
  let deleted = 0;
  for (const { id } of due) {
    try {
      if (await deleteGallery(id, store)) deleted += 1;
    } catch (error) {
      // Marked: answered 404 from now on, retried at the next run.
      log.error("gallery_purge_failed", { galleryId: id, error });
    }
  }
  return deleted;
}

/** Uploads without a piece for 48 hours: their parts forgotten, their rows deleted. */
export async function purgeStaleUploads(
  now: Date = new Date(),
  store: Storage = storage(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - STALE_UPLOAD_HOURS * 3600 * 1000);
  const stale = await db()
    .select({
      id: resumableUploads.id,
      key: resumableUploads.storageKey,
      uploadId: resumableUploads.storageUploadId,
    })
    .from(resumableUploads)
    .where(and(isNull(resumableUploads.completedAt), lte(resumableUploads.updatedAt, cutoff)));
  for (const upload of stale) await abortQuietly(store, upload.key, upload.uploadId);
  if (stale.length > 0) {
    await db()
      .delete(resumableUploads)
      .where(
        inArray(
          resumableUploads.id,
          stale.map((upload) => upload.id),
        ),
      );
  }
  return stale.length;
}

/**
 * The site's 18-month rule as a net: a gallery without client activity (nor change by the owner) for that
 * long keeps its photos until its purge date, but no longer the client's e-mail, name or comments.
 */
export async function forgetInactiveClients(months: number): Promise<number> {
  const cutoff = sql`now() - make_interval(months => ${months})`;
  const forgotten = await db()
    .update(galleries)
    .set({ clientEmail: "", clientName: "Client" })
    .where(
      and(
        sql`coalesce(${galleries.lastClientActivityAt}, ${galleries.updatedAt}) < ${cutoff}`,
        or(sql`${galleries.clientEmail} <> ''`, sql`${galleries.clientName} <> 'Client'`),
      ),
    )
    .returning({ id: galleries.id });
  if (forgotten.length > 0) {
    await db()
      .update(galleryPhotos)
      .set({ favouriteComment: null })
      .where(
        and(
          inArray(
            galleryPhotos.galleryId,
            forgotten.map((gallery) => gallery.id),
          ),
          isNotNull(galleryPhotos.favouriteComment),
        ),
      );
  }
  return forgotten.length;
}

/** One run of the galleries' retention (from the site's daily retention job). */
export async function purgeGalleries(months: number, now: Date = new Date()) {
  const galleriesDeleted = await purgeDueGalleries(now);
  const uploadsAborted = await purgeStaleUploads(now);
  const clientsForgotten = await forgetInactiveClients(months);
  return { galleriesDeleted, uploadsAborted, clientsForgotten };
}
