import { open, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { crc32 } from "node:zlib";
import sharp, { type Metadata, type OutputInfo, type Sharp } from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import {
  galleryFormatsFor,
  galleryWidthsFor,
  type GalleryWebFormat,
} from "../../lib/gallery-urls.ts";
import { galleryVariantName } from "../storage/keys.ts";
import { BrokenImageError, cleanJpegParts } from "./clean-jpeg.ts";
import { cleanPngParts, isPng } from "./clean-png.ts";
import { exifWithoutLocation } from "./exif-without-location.ts";
import { heifExifSegment, uprightExif } from "./heif-exif.ts";
import {
  MAX_HEIC_PIXELS,
  MAX_PHOTO_PIXELS,
  PHOTO_MESSAGES,
  type PhotoFile,
  type PhotoTask,
  type PhotoTaskResult,
} from "./photo-task.ts";
import { BRAND_MARK_SVG, WATERMARK } from "./watermark.ts";

/*
 * The photo worker (decision 0102): a worker thread of the pool (pool.server.ts) that turns one gallery
 * photo into its delivery original (metadata removed, pixels untouched), its web sizes and its placeholder.
 * It imports only sharp, thumbhash, node builtins and files of this folder (and the two convention files
 * above), so Node runs it as it is in development and tests, and the build bundles it as its own entry.
 *
 * libvips runs its work on Node's shared libuv pool: one operation at a time here (concurrency 1, one
 * encode after the other) leaves the other threads of that pool to the pages' file and zlib work, and no
 * cache keeps a 24-megapixel photo's pixels once it is done.
 */
sharp.concurrency(1);
sharp.cache(false);

/** The largest web width: the master pixels every web size is made from are no wider. */
const MASTER_WIDTH = galleryWidthsFor(Number.MAX_SAFE_INTEGER).at(-1) as number;

class RejectedPhoto extends Error {}

type Raw = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 };

const rawImage = (raw: Raw) =>
  sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });

/** The first bytes of a file, enough to tell its format. */
async function head(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function kindOf(file: Buffer): "jpg" | "png" | "heic" | null {
  if (file[0] === 0xff && file[1] === 0xd8 && file[2] === 0xff) return "jpg";
  if (isPng(file)) return "png";
  if (file.toString("latin1", 4, 8) === "ftyp") return "heic";
  return null;
}

/**
 * Decodes a HEIC with libheif compiled to WebAssembly (heic-decode), in a thread of its own that exits
 * afterwards: the WebAssembly memory (hundreds of MB for a large photo) is only given back when its
 * thread ends. The prebuilt libvips of sharp has no HEVC decoder.
 */
function decodeHeic(file: string): Promise<Raw> {
  const decoder = createRequire(import.meta.url).resolve("heic-decode");
  // Written for both module kinds (the thread inherits the process's flags, `--input-type=module` too).
  const source = `
    const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
    const load = process.getBuiltinModule("node:module").createRequire(workerData.decoder);
    const decode = load(workerData.decoder);
    (async () => {
      const buffer = process.getBuiltinModule("node:fs").readFileSync(workerData.file);
      const images = await decode.all({ buffer });
      try {
        const image = images[0];
        if (image.width * image.height > workerData.maxPixels) return parentPort.postMessage({ tooLarge: true });
        const { width, height, data } = await image.decode();
        parentPort.postMessage({ width, height, data }, [data.buffer]);
      } finally {
        images.dispose();
      }
    })().catch((error) => parentPort.postMessage({ error: String(error && error.message) }));
  `;

  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { decoder, file, maxPixels: MAX_HEIC_PIXELS },
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    let answered = false;
    worker.once(
      "message",
      (message: {
        width: number;
        height: number;
        data: Uint8ClampedArray;
        tooLarge?: boolean;
        error?: string;
      }) => {
        answered = true;
        if (message.tooLarge) reject(new RejectedPhoto(PHOTO_MESSAGES.heicTooLarge));
        else if (message.error !== undefined || !message.data)
          reject(new RejectedPhoto(PHOTO_MESSAGES.broken));
        else {
          const { width, height, data } = message;
          resolve({
            data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
            width,
            height,
            channels: 4,
          });
        }
        void worker.terminate();
      },
    );
    worker.once("error", () => reject(new RejectedPhoto(PHOTO_MESSAGES.broken)));
    worker.once("exit", () => {
      if (!answered) reject(new RejectedPhoto(PHOTO_MESSAGES.broken));
    });
  });
}

