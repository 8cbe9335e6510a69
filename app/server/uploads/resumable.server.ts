import { createReadStream } from "node:fs";
import { randomUUID } from "node:crypto";
import { pipeline, Readable, Transform } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { and, eq, isNull, sql } from "drizzle-orm";
import { MAX_GALLERY_PHOTO_BYTES, UPLOAD_CHUNK_BYTES } from "~/lib/gallery-urls";
import { isUuid } from "~/lib/forms";
import { db } from "../db/client.server";
import { galleries, galleryPhotos, resumableUploads } from "../db/schema";
import { photoJob } from "../galleries/processing.server";
import type { Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { galleryUploadKey } from "../storage/keys";
import { storage } from "../storage/storage.server";
import { DUPLICATE, TOO_LARGE, UNSUPPORTED } from "./messages";

/*
 * The resumable upload of a client gallery's photos (decision 0101): the browser starts an upload (name,
 * size, type, date), then sends it in pieces of UPLOAD_CHUNK_BYTES, each at the offset the server says it
 * has received. The pieces go straight into the storage module's multipart upload (S3 parts, or files on
 * the disk); the state lives in `resumable_uploads`, so any app process takes the next piece, a dropped
 * connection loses one piece at most, and the same file dropped again after a reload goes on where it was.
 * The last piece completes the object and, in one transaction, makes the photo row and its processing job.
 */

export { DUPLICATE, TOO_LARGE, UNSUPPORTED };
export const UNKNOWN_GALLERY = "Galerie introuvable";
export const UNKNOWN_UPLOAD = "Envoi introuvable : recommencez l'envoi de cette photo.";
export const EMPTY = "Le fichier est vide.";
export const BAD_CHUNK = "Morceau de photo de taille inattendue : l'envoi reprend au bon endroit.";
export const INTERRUPTED = "L'envoi du morceau a été interrompu : il sera renvoyé.";

export type SourceFormat = "jpg" | "png" | "heic";

/** What the browser is told about an upload: enough to send the next piece. */
export type UploadState = { uploadId: string; chunkSize: number; received: number; size: number };

/** A refusal with its HTTP status and the JSON the browser reads (`error`, plus `received` on a 409). */
export class UploadRefusal extends Error {
  override name = "UploadRefusal";
  readonly status: number;
  readonly body: { error: string; received?: number; duplicate?: true };
  constructor(status: number, body: UploadRefusal["body"]) {
    super(body.error);
    this.status = status;
    this.body = body;
  }
}

const EXTENSIONS: Record<string, SourceFormat> = {
  jpg: "jpg",
  jpeg: "jpg",
  jpe: "jpg",
  png: "png",
  heic: "heic",
  heif: "heic",
};

const TYPES: Record<string, SourceFormat> = {
  "image/jpeg": "jpg",
  "image/pjpeg": "jpg",
  "image/png": "png",
  "image/heic": "heic",
  "image/heif": "heic",
  "image/heic-sequence": "heic",
  "image/heif-sequence": "heic",
};

/**
 * The format a file claims by its name (and its type when the browser gives one): null when it is not
 * one of ours. Browsers give HEIC files no type on most systems, so an empty type is fine.
 */
export function claimedFormat(name: string, type: string): SourceFormat | null {
  const dot = name.lastIndexOf(".");
  const byName = dot === -1 ? undefined : EXTENSIONS[name.slice(dot + 1).toLowerCase()];
  const byType = type ? TYPES[type.toLowerCase()] : undefined;
  if (byName) return !type || byType === byName ? byName : null;
  return byType ?? null;
}

/** The format the first bytes prove: JPEG `FF D8 FF`, the PNG signature, or an ISO-BMFF HEIF brand. */
export function sniffFormat(head: Buffer): SourceFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpg";
  if (head.length >= 8 && head.subarray(0, 8).equals(PNG_SIGNATURE)) return "png";
  if (head.length >= 12 && head.toString("latin1", 4, 8) === "ftyp") {
    const brand = head.toString("latin1", 8, 12);
    if (HEIF_BRANDS.has(brand)) return "heic";
  }
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** HEIC/HEIF brands of cameras and phones (AVIF's `avif` is not one: its own format, not ours). */
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);
/** How many first bytes the sniffing needs. */
const SNIFF_BYTES = 16;

type Upload = typeof resumableUploads.$inferSelect;

/** The gallery an upload may go into: it exists and is not being deleted (row locked when `tx` asks). */
async function openGallery(executor: Executor, galleryId: string, lock = false) {
  if (!isUuid(galleryId)) return null;
  const query = executor
    .select({ id: galleries.id })
    .from(galleries)
    .where(and(eq(galleries.id, galleryId), isNull(galleries.deletingAt)));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/** A photo of this name and size is already in the gallery (uploaded before, by pieces or the form). */
async function alreadyInGallery(galleryId: string, name: string, size: number): Promise<boolean> {
  const [row] = await db()
    .select({ id: galleryPhotos.id })
    .from(resumableUploads)
    .innerJoin(galleryPhotos, eq(galleryPhotos.id, resumableUploads.photoId))
    .where(
      and(
        eq(resumableUploads.galleryId, galleryId),
        eq(galleryPhotos.galleryId, galleryId),
        eq(resumableUploads.fileName, name),
        eq(resumableUploads.size, size),
        sql`${resumableUploads.completedAt} is not null`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

function checkFile(name: string, size: number, type: string): SourceFormat {
  if (size > MAX_GALLERY_PHOTO_BYTES) throw new UploadRefusal(413, { error: TOO_LARGE });
  const format = claimedFormat(name, type);
  if (!format) throw new UploadRefusal(415, { error: UNSUPPORTED });
  if (size < 1) throw new UploadRefusal(400, { error: EMPTY });
  return format;
}

const stateOf = (upload: Upload): UploadState => ({
  uploadId: upload.id,
  chunkSize: upload.chunkSize,
  received: upload.received,
  size: upload.size,
});

/** What the browser posts to start (or find again) an upload. */
export type StartRequest = {
  galleryId: string;
  name: string;
  size: number;
  type: string;
  lastModified: number | null;
};

/** Reads the start request's JSON; throws a 400 refusal when it is not one. */
export function parseStartRequest(body: unknown): StartRequest {
  const value = (body ?? {}) as Record<string, unknown>;
  const name = typeof value.name === "string" ? value.name.normalize("NFC").trim() : "";
  const size = value.size;
  const lastModified = value.lastModified;
  if (
    typeof value.galleryId !== "string" ||
    !name ||
    name.length > 255 ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f/\\]/.test(name) ||
    typeof size !== "number" ||
    !Number.isSafeInteger(size) ||
    size < 0 ||
    (value.type !== undefined && typeof value.type !== "string") ||
    (lastModified !== undefined &&
      lastModified !== null &&
      (typeof lastModified !== "number" || !Number.isSafeInteger(lastModified)))
  ) {
    throw new UploadRefusal(400, { error: "Demande d'envoi illisible. Rechargez la page." });
  }
  return {
    galleryId: value.galleryId,
    name,
    size,
    type: typeof value.type === "string" ? value.type.slice(0, 100) : "",
    lastModified: typeof lastModified === "number" ? lastModified : null,
  };
}

/**
 * Starts an upload, or finds the unfinished one of the same file (same gallery, name, size and date: the
 * owner dropped the same files again after a reload or a crash). 201 for a new one, 200 for a found one.
 */
export async function startUpload(
  request: StartRequest,
  adminId: string | null,
): Promise<{ status: 200 | 201; state: UploadState }> {
  const { galleryId, name, size, type, lastModified } = request;
  if (!(await openGallery(db(), galleryId)))
    throw new UploadRefusal(404, { error: UNKNOWN_GALLERY });
  const format = checkFile(name, size, type);

  const [unfinished] = await db()
    .select()
    .from(resumableUploads)
    .where(
      and(
        eq(resumableUploads.galleryId, galleryId),
        eq(resumableUploads.fileName, name),
        eq(resumableUploads.size, size),
        lastModified === null
          ? isNull(resumableUploads.lastModified)
          : eq(resumableUploads.lastModified, lastModified),
        isNull(resumableUploads.completedAt),
      ),
    )
    .orderBy(sql`${resumableUploads.received} desc`)
    .limit(1);
  if (unfinished) return { status: 200, state: stateOf(unfinished) };

  if (await alreadyInGallery(galleryId, name, size))
    throw new UploadRefusal(409, { error: DUPLICATE, duplicate: true });

  // The photo's id is chosen now: it names the folder its files go to. Its row is made at completion.
  const photoId = randomUUID();
  const key = galleryUploadKey(galleryId, photoId, format);
  const storageUploadId = await storage().startMultipart(key, contentTypeFor(format));
  const [created] = await db()
    .insert(resumableUploads)
    .values({
      galleryId,
      photoId,
      fileName: name,
      size,
      contentType: type || contentTypeFor(format),
      lastModified,
      chunkSize: UPLOAD_CHUNK_BYTES,
      storageKey: key,
      storageUploadId,
      createdBy: adminId,
    })
    .returning();
  if (!created) throw new Error("resumable upload: no row");
  return { status: 201, state: stateOf(created) };
}

function contentTypeFor(format: SourceFormat): string {
  return format === "jpg" ? "image/jpeg" : format === "png" ? "image/png" : "image/heic";
}

/** The unfinished upload `uploadId` of gallery `galleryId`; another gallery's id is refused as unknown. */
async function findUpload(uploadId: string, galleryId: string): Promise<Upload> {
  if (!isUuid(uploadId) || !isUuid(galleryId))
    throw new UploadRefusal(404, { error: UNKNOWN_UPLOAD });
  const [upload] = await db()
    .select()
    .from(resumableUploads)
    .where(and(eq(resumableUploads.id, uploadId), eq(resumableUploads.galleryId, galleryId)));
  if (!upload) throw new UploadRefusal(404, { error: UNKNOWN_UPLOAD });
  return upload;
}

/** A photo whose upload stopped before its last byte (a reload, a closed laptop, another day). */
export type InterruptedUpload = {
  name: string;
  size: number;
  lastModified: number | null;
  /** Bytes the store holds. */
  received: number;
};

/**
 * The gallery's unfinished uploads, by file name: the page names them, and the same files chosen again go
 * on from `received` (startUpload matches them by name, size and date). Uploads the retention aborted are
 * gone from the table (decision 0105).
 */
export async function interruptedUploads(galleryId: string): Promise<InterruptedUpload[]> {
  const rows = await db()
    .select({
      name: resumableUploads.fileName,
      size: resumableUploads.size,
      lastModified: resumableUploads.lastModified,
      received: resumableUploads.received,
    })
    .from(resumableUploads)
    .where(and(eq(resumableUploads.galleryId, galleryId), isNull(resumableUploads.completedAt)))
    .orderBy(resumableUploads.fileName, resumableUploads.createdAt);
  return rows;
}

/** Where an upload stands: asked before every retry (the last piece may have arrived, its answer lost). */
export async function uploadProgress(
  uploadId: string,
  galleryId: string,
): Promise<{ received: number; size: number; photoId: string | null }> {
  const upload = await findUpload(uploadId, galleryId);
  return {
    received: upload.received,
    size: upload.size,
    photoId: upload.completedAt ? upload.photoId : null,
  };
}

export type ChunkAnswer =
  { status: 200; received: number } | { status: 201; photoId: string; received: number };

/**
 * One piece at `offset`, `length` bytes long (all pieces are `chunkSize` but the last). A wrong offset is
 * answered 409 with what the server has; two racing retries of one piece: one wins, the other gets the 409.
 * The last piece completes the upload (see `complete`).
 */
export async function receiveChunk(input: {
  uploadId: string;
  galleryId: string;
  offset: number;
  length: number;
  body: Readable;
}): Promise<ChunkAnswer> {
  const { offset, length, body } = input;
  const upload = await findUpload(input.uploadId, input.galleryId);
  if (upload.completedAt)
    throw new UploadRefusal(409, { error: "Envoi déjà terminé.", received: upload.received });
  if (!Number.isSafeInteger(offset) || offset !== upload.received)
    throw new UploadRefusal(409, {
      error: "Reprise de l'envoi au bon endroit.",
      received: upload.received,
    });
  const expected = Math.min(upload.chunkSize, upload.size - offset);
  if (length !== expected) throw new UploadRefusal(400, { error: BAD_CHUNK });

  // Every byte arrived but the completion did not finish (a crash): an empty last call completes it.
  if (offset === upload.size) {
    return { status: 201, photoId: await complete(upload), received: upload.received };
  }
  const part = offset / upload.chunkSize + 1;
  let head = Buffer.alloc(0);
  const sniffing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      callback(null, chunk);
    },
  });
  let etag: string;
  try {
    etag = await storage().putPart(
      upload.storageKey,
      upload.storageUploadId,
      part,
      // pipeline: a body cut short (the connection dropped) fails the part instead of leaving it waiting.
      pipeline(body, sniffing, () => {}),
      length,
    );
  } catch (error) {
    log.warn("gallery_upload_chunk_failed", { uploadId: upload.id, part, error });
    throw new UploadRefusal(400, { error: INTERRUPTED });
  }
  // The first piece already tells the format: no need to receive 50 MB of something else.
  if (offset === 0) await refuseUnlessFormat(upload, head);

  const [advanced] = await db()
    .update(resumableUploads)
    .set({
      received: sql`${resumableUploads.received} + ${length}`,
      parts: sql`${resumableUploads.parts} || ${JSON.stringify([{ part, etag }])}::jsonb`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(resumableUploads.id, upload.id),
        eq(resumableUploads.received, offset),
        isNull(resumableUploads.completedAt),
      ),
    )
    .returning();
  if (!advanced) {
    const now = await uploadProgress(upload.id, input.galleryId);
    throw new UploadRefusal(409, {
      error: "Reprise de l'envoi au bon endroit.",
      received: now.received,
    });
  }
  if (advanced.received < advanced.size) return { status: 200, received: advanced.received };
  const photoId = await complete(advanced);
  return { status: 201, photoId, received: advanced.received };
}

/** Forgets an upload whose bytes are not a photo: its parts, its object, its row. */
async function discard(upload: Upload): Promise<void> {
  await storage()
    .abortMultipart(upload.storageKey, upload.storageUploadId)
    .catch((error: unknown) => log.warn("gallery_upload_abort_failed", { error }));
  await storage().delete([upload.storageKey]);
  await db().delete(resumableUploads).where(eq(resumableUploads.id, upload.id));
}

async function refuseUnlessFormat(upload: Upload, head: Buffer): Promise<void> {
  const sniffed = sniffFormat(head);
  if (sniffed && upload.storageKey.endsWith(`.${sniffed}`)) return;
  await discard(upload);
  throw new UploadRefusal(415, { error: UNSUPPORTED });
}

/**
 * The last piece arrived: the object is assembled, its first bytes checked (a file that is not a JPEG, PNG
 * or HEIC is deleted and refused), then one transaction makes the photo row (`uploaded`, last position),
 * marks the upload completed and creates the processing job: the three exist together or not at all.
 */
async function complete(upload: Upload): Promise<string> {
  const photoId = upload.photoId;
  const galleryId = upload.galleryId;
  if (!photoId || !galleryId) throw new Error(`resumable upload ${upload.id} without photo`);
  // Already assembled when an earlier completion stopped before its transaction (then tried again).
  const assembled = await storage().head(upload.storageKey);
  if (assembled?.size !== upload.size) {
    const parts = [...upload.parts].sort((a, b) => a.part - b.part);
    await storage().completeMultipart(upload.storageKey, upload.storageUploadId, parts);
  }
  const stored = await storage().get(upload.storageKey, {
    range: { start: 0, end: SNIFF_BYTES - 1 },
  });
  const head = stored ? await readAll(stored.body) : Buffer.alloc(0);
  if (!stored || stored.size !== upload.size) {
    await discard(upload);
    throw new UploadRefusal(400, { error: UNKNOWN_UPLOAD });
  }
  await refuseUnlessFormat(upload, head);
  return recordPhoto(upload, photoId, galleryId);
}

/**
 * Where a completed photo goes: after every photo, unless photos whose uploads started after its own
 * completed first (3 files go at a time, and a small one overtakes a large one): it then takes the place of
 * the first of them, which move one place down. The browser starts uploads in name order, one after the
 * other, so a batch ends up in name order whatever the order its files finish in.
 */
async function nextPosition(tx: Executor, galleryId: string, uploadId: string): Promise<number> {
  const startedAt = sql`(select ${resumableUploads.createdAt} from ${resumableUploads} where ${resumableUploads.id} = ${uploadId})`;
  const [overtaken] = await tx
    .select({ position: sql<number | null>`min(${galleryPhotos.position})` })
    .from(galleryPhotos)
    .innerJoin(resumableUploads, eq(resumableUploads.photoId, galleryPhotos.id))
    .where(
      and(
        eq(galleryPhotos.galleryId, galleryId),
        // Both sides by gallery: the uploads' index (gallery, name, size, date) serves the join.
        eq(resumableUploads.galleryId, galleryId),
        sql`${resumableUploads.createdAt} > ${startedAt}`,
      ),
    );
  const first = overtaken?.position ?? null;
  if (first === null) {
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${galleryPhotos.position}), 0)` })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, galleryId));
    return (last?.position ?? 0) + 1;
  }
  await tx
    .update(galleryPhotos)
    .set({ position: sql`${galleryPhotos.position} + 1` })
    .where(and(eq(galleryPhotos.galleryId, galleryId), sql`${galleryPhotos.position} >= ${first}`));
  return first;
}

async function recordPhoto(
  upload: Pick<Upload, "id" | "fileName" | "storageKey">,
  photoId: string,
  galleryId: string,
): Promise<string> {
  const sourceExtension = upload.storageKey.slice(upload.storageKey.lastIndexOf(".") + 1);
  const recorded = await db().transaction(async (tx) => {
    // The gallery's row is locked: two photos completing at once take two different positions, and a
    // gallery being deleted meanwhile gets no new photo.
    if (!(await openGallery(tx, galleryId, true))) return false;
    const position = await nextPosition(tx, galleryId, upload.id);
    await tx.insert(galleryPhotos).values({
      id: photoId,
      galleryId,
      position,
      originalName: upload.fileName,
      sourceExtension,
      status: "uploaded",
    });
    await tx
      .update(resumableUploads)
      .set({ completedAt: new Date(), updatedAt: new Date() })
      .where(eq(resumableUploads.id, upload.id));
    await photoJob.send({ photoId }, { tx });
    return true;
  });
  if (!recorded) {
    await storage().delete([upload.storageKey]);
    throw new UploadRefusal(404, { error: UNKNOWN_GALLERY });
  }
  return photoId;
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * One photo received whole by the page's form without JavaScript (already on the disk at `path`): the same
 * checks, stored in one piece, recorded like the last piece of an upload (so the same file sent again is
 * recognised as « Déjà dans la galerie »).
 */
/**
 * A photo's name as kept and shown, from a plain form's file part (whose name a browser or a script may write
 * as a path, or with control characters): its last path part, NFC, without control characters, 255 at most.
 */
export function photoFileName(sent: string): string {
  const last = sent.normalize("NFC").split(/[/\\]/).pop() ?? "";
  return (
    last
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, "")
      .trim()
      .slice(0, 255)
  );
}

export async function receiveWholePhoto(input: {
  galleryId: string;
  name: string;
  size: number;
  path: string;
  head: Buffer;
  adminId: string | null;
}): Promise<string> {
  const { galleryId, size, adminId } = input;
  const name = photoFileName(input.name);
  if (!(await openGallery(db(), galleryId)))
    throw new UploadRefusal(404, { error: UNKNOWN_GALLERY });
  const claimed = checkFile(name, size, "");
  const format = sniffFormat(input.head);
  if (!format || format !== claimed) throw new UploadRefusal(415, { error: UNSUPPORTED });
  if (await alreadyInGallery(galleryId, name, size))
    throw new UploadRefusal(409, { error: DUPLICATE, duplicate: true });
  const photoId = randomUUID();
  const key = galleryUploadKey(galleryId, photoId, format);
  await storage().put(key, createReadStream(input.path), {
    contentType: contentTypeFor(format),
    contentLength: size,
  });
  const [row] = await db()
    .insert(resumableUploads)
    .values({
      galleryId,
      photoId,
      fileName: name,
      size,
      contentType: contentTypeFor(format),
      chunkSize: size,
      received: size,
      storageKey: key,
      // Not a multipart upload: the form's file was stored in one piece.
      storageUploadId: "formulaire",
      createdBy: adminId,
    })
    .returning();
  if (!row) throw new Error("resumable upload: no row");
  return recordPhoto(row, photoId, galleryId);
}

/** The JSON answer of a refusal (the routes' common `catch`). */
export function refusalResponse(error: unknown): Response {
  if (error instanceof UploadRefusal)
    return Response.json(error.body, {
      status: error.status,
      headers: { "Cache-Control": "no-store" },
    });
  throw error;
}

/** After a refusal, at most this much of the piece is read and dropped, so the browser gets the answer. */
const DRAIN_LIMIT_BYTES = UPLOAD_CHUNK_BYTES + 64 * 1024;

/**
 * Reads and drops what is left of a refused piece (bounded): destroying the body would close the
 * connection before the browser reads the 409 and the offset it needs.
 */
export async function drainBody(body: Readable): Promise<void> {
  let dropped = 0;
  try {
    for await (const chunk of body) {
      dropped += (chunk as Buffer).length;
      if (dropped > DRAIN_LIMIT_BYTES) break;
    }
  } catch {
    // The browser went away, or the body already failed: nothing left to read.
  }
  body.destroy();
}

/** The body of a request as a Node stream (the chunk routes stream it into the store). */
export function requestStream(request: Request): Readable {
  if (!request.body) return Readable.from([]);
  return Readable.fromWeb(request.body as WebReadableStream);
}
