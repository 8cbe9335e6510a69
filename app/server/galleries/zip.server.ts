import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { and, asc, eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { type galleries, galleryPhotos } from "../db/schema";
import { log } from "../logger.server";
import { galleryOriginalKey } from "../storage/keys";
import type { Storage } from "../storage/types";

/*
 * Every photo of a gallery in one ZIP, streamed without building it in memory or on disk (decision 0104).
 *
 * The entries are stored (method 0: JPEG and PNG do not compress) and their sizes and CRC-32 are known
 * before the first byte (the processing records them), so every header is computed up front by the pure
 * `layout()`: the total length is the response's Content-Length (the browser shows the time remaining) and
 * any byte range maps onto headers and entries (an interrupted download resumes). No data descriptors.
 * ZIP64 extra fields and end records when a size, an offset or the number of entries needs them.
 */

/** One file of the archive: its bytes are the storage object `key`, of `size` bytes and this CRC-32. */
export type ZipEntry = {
  name: string;
  size: number;
  crc32: number;
  modified: Date;
  key: string;
};

/** A piece of the archive: header bytes computed by `layout`, or the bytes of one entry's object. */
export type ZipPart =
  | { kind: "bytes"; start: number; bytes: Buffer }
  | { kind: "entry"; start: number; length: number; entry: ZipEntry };

export type ZipLayout = {
  /** In archive order, contiguous: each part starts where the previous one ends. */
  parts: ZipPart[];
  total: number;
  /** Where each entry's local header starts (for tests and the central directory). */
  offsets: number[];
  zip64: boolean;
};

const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;
const FLAG_UTF8 = 0x0800;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Made by Unix (3), so that unzip gives the files ordinary permissions (0644). */
const MADE_BY_UNIX = 3 << 8;
const UNIX_FILE_MODE = 0o100644;

const PARIS_CLOCK = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** DOS date and time: local wall-clock time, two-second steps, from 1980 (Europe/Paris for the studio). */
export function dosDateTime(date: Date): { date: number; time: number } {
  const parts = Object.fromEntries(
    PARIS_CLOCK.formatToParts(date).map((part) => [part.type, Number(part.value)]),
  ) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  if (parts.year < 1980) return { date: (0 << 9) | (1 << 5) | 1, time: 0 };
  if (parts.year > 2107) {
    return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  }
  return {
    date: ((parts.year - 1980) << 9) | (parts.month << 5) | parts.day,
    time: (parts.hour << 11) | (parts.minute << 5) | Math.floor(parts.second / 2),
  };
}

/** Entries of one archive share one date (the session's): converted once. */
function cachedDosDateTime(): (date: Date) => { date: number; time: number } {
  const known = new Map<number, { date: number; time: number }>();
  return (date) => {
    let value = known.get(date.getTime());
    if (!value) {
      value = dosDateTime(date);
      known.set(date.getTime(), value);
    }
    return value;
  };
}

function writeUInt64(buffer: Buffer, value: number, offset: number) {
  buffer.writeBigUInt64LE(BigInt(value), offset);
}

function localHeader(
  entry: ZipEntry,
  name: Buffer,
  zip64: boolean,
  dos: { date: number; time: number },
): Buffer {
  const extra = zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
  if (zip64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(16, 2);
    writeUInt64(extra, entry.size, 4); // original size
    writeUInt64(extra, entry.size, 12); // compressed size (stored: the same)
  }
  const header = Buffer.alloc(30);
  const { date, time } = dos;
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  header.writeUInt16LE(FLAG_UTF8, 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE(entry.crc32 >>> 0, 14);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 18);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, name, extra]);
}

