import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { GalleryPhotoStatus } from "../db/schema";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import {
  cursorColumn,
  decodeCursor,
  keysetCondition,
  keysetPage,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";
import { callOffStalePhotoOrders } from "../galleries/photo-sales.server";
import { log } from "../logger.server";
import { galleryPhotoPrefix, galleryVariantName } from "../storage/keys";
import { storage } from "../storage/storage.server";

/*
 * The photos of one client gallery as the owner manages them (page `admin/galeries/:id`): their states
 * while they are prepared, their order, the cover, deleting one.
 */

export type AdminGallery = { id: string; title: string; coverPhotoId: string | null };

export async function findAdminGallery(galleryId: string): Promise<AdminGallery | null> {
  const [row] = await db()
    .select({ id: galleries.id, title: galleries.title, coverPhotoId: galleries.coverPhotoId })
    .from(galleries)
    .where(and(eq(galleries.id, galleryId), isNull(galleries.deletingAt)));
  return row ?? null;
}

/** One photo in the owner's grid (and in the progress JSON polled every 2 s). */
export type AdminPhoto = {
  id: string;
  name: string;
  status: GalleryPhotoStatus;
  error: string | null;
  /** The smallest web size's file name once ready (for the preview), else null. */
  preview: string | null;
  width: number | null;
  height: number | null;
};

export type PhotosProgress = {
  /** The gallery's photos, counted by the database (every page, not only this one). */
  total: number;
  ready: number;
  failed: number;
  /** Uploaded but not ready yet (waiting or being prepared). */
  preparing: number;
  /** One page of the photos, in the client's order (decision 0136). */
  photos: AdminPhoto[];
  /** How many photos come before this page: the first one's place in the gallery is `offset + 1`. */
  offset: number;
  /** The cursors of the pages before and after (null at either end). */
  previous: string | null;
  next: string | null;
};

/** Photos per page of the owner's grid: a gallery can hold 2,000 (decision 0136). */
export const ADMIN_PHOTOS_PAGE_SIZE = 100;

/** The client's order: the owner's positions, then the upload's time, the id breaking ties. */
export const ADMIN_PHOTO_ORDER: KeysetOrder = {
  keys: [
    { expression: galleryPhotos.position, type: "integer" },
    { expression: galleryPhotos.createdAt, type: "timestamptz" },
    { expression: galleryPhotos.id, type: "uuid" },
  ],
  direction: "asc",
};

function adminPhoto(row: {
  id: string;
  name: string;
  status: GalleryPhotoStatus;
  error: string | null;
  widths: number[];
  revision: number;
  width: number | null;
  height: number | null;
}): AdminPhoto {
  const smallest = row.widths.length > 0 ? Math.min(...row.widths) : null;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    error: row.error,
    preview:
      row.status === "ready" && smallest !== null
        ? galleryVariantName(row.revision, smallest, "jpg")
        : null,
    width: row.width,
    height: row.height,
  };
}

/**
 * One page of a gallery's photos for the owner's grid and its progress (decision 0136): the page's rows,
 * the gallery's counts by state and the page's place in the gallery, by the database, never every photo.
 */
export async function adminPhotoPage(
  galleryId: string,
  position: PagePosition,
): Promise<PhotosProgress> {
  const page = await keysetPage(
    ADMIN_PHOTO_ORDER,
    position,
    (query) =>
      db()
        .select({
          id: galleryPhotos.id,
          name: galleryPhotos.originalName,
          status: galleryPhotos.status,
          error: galleryPhotos.error,
          widths: galleryPhotos.widths,
          revision: galleryPhotos.variantRevision,
          width: galleryPhotos.width,
          height: galleryPhotos.height,
          cursor: cursorColumn(ADMIN_PHOTO_ORDER),
        })
        .from(galleryPhotos)
        .where(and(eq(galleryPhotos.galleryId, galleryId), query.where))
        .orderBy(...query.orderBy)
        .limit(query.limit),
    ADMIN_PHOTOS_PAGE_SIZE,
  );
  // The page's first photo is the cursor of « Page précédente »: the photos before it give the offset.
  const first = page.previous ? decodeCursor(ADMIN_PHOTO_ORDER, page.previous) : null;
  const before = first ? keysetCondition(ADMIN_PHOTO_ORDER, { before: first }) : undefined;
  const [counts] = await db()
    .select({
      total: count(),
      ready: sql<number>`(count(*) filter (where ${galleryPhotos.status} = 'ready'))::int`,
      failed: sql<number>`(count(*) filter (where ${galleryPhotos.status} = 'failed'))::int`,
      offset: before ? sql<number>`(count(*) filter (where ${before}))::int` : sql<number>`0`,
    })
    .from(galleryPhotos)
    .where(eq(galleryPhotos.galleryId, galleryId));
  const { total = 0, ready = 0, failed = 0, offset = 0 } = counts ?? {};
  return {
    total,
    ready,
    failed,
    preparing: total - ready - failed,
    photos: page.rows.map(adminPhoto),
    offset,
    previous: page.previous,
    next: page.next,
  };
}

