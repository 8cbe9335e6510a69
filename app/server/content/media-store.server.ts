import { randomBytes } from "node:crypto";
import path from "node:path";
import { desc, eq, inArray } from "drizzle-orm";
import type { Picture } from "imagetools-core";
import { documentSchemas, studioDataSchema, type Documents } from "~/content/schemas";
import { MEDIA_FORMATS, MEDIA_MAX_WIDTH, mediaWidthsFor, uploadedPicture } from "~/lib/media";
import { decodeUpload, loadSharp } from "../images/uploads.server";
import { db } from "../db/client.server";
import { media, siteDocuments, studios } from "../db/schema";
import { env } from "../env.server";
import { contentTypeOf } from "../storage/keys";
import { storage } from "../storage/storage.server";
import {
  ContentError,
  listStudios,
  loadDocument,
  saveDocument,
  saveStudio,
  type Author,
} from "./content-store.server";
import { demoPicture } from "./demo-photo-pictures.server";
import {
  parseSlotKey,
  photoSlots,
  usageBySlot,
  type SlotRef,
  type StudioPhotoSource,
} from "./media-slots.server";

/**
 * The media library (decision 0070): the owner's photos, uploaded once and shown by any slot of the site.
 * An upload goes through the blog's checks and decoding (images.server: not an image, HEIC, too large…),
 * then is stored as `media/{file}-{width}.{avif,webp,jpg}` in the site's storage (local disk: DATA_DIR/uploads/media; or S3) at the widths of
 * `mediaWidthsFor` (never enlarged), with its intrinsic size, dominant colour, alternative text and focal
 * point. A photo still used by a document or a studio cannot be deleted.
 */

/** The storage prefix of the library's files (served under /uploads/media/). */
const MEDIA_PREFIX = "media/";

/** Where the library's files are when the store is the local disk (DATA_DIR/uploads/media). */
export function mediaDirectory(): string {
  return path.join(env().dataDir, "uploads", "media");
}

export type FocalPoint = { x: number; y: number };
export type MediaDetails = { alt: string; focal: FocalPoint };

/** Every file of an uploaded photo, as names in mediaDirectory(). */
export function mediaFileNames(file: string, widths: number[]): string[] {
  return widths.flatMap((width) => MEDIA_FORMATS.map((format) => `${file}-${width}.${format}`));
}

const hex = (value: number) => Math.round(value).toString(16).padStart(2, "0");

/**
 * Stores an upload (a file on disk, e.g. streamed there by multipart.server) as a new photo of the library.
 * Throws `ImageRejectedError` (French message) for a file that is not a usable image. Returns its id.
 */
export async function storeMedia(
  upload: { name: string; path: string },
  details: MediaDetails,
): Promise<string> {
  const fit = { width: MEDIA_MAX_WIDTH, height: MEDIA_MAX_WIDTH, fit: "inside" as const };
  const { master } = await decodeUpload(upload.path, fit);
  const { width, height, channels } = master.info;
  const sharp = await loadSharp();
  const pixels = () => sharp(master.data, { raw: { width, height, channels } });
  const { dominant } = await pixels().stats();
  const colour = `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`;
  const widths = mediaWidthsFor(width);
  const file = `${randomBytes(8).toString("hex")}-${Date.now()}`;

  const store = storage();
  const written: string[] = [];
  let bytes = 0;
  try {
    const write = async (name: string, encoded: Buffer) => {
      const key = `${MEDIA_PREFIX}${name}`;
      await store.put(key, encoded, { contentType: contentTypeOf(key) });
      written.push(key);
      bytes += encoded.length;
    };
    // One width at a time (the server has few cores); its three formats together.
    for (const variantWidth of widths) {
      const resized = () => pixels().resize({ width: variantWidth });
      const [avif, webp, jpg] = await Promise.all([
        // Effort 2: a camera photo is ready in seconds rather than a minute; files grow only a little.
        resized().avif({ quality: 52, effort: 2 }).toBuffer(),
        resized().webp({ quality: 76 }).toBuffer(),
        resized().jpeg({ quality: 80, mozjpeg: true }).toBuffer(),
      ]);
      await write(`${file}-${variantWidth}.avif`, avif);
      await write(`${file}-${variantWidth}.webp`, webp);
      await write(`${file}-${variantWidth}.jpg`, jpg);
    }
    const [row] = await db()
      .insert(media)
      .values({
        file,
        widths,
        width,
        height,
        alt: details.alt,
        focalX: details.focal.x,
        focalY: details.focal.y,
        colour,
        originalName: path.basename(upload.name).slice(0, 255) || null,
        bytes,
      })
      .returning({ id: media.id });
    if (!row) throw new Error("media not created");
    return row.id;
  } catch (error) {
    await store.delete(written).catch(() => undefined);
    throw error;
  }
}