function centralHeader(
  entry: ZipEntry,
  name: Buffer,
  offset: number,
  force: boolean,
  dos: { date: number; time: number },
): { bytes: Buffer; zip64: boolean } {
  const sizeIn64 = force || entry.size >= MAX_32;
  const offsetIn64 = force || offset >= MAX_32;
  // The ZIP64 extra field holds, in this order, only the fields marked 0xFFFFFFFF in the header.
  const values = [...(sizeIn64 ? [entry.size, entry.size] : []), ...(offsetIn64 ? [offset] : [])];
  const extra = Buffer.alloc(values.length > 0 ? 4 + 8 * values.length : 0);
  if (values.length > 0) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8 * values.length, 2);
    values.forEach((value, index) => writeUInt64(extra, value, 4 + 8 * index));
  }
  const zip64 = values.length > 0;
  const version = zip64 ? VERSION_ZIP64 : VERSION_DEFAULT;
  const header = Buffer.alloc(46);
  const { date, time } = dos;
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY_UNIX | version, 4);
  header.writeUInt16LE(version, 6);
  header.writeUInt16LE(FLAG_UTF8, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(entry.crc32 >>> 0, 16);
  header.writeUInt32LE(sizeIn64 ? MAX_32 : entry.size, 20);
  header.writeUInt32LE(sizeIn64 ? MAX_32 : entry.size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt16LE(0, 32); // comment length
  header.writeUInt16LE(0, 34); // disk number
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE((UNIX_FILE_MODE << 16) >>> 0, 38);
  header.writeUInt32LE(offsetIn64 ? MAX_32 : offset, 42);
  return { bytes: Buffer.concat([header, name, extra]), zip64 };
}

function endRecords(
  count: number,
  directoryStart: number,
  directorySize: number,
  force: boolean,
): Buffer {
  const zip64 = force || count >= MAX_16 || directoryStart >= MAX_32 || directorySize >= MAX_32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  // With the ZIP64 records, every field says « see there » (readers such as yauzl look for them then).
  end.writeUInt16LE(zip64 ? MAX_16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX_32 : directorySize, 12);
  end.writeUInt32LE(zip64 ? MAX_32 : directoryStart, 16);
  end.writeUInt16LE(0, 20);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  writeUInt64(record, 44, 4); // size of the rest of the record
  record.writeUInt16LE(MADE_BY_UNIX | VERSION_ZIP64, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  record.writeUInt32LE(0, 16);
  record.writeUInt32LE(0, 20);
  writeUInt64(record, count, 24);
  writeUInt64(record, count, 32);
  writeUInt64(record, directorySize, 40);
  writeUInt64(record, directoryStart, 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeUInt32LE(0, 4);
  writeUInt64(locator, directoryStart + directorySize, 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

/**
 * Every byte of the archive but the entries' own: local headers, central directory and end records, with
 * where each piece goes. Pure; `forceZip64` writes the ZIP64 fields even when nothing needs them (tests).
 */
export function layout(entries: ZipEntry[], options: { forceZip64?: boolean } = {}): ZipLayout {
  const force = options.forceZip64 === true;
  const parts: ZipPart[] = [];
  const offsets: number[] = [];
  const names = entries.map((entry) => Buffer.from(entry.name, "utf8"));
  const dosOf = cachedDosDateTime();
  let position = 0;
  let zip64 = force;
  entries.forEach((entry, index) => {
    if (!Number.isSafeInteger(entry.size) || entry.size < 0) {
      throw new Error(`ZIP entry ${entry.name}: invalid size ${entry.size}`);
    }
    const name = names[index] as Buffer;
    if (name.length > MAX_16) throw new Error(`ZIP entry name too long: ${entry.name}`);
    const entryZip64 = force || entry.size >= MAX_32;
    zip64 ||= entryZip64;
    const header = localHeader(entry, name, entryZip64, dosOf(entry.modified));
    offsets.push(position);
    parts.push({ kind: "bytes", start: position, bytes: header });
    position += header.length;
    parts.push({ kind: "entry", start: position, length: entry.size, entry });
    position += entry.size;
  });
  const directoryStart = position;
  const directory: Buffer[] = [];
  entries.forEach((entry, index) => {
    const central = centralHeader(
      entry,
      names[index] as Buffer,
      offsets[index] as number,
      force,
      dosOf(entry.modified),
    );
    zip64 ||= central.zip64;
    directory.push(central.bytes);
  });
  const directoryBytes = Buffer.concat(directory);
  const end = endRecords(entries.length, directoryStart, directoryBytes.length, force);
  zip64 ||= end.length > 22;
  const tail = Buffer.concat([directoryBytes, end]);
  parts.push({ kind: "bytes", start: directoryStart, bytes: tail });
  position += tail.length;
  return { parts, total: position, offsets, zip64 };
}

/** A byte range of the archive, inclusive. */
export type ZipRange = { start: number; end: number };

/**
 * The one range of a `Range` header (bytes=a-b, bytes=a-, bytes=-n) within `total` bytes: null to send the
 * whole archive (no header, several ranges, another unit or a malformed one: RFC 9110 lets a server ignore
 * it), "unsatisfiable" for a range that starts past the end.
 */
export function parseRange(
  header: string | null,
  total: number,
): ZipRange | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [, from, to] = match as unknown as [string, string, string];
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, total - suffix), end: total - 1 };
  }
  const start = Number(from);
  const end = to === "" ? total - 1 : Math.min(Number(to), total - 1);
  if (!Number.isSafeInteger(start) || start >= total) return "unsatisfiable";
  if (end < start) return null;
  return { start, end };
}

/** The pieces to send for `range`: header bytes to copy, or a span of one entry's object. */
export type ZipSlice =
  { kind: "bytes"; bytes: Buffer } | { kind: "entry"; entry: ZipEntry; from: number; to: number };

/** Maps a range of the archive onto its parts (`from`/`to` inclusive, within the entry's object). */
export function slicesFor(zip: ZipLayout, range: ZipRange): ZipSlice[] {
  const slices: ZipSlice[] = [];
  for (const part of zip.parts) {
    const length = part.kind === "bytes" ? part.bytes.length : part.length;
    const partEnd = part.start + length - 1;
    if (length === 0 || partEnd < range.start || part.start > range.end) continue;
    const from = Math.max(range.start, part.start) - part.start;
    const to = Math.min(range.end, partEnd) - part.start;
    if (part.kind === "bytes") {
      slices.push({ kind: "bytes", bytes: part.bytes.subarray(from, to + 1) });
    } else {
      slices.push({ kind: "entry", entry: part.entry, from, to });
    }
  }
  return slices;
}

/** Raised when a stored object is not what the database says: the download must fail, not lie. */
export class ZipSourceError extends Error {
  override name = "ZipSourceError";
}

/**
 * The bytes of `range` of the archive, one entry at a time: each object is read from the store as the
 * consumer asks for more (an async generator only runs when pulled, and a storage stream holds one
 * 64 KiB buffer), so memory stays flat whatever the archive's size and the client's speed. An object
 * missing, of another length, or (read whole) of another CRC-32 than its row throws ZipSourceError before
 * the archive's next bytes leave: the response must then be destroyed, never ended.
 */
export async function* zipBytes(
  zip: ZipLayout,
  store: Storage,
  range: ZipRange = { start: 0, end: zip.total - 1 },
): AsyncGenerator<Buffer> {
  for (const slice of slicesFor(zip, range)) {
    if (slice.kind === "bytes") {
      yield slice.bytes;
      continue;
    }
    const { entry, from, to } = slice;
    const whole = from === 0 && to === entry.size - 1;
    const object = await store.get(entry.key, whole ? {} : { range: { start: from, end: to } });
    if (!object) throw new ZipSourceError(`${entry.key}: missing`);
    const body: Readable = object.body;
    try {
      if (object.size !== entry.size) {
        throw new ZipSourceError(
          `${entry.key}: ${object.size} bytes stored, ${entry.size} expected`,
        );
      }
      let sent = 0;
      let checksum = 0;
      for await (const chunk of body) {
        const buffer = chunk as Buffer;
        sent += buffer.length;
        if (sent > to - from + 1) break;
        if (whole) checksum = crc32(buffer, checksum);
        yield buffer;
      }
      if (sent !== to - from + 1) {
        throw new ZipSourceError(`${entry.key}: ${sent} bytes read, ${to - from + 1} expected`);
      }
      if (whole && checksum >>> 0 !== entry.crc32 >>> 0) {
        throw new ZipSourceError(`${entry.key}: CRC-32 differs from the database's`);
      }
    } finally {
      body.destroy();
    }
  }
}

/** A file or folder name that every system accepts: no separators, control or reserved characters. */
export function safeName(name: string, fallback: string): string {
  const cleaned = name
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, "");
  return cleaned.slice(0, 150).trim() || fallback;
}

