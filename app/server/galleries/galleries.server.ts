import { and, asc, count, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import {
  addToIsoDay,
  COVER_FOCUS,
  MAX_EXPIRY_MONTHS,
  type GalleryForm,
  eurosToCents,
} from "~/lib/gallery-schemas";
import { isoDayInParis, parisWallTimeToInstant, wallTime } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads, studios } from "../db/schema";
import { reprocessGalleryVariants } from "./processing.server";
import { log } from "../logger.server";
import { storage } from "../storage/storage.server";
import { galleryPrefix } from "../storage/keys";
import { generateAccessCode } from "./access.server";
import {
  callOffStalePhotoOrders,
  photoRightsIn,
  transferDeadlinesFollowExpiry,
} from "./photo-sales.server";
import {
  cursorColumn,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";

/*
 * The owner's side of the client galleries (decision 0103): the list, one gallery, its form's writes, a new
 * access code, the selection reopened, and the deletion shared with the retention (decision 0105).
 */

export type GalleryRow = typeof galleries.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of a Paris day (YYYY-MM-DD): the next day's midnight in Paris, when the gallery expires. */
export function endOfParisDay(day: string): Date {
  const next = addToIsoDay(day, { days: 1 });
  const [year, month, date] = next.split("-").map(Number) as [number, number, number];
  const wall = wallTime(year, month, date);
  if (wall === null) throw new Error(`Invalid day ${day}`);
  return parisWallTimeToInstant(wall);
}

/** The Paris day of an expiry instant (the last day the client can open the gallery). */
export function expiryDay(expiresAt: Date): string {
  return isoDayInParis(new Date(expiresAt.getTime() - 1));
}

/** The whole days between the expiry and the deletion (what the form shows). */
export function purgeAfterDaysOf(gallery: Pick<GalleryRow, "expiresAt" | "purgeAt">): number {
  return Math.round((gallery.purgeAt.getTime() - gallery.expiresAt.getTime()) / DAY_MS);
}

/** The cover's point chosen in the form, or nothing when the form did not say. */
function coverFocalOf(form: Pick<GalleryForm, "coverFocus">) {
  if (!form.coverFocus) return {};
  const { x, y } = COVER_FOCUS[form.coverFocus];
  return { coverFocalX: x, coverFocalY: y };
}

function datesOf(form: Pick<GalleryForm, "expiresOn" | "purgeAfterDays">) {
  const expiresAt = endOfParisDay(form.expiresOn);
  return { expiresAt, purgeAt: new Date(expiresAt.getTime() + form.purgeAfterDays * DAY_MS) };
}

/** The state shown in the list and the header. */
export type GalleryState =
  | { kind: "deleting" }
  | { kind: "expired"; purgeAt: string }
  | { kind: "selection" }
  | { kind: "sent" }
  | { kind: "draft" };

export function galleryState(
  gallery: Pick<
    GalleryRow,
    "deletingAt" | "expiresAt" | "purgeAt" | "selectionValidatedAt" | "invitationSentAt"
  >,
  now = new Date(),
): GalleryState {
  if (gallery.deletingAt) return { kind: "deleting" };
  if (gallery.expiresAt.getTime() <= now.getTime()) {
    return { kind: "expired", purgeAt: gallery.purgeAt.toISOString() };
  }
  if (gallery.selectionValidatedAt) return { kind: "selection" };
  if (gallery.invitationSentAt) return { kind: "sent" };
  return { kind: "draft" };
}

// Written out: drizzle leaves columns unqualified inside sql``, and a bare "id" in a subquery is its own table's.
const studioName = sql<
  string | null
>`(select s.data->>'name' from studios s where s.id = "galleries"."studio_id")`;
const photoCount = (where: string) =>
  sql<number>`(select count(*)::int from gallery_photos p where p.gallery_id = "galleries"."id"${sql.raw(where)})`;

/** The admin list's order: newest first, the id breaking ties. */
export const GALLERY_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: galleries.createdAt, type: "timestamptz" },
    { expression: galleries.id, type: "uuid" },
  ],
  direction: "desc",
};