/** Changes a photo's alternative text and focal point. False when it does not exist. */
export async function updateMedia(id: string, details: MediaDetails): Promise<boolean> {
  const rows = await db()
    .update(media)
    .set({ alt: details.alt, focalX: details.focal.x, focalY: details.focal.y })
    .where(eq(media.id, id))
    .returning({ id: media.id });
  return rows.length > 0;
}

type Executor = Pick<ReturnType<typeof db>, "select">;

/** The documents that hold photos and every studio (retired ones too), read through `executor`. */
async function slotsOf(executor: Executor): Promise<SlotRef[]> {
  const keys = ["pagePhotos", "gallery", "giftSessions", "gendarmerie", "identity"] as const;
  const rows = await executor
    .select({ key: siteDocuments.key, data: siteDocuments.data })
    .from(siteDocuments)
    .where(inArray(siteDocuments.key, [...keys]));
  const stored = new Map(rows.map((row) => [row.key, row.data]));
  const documents = Object.fromEntries(
    keys.map((key) => {
      const value = documentSchemas[key].safeParse(stored.get(key));
      if (!value.success) throw new Error(`Document ${key} illisible`);
      return [key, value.data];
    }),
  ) as Pick<Documents, (typeof keys)[number]>;
  const studioRows = await executor
    .select({
      id: studios.id,
      slug: studios.slug,
      retiredAt: studios.retiredAt,
      data: studios.data,
    })
    .from(studios)
    .orderBy(studios.position, studios.createdAt);
  const studioSources: StudioPhotoSource[] = studioRows.map((row) => ({
    ...row,
    data: studioDataSchema.parse(row.data),
  }));
  return photoSlots(documents, studioSources);
}

/** Every slot of the site with the photo in it. */
export function listSlots(): Promise<SlotRef[]> {
  return slotsOf(db());
}

/** For each media id, where it is used, in the owner's words (« Accueil : grande photo », « Studio de Brive »). */
export async function mediaUsage(): Promise<Map<string, string[]>> {
  return usageBySlot(await listSlots());
}

export type MediaDeletion =
  { status: "deleted" } | { status: "missing" } | { status: "used"; usage: string[] };

/**
 * Deletes a photo of the library that nothing uses, then its files. The row is locked first (`for update`):
 * a content write that names it holds a `key share` lock on it (content-store's assertPhotosExist), so
 * either that write ends first and the usage read here sees it, or it waits and then finds the photo gone.
 */
export async function deleteMedia(id: string): Promise<MediaDeletion> {
  const outcome = await db().transaction(async (tx) => {
    const [row] = await tx
      .select({ file: media.file, widths: media.widths })
      .from(media)
      .where(eq(media.id, id))
      .for("update");
    if (!row) return { status: "missing" } as const;
    const usage = usageBySlot(await slotsOf(tx)).get(id);
    if (usage && usage.length > 0) return { status: "used", usage } as const;
    await tx.delete(media).where(eq(media.id, id));
    return { status: "deleted", file: row.file, widths: row.widths } as const;
  });
  if (outcome.status !== "deleted") return outcome;
  if (outcome.file) {
    await storage().delete(
      mediaFileNames(outcome.file, outcome.widths).map((name) => `${MEDIA_PREFIX}${name}`),
    );
  }
  return { status: "deleted" };
}