const SAME_FORMAT: Record<string, string[]> = { jpg: ["jpg", "jpeg", "jpe"], png: ["png"] };

/** The name of a photo in the archive: its original name, with the delivery format's extension. */
export function deliveryName(originalName: string, extension: string): string {
  const name = safeName(originalName, "photo");
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const current = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  if ((SAME_FORMAT[extension] ?? [extension]).includes(current)) return name;
  return `${stem}.${extension}`;
}

/** Names made unique (without regard to case, like the client's file system): « IMG_1.jpg (2) » style. */
export function uniqueNames(names: string[]): string[] {
  const taken = new Set(names.map((name) => name.toLowerCase()));
  const seen = new Set<string>();
  return names.map((name) => {
    const key = name.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      return name;
    }
    const dot = name.lastIndexOf(".");
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const extension = dot > 0 ? name.slice(dot) : "";
    for (let copy = 2; ; copy += 1) {
      const candidate = `${stem} (${copy})${extension}`;
      if (!taken.has(candidate.toLowerCase())) {
        taken.add(candidate.toLowerCase());
        seen.add(candidate.toLowerCase());
        return candidate;
      }
    }
  });
}

type Gallery = typeof galleries.$inferSelect;

/** The folder of the archive and its file name: the gallery's title. */
export const zipFolderName = (gallery: Pick<Gallery, "title">) =>
  safeName(gallery.title, "Galerie");