/** Galleries whose title or client's name contains `search` (any case); all when empty. */
function galleryFilters(search: string): SQL | undefined {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return sql`(${galleries.title} ilike ${pattern} or ${galleries.clientName} ilike ${pattern})`;
}

/**
 * One page of the galleries (decision 0130), newest first, with their photo counts and the originals'
 * bytes, and how many galleries match.
 */
export async function listGalleries(search = "", position: PagePosition = null) {
  const where = galleryFilters(search);
  const [page, [total]] = await Promise.all([
    keysetPage(GALLERY_LIST_ORDER, position, (query) =>
      db()
        .select({
          id: galleries.id,
          title: galleries.title,
          clientName: galleries.clientName,
          studioName,
          sessionDate: galleries.sessionDate,
          expiresAt: galleries.expiresAt,
          purgeAt: galleries.purgeAt,
          invitationSentAt: galleries.invitationSentAt,
          selectionValidatedAt: galleries.selectionValidatedAt,
          deletingAt: galleries.deletingAt,
          createdAt: galleries.createdAt,
          total: photoCount(""),
          ready: photoCount(" and p.status = 'ready'"),
          favourites: photoCount(" and p.favourite"),
          bytes: sql<number>`(select coalesce(sum(p.original_bytes), 0)::float8 from gallery_photos p where p.gallery_id = "galleries"."id")`,
          cursor: cursorColumn(GALLERY_LIST_ORDER),
        })
        .from(galleries)
        .where(and(where, query.where))
        .orderBy(...query.orderBy)
        .limit(query.limit),
    ),
    db().select({ count: count() }).from(galleries).where(where),
  ]);
  return { ...page, matching: total?.count ?? 0 };
}

/** How many received selections the dashboard lists (the newest; the galleries list has them all). */
export const DASHBOARD_SELECTIONS = 5;

/**
 * The selections clients validated in the last 30 days, newest first, for the dashboard's « Sélection
 * reçue » (decision 0134): one bounded query, never the whole list of galleries.
 */
export async function recentSelections(now = new Date()) {
  return db()
    .select({
      id: galleries.id,
      title: galleries.title,
      clientName: galleries.clientName,
      validatedAt: galleries.selectionValidatedAt,
      favourites: photoCount(" and p.favourite"),
    })
    .from(galleries)
    .where(
      and(
        isNull(galleries.deletingAt),
        sql`${galleries.selectionValidatedAt} > ${new Date(now.getTime() - 30 * DAY_MS)}`,
      ),
    )
    .orderBy(desc(galleries.selectionValidatedAt))
    .limit(DASHBOARD_SELECTIONS);
}

/** One gallery (even while being deleted: the admin still names it), with its studio's name; null when unknown. */
export async function findGallery(id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db()
    .select({ gallery: galleries, studioName })
    .from(galleries)
    .where(eq(galleries.id, id));
  return row ?? null;
}

/** The photo counts of one gallery. */
export async function galleryCounts(id: string) {
  const [row] = await db()
    .select({
      total: sql<number>`count(*)::int`,
      ready: sql<number>`(count(*) filter (where ${galleryPhotos.status} = 'ready'))::int`,
      favourites: sql<number>`(count(*) filter (where ${galleryPhotos.favourite}))::int`,
    })
    .from(galleryPhotos)
    .where(eq(galleryPhotos.galleryId, id));
  return row ?? { total: 0, ready: 0, favourites: 0 };
}

/** The studios a gallery may name: those on the site (id and name, in menu order). */
export async function currentStudios(): Promise<{ id: string; name: string }[]> {
  return db()
    .select({ id: studios.id, name: sql<string>`${studios.data}->>'name'` })
    .from(studios)
    .where(isNull(studios.retiredAt))
    .orderBy(asc(studios.position), asc(studios.createdAt));
}