export type LibraryPhoto = {
  id: string;
  alt: string;
  focal: FocalPoint;
  colour: string;
  width: number;
  height: number;
  /** A demo photo of the build (not uploaded). */
  demo: boolean;
  originalName: string | null;
  bytes: number;
  createdAt: Date;
  picture: Picture | null;
};

type MediaRow = typeof media.$inferSelect;

function libraryPhoto(row: MediaRow): LibraryPhoto {
  const picture = row.builtin
    ? (demoPicture(row.builtin) ?? null)
    : row.file
      ? uploadedPicture(row.file, row.widths, row)
      : null;
  return {
    id: row.id,
    alt: row.alt,
    focal: { x: row.focalX, y: row.focalY },
    colour: row.colour,
    width: row.width,
    height: row.height,
    demo: row.builtin !== null,
    originalName: row.originalName,
    bytes: row.bytes,
    createdAt: row.createdAt,
    picture,
  };
}

/** Every photo of the library, the newest upload first. */
export async function listLibrary(): Promise<LibraryPhoto[]> {
  const rows = await db()
    .select()
    .from(media)
    .orderBy(desc(media.createdAt), media.builtin, media.id);
  return rows.map(libraryPhoto);
}

export async function loadLibraryPhoto(id: string): Promise<LibraryPhoto | undefined> {
  const [row] = await db().select().from(media).where(eq(media.id, id));
  return row ? libraryPhoto(row) : undefined;
}

/**
 * Puts photo `mediaId` in the slot `key`, through saveDocument / saveStudio (so a revision keeps it).
 * Throws ContentError for a slot that no longer exists or a photo that is gone. Returns the slot's label.
 */
export async function assignSlot(key: string, mediaId: string, author: Author): Promise<string> {
  const target = parseSlotKey(key);
  const slot = target ? (await listSlots()).find((candidate) => candidate.key === key) : undefined;
  if (!target || !slot) throw new ContentError("Cet emplacement n'existe plus.");
  const summary = `${slot.label} : photo remplacée`;
  const missing = () => new ContentError("Cet emplacement n'existe plus.");
  switch (target.kind) {
    case "page":
    case "style": {
      const value = await loadDocument("pagePhotos");
      if (target.kind === "page") value.slots[target.slot] = mediaId;
      else {
        const item = value.galleries[target.gallery][target.index];
        if (!item) throw missing();
        item.photo = mediaId;
      }
      await saveDocument("pagePhotos", value, author, summary);
      break;
    }
    case "galerie": {
      const value = await loadDocument("gallery");
      const item = value.items[target.index];
      if (!item) throw missing();
      item.photo = mediaId;
      await saveDocument("gallery", value, author, summary);
      break;
    }
    case "cadeau": {
      const value = await loadDocument("giftSessions");
      const item = value.sessions[target.index];
      if (!item) throw missing();
      item.photo = mediaId;
      await saveDocument("giftSessions", value, author, summary);
      break;
    }
    case "gendarmerie": {
      const value = await loadDocument("gendarmerie");
      const item = value.services[target.index];
      if (!item) throw missing();
      item.photo = mediaId;
      await saveDocument("gendarmerie", value, author, summary);
      break;
    }
    case "borne": {
      const value = await loadDocument("gendarmerie");
      value.selfieBooth.photo = mediaId;
      await saveDocument("gendarmerie", value, author, summary);
      break;
    }
    case "partage": {
      const value = await loadDocument("identity");
      value.shareImage = mediaId;
      await saveDocument("identity", value, author, summary);
      break;
    }
    case "studio": {
      const studio = (await listStudios()).find((candidate) => candidate.id === target.id);
      if (!studio) throw missing();
      await saveStudio(studio.id, studio.slug, { ...studio.data, photo: mediaId }, author, summary);
      break;
    }
  }
  return slot.label;
}
