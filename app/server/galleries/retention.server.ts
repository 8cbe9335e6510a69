import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import { RETENTION_MONTHS } from "~/lib/retention";
import { db, type Database } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import { env } from "../env.server";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";
import { abortQuietly, deleteGallery } from "./galleries.server";
import { callOffExpiredPhotoOrders } from "./photo-sales.server";

/*
 * The galleries' retention (decision 0105), run daily by the pg-boss schedule `gallery-retention`: the
 * galleries whose deletion date has come go (rows and files), the orders of photos still awaiting payment
 * in expired galleries are called off (decision 0196), uploads left unfinished for 48 hours are
 * forgotten, and the temporary files of one-file forms older than a day are removed. Each step is safe to
 * run again after a crash, and one process runs it at a time (a singleton queue).
 */

/** How many galleries one run deletes (a run that stops at 20 leaves the rest to the next day's run). */
export const GALLERIES_PER_RUN = 20;
/** An upload untouched this long is abandoned. */
export const STALE_UPLOAD_HOURS = 48;
/** A temporary file of the multipart reader older than this is a leftover. */
const TEMP_FILE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Deletes up to `limit` galleries whose purge date passed (those already being deleted first). */
export async function purgeDueGalleries(limit = GALLERIES_PER_RUN, now = new Date()) {
  const due = await db()
    .select({ id: galleries.id })
    .from(galleries)
    .where(lt(galleries.purgeAt, now))
    .orderBy(sql`${galleries.deletingAt} asc nulls last`, asc(galleries.purgeAt))
    .limit(limit);
  let deleted = 0;
  for (const gallery of due) {
    try {
      if (await deleteGallery(gallery.id)) deleted++;
    } catch (error) {
      // Marked `deleting_at`: tomorrow's run starts with it.
      log.error("gallery_retention_delete_failed", { id: gallery.id, error });
    }
  }
  return deleted;
}

/**
 * Forgets the uploads unfinished for 48 hours: their parts in the store, their rows, and the photo rows
 * they made that never received their file (none normally: a photo row is made at completion).
 */
export async function purgeStaleUploads(now = new Date()) {
  const cutoff = new Date(now.getTime() - STALE_UPLOAD_HOURS * 60 * 60 * 1000);
  const stale = await db()
    .select({
      id: resumableUploads.id,
      key: resumableUploads.storageKey,
      uploadId: resumableUploads.storageUploadId,
      photoId: resumableUploads.photoId,
    })
    .from(resumableUploads)
    .where(and(isNull(resumableUploads.completedAt), lt(resumableUploads.updatedAt, cutoff)));
  for (const upload of stale) {
    await abortQuietly(upload.key, upload.uploadId);
    await db().delete(resumableUploads).where(eq(resumableUploads.id, upload.id));
    if (upload.photoId) {
      // A photo whose file never arrived is still `uploaded` with no size.
      await db()
        .delete(galleryPhotos)
        .where(
          and(
            eq(galleryPhotos.id, upload.photoId),
            eq(galleryPhotos.status, "uploaded"),
            isNull(galleryPhotos.originalBytes),
          ),
        );
    }
  }
  return stale.length;
}

/**
 * Removes the files left in DATA_DIR/incoming-uploads for more than a day (a one-file form's upload
 * whose request died). Its `parts` folder belongs to the local store's multipart uploads, which
 * purgeStaleUploads ends.
 */
export async function purgeTemporaryFiles(now = Date.now()) {
  const directory = path.join(env().dataDir, "incoming-uploads");
  let entries: Dirent[];
  try {
    entries = await fs.readdir(directory, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(directory, entry.name);
    try {
      const stat = await fs.stat(file);
      if (now - stat.mtimeMs > TEMP_FILE_MAX_AGE_MS) {
        await fs.rm(file, { force: true });
        removed++;
      }
    } catch {
      // Removed meanwhile by its own request.
    }
  }
  return removed;
}

/** One run of the schedule: every step, each one's failure logged without stopping the others. */
export async function runGalleryRetention(now = new Date()) {
  const result = { galleries: 0, photoOrders: 0, uploads: 0, files: 0 };
  try {
    result.galleries = await purgeDueGalleries(GALLERIES_PER_RUN, now);
  } catch (error) {
    log.error("gallery_retention_failed", { step: "galleries", error });
  }
  try {
    result.photoOrders = await callOffExpiredPhotoOrders(now);
  } catch (error) {
    log.error("gallery_retention_failed", { step: "photo_orders", error });
  }
  try {
    result.uploads = await purgeStaleUploads(now);
  } catch (error) {
    log.error("gallery_retention_failed", { step: "uploads", error });
  }
  try {
    result.files = await purgeTemporaryFiles(now.getTime());
  } catch (error) {
    log.error("gallery_retention_failed", { step: "files", error });
  }
  if (result.galleries || result.photoOrders || result.uploads || result.files) {
    log.info("gallery_retention", result);
  }
  return result;
}

/**
 * The queue `gallery-retention`: runGalleryRetention daily at 03:30 Paris time (decision 0105).
 * `singleton`: one run at a time.
 */
export const galleryRetentionJob = defineJob({
  name: "gallery-retention",
  policy: {
    retryLimit: 3,
    retryDelay: 10 * 60,
    policy: "singleton",
    expireInSeconds: 60 * 60,
    retentionSeconds: 7 * 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "30 3 * * *", tz: "Europe/Paris" },
  handler: async () => {
    await runGalleryRetention();
  },
});

/**
 * The galleries' part of the nightly personal-data purge (boot/personal-data-purge.server). Client
 * galleries are deleted long before, at their purge date (decision 0105); this is the net: one untouched
 * for 18 months (client's last visit, else its last edit) forgets who the client is and what they wrote.
 * Returns how many galleries forgot their client.
 */
export async function purgeForgottenGalleryClients(database: Database): Promise<number> {
  const cutoff = sql`now() - make_interval(months => ${RETENTION_MONTHS})`;
  const forgotten = await database.execute(
    sql`update galleries set client_name = 'Client', client_email = 'client@invalid', updated_at = now()
        where coalesce(last_client_activity_at, updated_at) < ${cutoff}
        and client_email <> 'client@invalid'`,
  );
  await database.execute(
    sql`update gallery_photos set favourite_comment = null
        where favourite_comment is not null and gallery_id in (
          select id from galleries where client_email = 'client@invalid')`,
  );
  return forgotten.rowCount ?? 0;
}