/**
 * Moves a photo one place up or down, or to a place (`to`, from 1: drag and drop), in one transaction with
 * the gallery's row locked so two moves do not interleave. False when it cannot go there.
 */
export async function movePhoto(
  galleryId: string,
  photoId: string,
  move: "up" | "down" | { to: number },
): Promise<boolean> {
  return reorder(galleryId, (photos) => {
    const index = photos.findIndex((photo) => photo.id === photoId);
    const target = move === "up" ? index - 1 : move === "down" ? index + 1 : move.to - 1;
    if (index === -1 || target < 0 || target >= photos.length || target === index) return null;
    const order = photos.map((photo) => photo.id);
    order.splice(index, 1);
    order.splice(target, 0, photoId);
    return order;
  });
}

/** Orders the gallery's photos by file name (natural order: IMG_2 before IMG_10). */
export async function sortPhotosByName(galleryId: string): Promise<void> {
  const collator = new Intl.Collator("fr", { numeric: true, sensitivity: "base" });
  await reorder(galleryId, (photos) =>
    photos.toSorted((a, b) => collator.compare(a.name, b.name)).map((photo) => photo.id),
  );
}

/**
 * Gives the gallery's photos the order `decide` returns (their ids; null: no change), with the gallery's row
 * locked so two reorderings do not interleave. Positions are renumbered 1…n, which also mends equal ones.
 */
async function reorder(
  galleryId: string,
  decide: (photos: { id: string; name: string }[]) => string[] | null,
): Promise<boolean> {
  const reordered = await db().transaction(async (tx) => {
    await tx
      .select({ id: galleries.id })
      .from(galleries)
      .where(eq(galleries.id, galleryId))
      .for("update");
    const photos = await tx
      .select({ id: galleryPhotos.id, name: galleryPhotos.originalName })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, galleryId))
      .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.createdAt));
    const order = decide(photos);
    if (order === null || order.length === 0) return false;
    const values = sql.join(
      order.map((id, index) => sql`(${id}::uuid, ${index + 1}::integer)`),
      sql`, `,
    );
    await tx.execute(sql`
      update ${galleryPhotos} set position = ordered.position
      from (values ${values}) as ordered(id, position)
      where ${galleryPhotos.id} = ordered.id and ${galleryPhotos.galleryId} = ${galleryId}`);
    return true;
  });
  // Her package is the first of her selection in the gallery's order: an order awaiting payment for the
  // others may now pay for photos it includes.
  if (reordered) await callOffStalePhotoOrders(galleryId);
  return reordered;
}

/** Sets the gallery's cover; false when the photo is not one of its photos. */
export async function setCoverPhoto(galleryId: string, photoId: string): Promise<boolean> {
  const updated = await db()
    .update(galleries)
    .set({ coverPhotoId: photoId, updatedAt: new Date() })
    .where(
      and(
        eq(galleries.id, galleryId),
        sql`exists (select 1 from ${galleryPhotos} where ${galleryPhotos.id} = ${photoId} and ${galleryPhotos.galleryId} = ${galleryId})`,
      ),
    )
    .returning({ id: galleries.id });
  return updated.length > 0;
}

/**
 * Deletes one photo: its row (the cover falls back to none), its upload records, then every file under its
 * storage prefix (upload, original, web sizes). Returns its name, or null when it is not in the gallery.
 */
export async function deletePhoto(galleryId: string, photoId: string): Promise<string | null> {
  const deleted = await db().transaction(async (tx) => {
    const [row] = await tx
      .delete(galleryPhotos)
      .where(and(eq(galleryPhotos.id, photoId), eq(galleryPhotos.galleryId, galleryId)))
      .returning({ name: galleryPhotos.originalName });
    if (!row) return null;
    await tx
      .delete(resumableUploads)
      .where(and(eq(resumableUploads.galleryId, galleryId), eq(resumableUploads.photoId, photoId)));
    return row.name;
  });
  if (deleted === null) return null;
  // An order awaiting payment for it, or counting it in her selection, no longer pays what is due.
  await callOffStalePhotoOrders(galleryId);
  try {
    await storage().deletePrefix(galleryPhotoPrefix(galleryId, photoId));
  } catch (error) {
    // The row is gone: the files are unreachable; the gallery's retention deletes its whole prefix later.
    log.error("gallery_photo_files_delete_failed", { galleryId, photoId, error });
  }
  return deleted;
}

/** Whether a photo belongs to the gallery (for its previews). */
export async function findPhotoOfGallery(galleryId: string, photoId: string) {
  const [row] = await db()
    .select({ id: galleryPhotos.id, widths: galleryPhotos.widths })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.id, photoId), eq(galleryPhotos.galleryId, galleryId)));
  return row ?? null;
}
