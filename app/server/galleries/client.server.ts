import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { formatLongDateTimeFr } from "~/lib/dates";
import { db } from "../db/client.server";
import { galleries, galleryPhotos } from "../db/schema";
import { enqueueGallerySelection, enqueueGallerySelectionReceipt } from "./emails.server";
import type { GalleryTile } from "~/lib/gallery-photo-urls";

/*
 * The client's side of a gallery (decision 0103): its ready photos, favourites, comments and the validated
 * selection. Every write is one statement guarded by `selection_validated_at is null`, so a validation
 * racing a ♥ can never leave a change after the lock.
 */

export { MAX_COMMENT_LENGTH } from "~/lib/gallery-texts";

/** A photo as the client page shows it, with its delivery original's size (the ZIP's). */
export type ClientPhoto = GalleryTile & { bytes: number };

/** The photos the client sees: the ready ones, in the owner's order. */
export async function clientPhotos(galleryId: string): Promise<ClientPhoto[]> {
  const rows = await db()
    .select({
      id: galleryPhotos.id,
      name: galleryPhotos.originalName,
      width: galleryPhotos.width,
      height: galleryPhotos.height,
      widths: galleryPhotos.widths,
      revision: galleryPhotos.variantRevision,
      thumbhash: galleryPhotos.thumbhash,
      favourite: galleryPhotos.favourite,
      comment: galleryPhotos.favouriteComment,
      bytes: galleryPhotos.originalBytes,
    })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.status, "ready")))
    .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.createdAt));
  return rows.map((row) => ({
    ...row,
    width: row.width ?? 1,
    height: row.height ?? 1,
    bytes: row.bytes ?? 0,
  }));
}

/** One ready photo of the gallery (files, downloads): checked against the gallery in the same query. */
export async function clientPhoto(galleryId: string, photoId: string) {
  const [row] = await db()
    .select()
    .from(galleryPhotos)
    .where(
      and(
        eq(galleryPhotos.id, photoId),
        eq(galleryPhotos.galleryId, galleryId),
        eq(galleryPhotos.status, "ready"),
      ),
    );
  return row ?? null;
}

/** Notes that the client came by, at most once an hour (one cheap guarded update). */
export async function touchClientActivity(galleryId: string): Promise<void> {
  await db()
    .update(galleries)
    .set({ lastClientActivityAt: new Date() })
    .where(
      and(
        eq(galleries.id, galleryId),
        or(
          isNull(galleries.lastClientActivityAt),
          lt(galleries.lastClientActivityAt, sql`now() - interval '1 hour'`),
        ),
      ),
    );
}

const unlocked = (galleryId: string) =>
  sql`exists (select 1 from ${galleries} where ${galleries.id} = ${galleryId} and ${galleries.selectionValidatedAt} is null)`;

/** What a write of the selection did: done, the photo is not the gallery's, or the selection is locked. */
export type SelectionWrite = "done" | "unknown-photo" | "locked";

async function afterNoUpdate(galleryId: string, photoId: string): Promise<SelectionWrite> {
  const [gallery] = await db()
    .select({ validatedAt: galleries.selectionValidatedAt })
    .from(galleries)
    .where(eq(galleries.id, galleryId));
  if (gallery?.validatedAt) return "locked";
  const photo = await clientPhoto(galleryId, photoId);
  return photo ? "locked" : "unknown-photo";
}

/** One guarded write of the client's selection: a ready photo of this gallery, while it is not locked. */
async function writeSelection(
  galleryId: string,
  photoId: string,
  values: PgUpdateSetSource<typeof galleryPhotos>,
): Promise<SelectionWrite> {
  const updated = await db()
    .update(galleryPhotos)
    .set(values)
    .where(
      and(
        eq(galleryPhotos.id, photoId),
        eq(galleryPhotos.galleryId, galleryId),
        eq(galleryPhotos.status, "ready"),
        unlocked(galleryId),
      ),
    )
    .returning({ id: galleryPhotos.id });
  return updated.length > 0 ? "done" : afterNoUpdate(galleryId, photoId);
}

export async function setFavourite(
  galleryId: string,
  photoId: string,
  value: boolean,
): Promise<SelectionWrite> {
  return writeSelection(galleryId, photoId, {
    favourite: value,
    favouritedAt: value ? new Date() : null,
    ...(value ? {} : { favouriteComment: null }),
  });
}

/** A comment makes the photo a favourite (the studio reads comments with the selection); empty removes it. */
export async function setComment(
  galleryId: string,
  photoId: string,
  comment: string,
): Promise<SelectionWrite> {
  const text = comment.trim();
  return writeSelection(
    galleryId,
    photoId,
    text
      ? {
          favouriteComment: text,
          favourite: true,
          favouritedAt: sql`coalesce(${galleryPhotos.favouritedAt}, now())`,
        }
      : { favouriteComment: null },
  );
}

/**
 * Locks the selection and queues the studio's e-mail and the client's receipt in the same transaction (both
 * or neither). Null when it was already
 * validated (by another person with the same code, or a second click).
 */
export async function validateSelection(galleryId: string): Promise<{ count: number } | null> {
  return db().transaction(async (tx) => {
    const [locked] = await tx
      .update(galleries)
      // Validated again, her package is the first photos of this selection (decision 0184).
      .set({ selectionValidatedAt: new Date(), packagePhotoIds: null })
      .where(and(eq(galleries.id, galleryId), isNull(galleries.selectionValidatedAt)))
      .returning({ id: galleries.id });
    if (!locked) return null;
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(galleryPhotos)
      .where(and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.favourite, true)));
    await enqueueGallerySelection({ galleryId }, { tx });
    await enqueueGallerySelectionReceipt({ galleryId }, { tx });
    return { count: row?.count ?? 0 };
  });
}

/** « Votre sélection a été envoyée au studio le … » (409 after the lock). */
export function lockedMessage(validatedAt: Date): string {
  return `Votre sélection a été envoyée au studio le ${formatLongDateTimeFr(validatedAt)} : elle ne peut plus être modifiée. Contactez le studio pour la rouvrir.`;
}