/** Checks the pixel count, then decodes upright, without alpha, at most MASTER_WIDTH wide. */
async function masterOf(
  input: string | Buffer | Raw,
): Promise<{ master: Raw; width: number; height: number }> {
  let image: Sharp;
  let width: number;
  let height: number;
  if (typeof input === "string" || Buffer.isBuffer(input)) {
    const options = { failOn: "error" as const, limitInputPixels: MAX_PHOTO_PIXELS };
    let metadata: Metadata;
    try {
      metadata = await sharp(input, { ...options, limitInputPixels: false }).metadata();
    } catch {
      throw new RejectedPhoto(PHOTO_MESSAGES.broken);
    }
    if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_PHOTO_PIXELS) {
      throw new RejectedPhoto(PHOTO_MESSAGES.tooManyPixels);
    }
    width = metadata.autoOrient.width;
    height = metadata.autoOrient.height;
    image = sharp(input, options).rotate();
  } else {
    ({ width, height } = input);
    image = rawImage(input);
  }
  try {
    const { data, info } = await image
      .flatten({ background: "#ffffff" })
      .resize({ width: MASTER_WIDTH, withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    return { master: rawOf({ data, info }), width, height };
  } catch {
    throw new RejectedPhoto(PHOTO_MESSAGES.broken);
  }
}

/**
 * The brand mark for a web size `width` pixels wide, as raw RGBA at WATERMARK.opacity, with the margin as
 * transparent pixels on its right and bottom (so it is composed in the bottom-right corner by gravity).
 */
async function markFor(width: number): Promise<Raw> {
  const size = Math.max(16, Math.round(width * WATERMARK.widthShare));
  const margin = Math.round(width * WATERMARK.marginShare);
  const { data, info } = await sharp(Buffer.from(BRAND_MARK_SVG), {
    density: Math.ceil((72 * size) / 64),
  })
    .resize(size, size)
    .ensureAlpha()
    .extend({ right: margin, bottom: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let alpha = 3; alpha < data.length; alpha += 4) {
    data[alpha] = Math.round((data[alpha] as number) * WATERMARK.opacity);
  }
  return { data, width: info.width, height: info.height, channels: 4 };
}

const rawOf = ({ data, info }: { data: Buffer; info: OutputInfo }): Raw => ({
  data,
  width: info.width,
  height: info.height,
  channels: info.channels,
});

function encoder(format: GalleryWebFormat, width: number) {
  return (image: Sharp) =>
    format === "avif"
      ? image.avif({ quality: 50, effort: 2 })
      : format === "webp"
        ? image.webp({ quality: 78, effort: 2 })
        : // mozjpeg's smaller files for the grid's sizes; plain libjpeg is much faster at the large ones.
          image.jpeg({ quality: 80, progressive: true, mozjpeg: width <= 960 });
}

async function webSizes(
  master: Raw,
  width: number,
  task: PhotoTask,
): Promise<{ widths: number[]; files: PhotoFile[] }> {
  const widths = galleryWidthsFor(width);
  const files: PhotoFile[] = [];
  for (const target of widths) {
    const mark = task.watermark ? await markFor(target) : null;
    // One resize per width (never enlarged: a web width is at most the photo's, and the master is at least
    // as wide as the largest); each format is encoded from these pixels, with the mark when asked.
    const resized = rawOf(
      await rawImage(master)
        .resize({ width: Math.min(target, master.width) })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    const sized = () => {
      if (!mark) return rawImage(resized);
      return rawImage(resized)
        .composite([
          {
            input: mark.data,
            raw: { width: mark.width, height: mark.height, channels: 4 },
            gravity: "southeast",
          },
        ])
        .removeAlpha();
    };
    for (const format of galleryFormatsFor(target)) {
      const name = galleryVariantName(task.revision, target, format);
      const file = path.join(task.outputDirectory, name);
      await encoder(format, target)(sized()).toFile(file);
      files.push({ name, path: file });
    }
  }
  return { widths, files };
}

async function placeholder(master: Raw): Promise<{ thumbhash: string; colour: string }> {
  const small = await rawImage(master)
    .resize(100, 100, { fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const hash = rgbaToThumbHash(small.info.width, small.info.height, small.data);
  const { dominant } = await rawImage(master).stats();
  const hex = (value: number) => value.toString(16).padStart(2, "0");
  return {
    thumbhash: Buffer.from(hash).toString("base64"),
    colour: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`,
  };
}

/** Writes the delivery original from its parts (no copy of the whole), with its size and CRC-32. */
async function writeOriginal(task: PhotoTask, parts: Buffer[], extension: "jpg" | "png") {
  const name = `original.${extension}`;
  const file = path.join(task.outputDirectory, name);
  const handle = await open(file, "w");
  let bytes = 0;
  let checksum = 0;
  try {
    for (const part of parts) {
      await handle.write(part);
      bytes += part.length;
      checksum = crc32(part, checksum);
    }
  } finally {
    await handle.close();
  }
  return { name, path: file, extension, bytes, crc32: checksum };
}

/**
 * The parts of `jpeg` with the APP1 `segment` after its start (and after its JFIF APP0, which must come
 * first); `jpeg` alone without one.
 */
function withExif(jpeg: Buffer, segment: Buffer | undefined): Buffer[] {
  if (!segment) return [jpeg];
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + jpeg.readUInt16BE(4);
  return [jpeg.subarray(0, at), segment, jpeg.subarray(at)];
}

/** The task (see PhotoTask): piscina calls this default export in the worker thread. */
export default async function processPhotoTask(task: PhotoTask): Promise<PhotoTaskResult> {
  try {
    const kind = kindOf(await head(task.input));
    if (kind === null) return { ok: false, message: PHOTO_MESSAGES.unsupported };
    let decoded: Awaited<ReturnType<typeof masterOf>>;
    let original: Extract<PhotoTaskResult, { ok: true }>["original"];
    if (kind === "heic") {
      if (task.mode === "variants") throw new RejectedPhoto(PHOTO_MESSAGES.unsupported);
      const raw = await decodeHeic(task.input);
      // The delivery original of a HEIC: a JPEG of its pixels (few programs open HEIC), quality 92,
      // with the camera's Exif but its location (the pixels come upright from the decoder).
      const jpeg = await rawImage(raw)
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 92 })
        .toBuffer();
      const exif = heifExifSegment(await readFile(task.input));
      const kept = exif ? exifWithoutLocation(exif) : undefined;
      original = await writeOriginal(task, withExif(jpeg, kept && uprightExif(kept)), "jpg");
      decoded = await masterOf(jpeg);
    } else {
      if (task.mode === "full") {
        let parts: Buffer[];
        try {
          // The whole file for its cleaning (released before decoding, which reads the cleaned file).
          const file = await readFile(task.input);
          parts = kind === "jpg" ? cleanJpegParts(file).parts : cleanPngParts(file);
        } catch (error) {
          if (error instanceof BrokenImageError) throw new RejectedPhoto(PHOTO_MESSAGES.broken);
          throw error;
        }
        original = await writeOriginal(task, parts, kind);
      }
      // libvips reads the cleaned file from disk, in strips.
      decoded = await masterOf(original?.path ?? task.input);
    }
    const { master, width, height } = decoded;
    const { widths, files } = await webSizes(master, width, task);
    const { thumbhash, colour } = await placeholder(master);
    return {
      ok: true,
      width,
      height,
      widths,
      thumbhash,
      colour,
      files,
      ...(original ? { original } : {}),
    };
  } catch (error) {
    if (error instanceof RejectedPhoto) return { ok: false, message: error.message };
    throw error;
  }
}