/** A new gallery with a new access code; returns its id. */
export async function createGallery(form: GalleryForm, createdBy: string | null): Promise<string> {
  const [row] = await db()
    .insert(galleries)
    .values({
      title: form.title,
      clientName: form.clientName,
      clientEmail: form.clientEmail,
      studioId: form.studioId,
      sessionDate: form.sessionDate,
      ...datesOf(form),
      accessCode: generateAccessCode(),
      downloadsAllowed: form.downloadsAllowed,
      watermark: form.watermark,
      ...coverFocalOf(form),
      createdBy,
    })
    .returning({ id: galleries.id });
  if (!row) throw new Error("createGallery: no row");
  log.info("gallery_created", { id: row.id });
  return row.id;
}

/**
 * Saves the form's fields; false when the gallery is unknown or being deleted. Turning the watermark on
 * or off makes new web sizes: the revision grows and every processed photo goes back to the queue
 * (its file names carry the revision, so the client never sees a stale one as the new one). New terms of
 * sale call off an order awaiting payment that no longer pays what is due (decision 0184); a new expiry
 * moves the deadline of an order awaiting a transfer with it (decision 0196).
 */
export async function updateGallery(id: string, form: GalleryForm): Promise<boolean> {
  const saved = await db().transaction(async (tx) => {
    const [current] = await tx
      .select({ watermark: galleries.watermark, expiresAt: galleries.expiresAt })
      .from(galleries)
      .where(and(eq(galleries.id, id), isNull(galleries.deletingAt)))
      .for("update");
    if (!current) return false;
    const watermarkChanged = current.watermark !== form.watermark;
    const dates = datesOf(form);
    await tx
      .update(galleries)
      .set({
        title: form.title,
        clientName: form.clientName,
        clientEmail: form.clientEmail,
        studioId: form.studioId,
        sessionDate: form.sessionDate,
        ...dates,
        downloadsAllowed: form.downloadsAllowed,
        watermark: form.watermark,
        ...coverFocalOf(form),
        // Decision 0184: an empty number of included photos keeps every photo included.
        includedPhotos: form.includedPhotos === null ? null : Number(form.includedPhotos),
        extraPhotoPriceCents: eurosToCents(form.extraPhotoPrice),
        allPhotosPriceCents: eurosToCents(form.allPhotosPrice),
        updatedAt: new Date(),
      })
      .where(eq(galleries.id, id));
    if (watermarkChanged) await reprocessGalleryVariants(id, { tx });
    await transferDeadlinesFollowExpiry(tx, id, { from: current.expiresAt, to: dates.expiresAt });
    return true;
  });
  if (saved) await callOffStalePhotoOrders(id);
  return saved;
}