/**
 * The archive's entries: the gallery's ready photos (or its favourites) in the owner's order, in a folder
 * named after it, dated from the session (early afternoon, Paris) or else the gallery's creation.
 */
export async function galleryZipEntries(
  gallery: Gallery,
  options: { favouritesOnly?: boolean; onlyPhotos?: ReadonlySet<string> } = {},
): Promise<ZipEntry[]> {
  const rows = await db()
    .select({
      id: galleryPhotos.id,
      originalName: galleryPhotos.originalName,
      bytes: galleryPhotos.originalBytes,
      crc32: galleryPhotos.originalCrc32,
      extension: galleryPhotos.originalExtension,
    })
    .from(galleryPhotos)
    .where(
      and(
        eq(galleryPhotos.galleryId, gallery.id),
        eq(galleryPhotos.status, "ready"),
        options.favouritesOnly ? eq(galleryPhotos.favourite, true) : undefined,
      ),
    )
    .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.createdAt));
  const ready = rows.filter(
    (row): row is typeof row & { bytes: number; crc32: number; extension: string } =>
      row.bytes !== null &&
      row.crc32 !== null &&
      row.extension !== null &&
      (options.onlyPhotos === undefined || options.onlyPhotos.has(row.id)),
  );
  const folder = zipFolderName(gallery);
  const modified = gallery.sessionDate
    ? new Date(`${gallery.sessionDate}T12:00:00Z`)
    : gallery.createdAt;
  const names = uniqueNames(ready.map((row) => deliveryName(row.originalName, row.extension)));
  return ready.map((row, index) => ({
    name: `${folder}/${names[index]}`,
    size: row.bytes,
    crc32: row.crc32,
    modified,
    key: galleryOriginalKey(gallery.id, row.id, row.extension),
  }));
}

/** A strong validator of the archive's bytes (for If-Range): the same entries give the same bytes. */
export function zipEtag(entries: ZipEntry[]): string {
  const hash = createHash("sha256");
  for (const entry of entries) {
    hash.update(
      `${entry.name}\0${entry.key}\0${entry.size}\0${entry.crc32}\0${entry.modified.getTime()}\n`,
    );
  }
  return `"zip-${hash.digest("base64url").slice(0, 27)}"`;
}

/** Logs why an archive stopped (the route destroys the response). */
export function logZipFailure(galleryId: string, error: unknown) {
  log.error("gallery_zip_failed", { galleryId, error });
}