/** A new access code: every client's cookie stops working (access_version + 1). Null when unknown. */
export async function changeAccessCode(id: string): Promise<string | null> {
  const code = generateAccessCode();
  const [row] = await db()
    .update(galleries)
    .set({
      accessCode: code,
      accessVersion: sql`${galleries.accessVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(and(eq(galleries.id, id), isNull(galleries.deletingAt)))
    .returning({ id: galleries.id });
  if (!row) return null;
  log.info("gallery_code_changed", { id });
  return code;
}

/**
 * Lets the client change the selection again; false when there was none validated. The photos its
 * package included stay hers while it is open (decision 0184: what she paid for beyond them is not billed
 * again for them), kept until she validates again; an order awaiting payment for its extras is called off
 * (nothing is due until she validates again).
 */
export async function reopenSelection(id: string): Promise<boolean> {
  const reopened = await db().transaction(async (tx) => {
    // The gallery's row lock: the package is read as it stands when the selection opens.
    const [gallery] = await tx
      .select()
      .from(galleries)
      .where(
        and(
          eq(galleries.id, id),
          isNull(galleries.deletingAt),
          isNotNull(galleries.selectionValidatedAt),
        ),
      )
      .for("update");
    if (!gallery) return false;
    const { rights } = await photoRightsIn(tx, gallery);
    const included = [...rights]
      .filter(([, right]) => right === "included")
      .map(([photoId]) => photoId);
    await tx
      .update(galleries)
      .set({
        selectionValidatedAt: null,
        packagePhotoIds: gallery.includedPhotos === null ? null : included,
        updatedAt: new Date(),
      })
      .where(eq(galleries.id, id));
    return true;
  });
  if (reopened) await callOffStalePhotoOrders(id);
  return reopened;
}

/** The favourites of a gallery in the photos' order, with their comments. */
export async function gallerySelection(id: string) {
  return db()
    .select({
      id: galleryPhotos.id,
      originalName: galleryPhotos.originalName,
      comment: galleryPhotos.favouriteComment,
      favouritedAt: galleryPhotos.favouritedAt,
    })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.galleryId, id), eq(galleryPhotos.favourite, true)))
    .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.createdAt));
}

/** Notes that the mail server accepted the invitation for `to`. */
export async function markInvitationSent(id: string, to: string, at = new Date()): Promise<void> {
  await db()
    .update(galleries)
    .set({ invitationSentAt: at, invitationSentTo: to })
    .where(eq(galleries.id, id));
}

/** Forgets an unfinished upload's parts; a store that cannot (or already forgot them) is only logged. */
export async function abortQuietly(key: string, uploadId: string): Promise<void> {
  try {
    await storage().abortMultipart(key, uploadId);
  } catch (error) {
    log.warn("gallery_upload_abort_failed", { key, error });
  }
}

/**
 * Deletes a gallery, its files and its rows (photos and uploads by cascade): first marked `deleting_at`
 * (the client's pages answer 404 from then on), its orders of photos awaiting payment called off (a paid
 * one stays, with its invoice: accounting records), then its storage prefix emptied, then the row
 * deleted. Run again after a crash at any step, it finishes the work. Returns false when there was no such
 * gallery.
 */
export async function deleteGallery(id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [marked] = await db()
    .update(galleries)
    .set({ deletingAt: sql`coalesce(${galleries.deletingAt}, now())` })
    .where(eq(galleries.id, id))
    .returning({ id: galleries.id });
  if (!marked) return false;
  // Before its row goes (and the link of its orders to it): nothing left to pay for a gallery gone.
  await callOffStalePhotoOrders(id);
  // Unfinished uploads hold parts outside the prefix's objects (S3 keeps them until aborted).
  const pending = await db()
    .select({ key: resumableUploads.storageKey, uploadId: resumableUploads.storageUploadId })
    .from(resumableUploads)
    .where(and(eq(resumableUploads.galleryId, id), isNull(resumableUploads.completedAt)));
  for (const upload of pending) await abortQuietly(upload.key, upload.uploadId);
  const files = await storage().deletePrefix(galleryPrefix(id));
  await db().delete(galleries).where(eq(galleries.id, id));
  log.info("gallery_deleted", { id, files });
  return true;
}

/**
 * Moves the expiry `days` later (from today when it has passed), at most 18 months ahead, and the deletion
 * with it (same delay after the expiry); the deadline of an order of photos awaiting a transfer follows
 * (decision 0196). Null when unknown; else the new expiry.
 */
export async function extendExpiry(
  id: string,
  days: number,
  now = new Date(),
): Promise<Date | null> {
  if (!isUuid(id)) return null;
  return db().transaction(async (tx) => {
    // The gallery's row lock: an order of photos made meanwhile is seen with its deadline, or waits.
    const [gallery] = await tx
      .select()
      .from(galleries)
      .where(and(eq(galleries.id, id), isNull(galleries.deletingAt)))
      .for("update");
    if (!gallery) return null;
    const today = isoDayInParis(now);
    const current = expiryDay(gallery.expiresAt);
    const from = current < today ? today : current;
    const latest = addToIsoDay(today, { months: MAX_EXPIRY_MONTHS });
    const wanted = addToIsoDay(from, { days });
    const expiresOn = wanted > latest ? latest : wanted;
    const expiresAt = endOfParisDay(expiresOn);
    const purgeAt = new Date(expiresAt.getTime() + purgeAfterDaysOf(gallery) * DAY_MS);
    await tx
      .update(galleries)
      .set({ expiresAt, purgeAt, updatedAt: new Date() })
      .where(eq(galleries.id, id));
    await transferDeadlinesFollowExpiry(tx, id, { from: gallery.expiresAt, to: expiresAt });
    return expiresAt;
  });
}
