import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Metadata, OutputInfo, Sharp } from "sharp";
import { formatSize } from "~/lib/sizes";
import {
  BLOG_IMAGES_PATH,
  MAX_STORED_WIDTH,
  VARIANT_WIDTHS,
  variantUrl,
} from "~/lib/image-variants";
import { env } from "../env.server";
import { contentTypeOf } from "../storage/keys";
import { storage } from "../storage/storage.server";

/**
 * SPEC: the bucket of the blog's images: the storage prefix `blog-images/` (on local disk
 * DATA_DIR/uploads/blog-images), served under /uploads/blog-images/.
 */
export const BLOG_IMAGES_BUCKET = "blog-images";
/** Originals straight from a camera (a 24-megapixel JPEG weighs 10 to 30 MB). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const TOO_LARGE_MESSAGE = `L'image dépasse la taille maximale de ${formatSize(MAX_UPLOAD_BYTES)}.`;
/** Above this many pixels a file is refused before decoding (a 100-megapixel photo is already rare). */
const MAX_INPUT_PIXELS = 120_000_000;

/** Formats we accept, with the extension and encoder of the stored original. */
const FORMATS = {
  jpeg: {
    extension: "jpg",
    encode: (image: Sharp) => image.jpeg({ quality: 85, mozjpeg: true }),
  },
  png: { extension: "png", encode: (image: Sharp) => image.png({ compressionLevel: 9 }) },
  webp: { extension: "webp", encode: (image: Sharp) => image.webp({ quality: 82 }) },
  avif: { extension: "avif", encode: (image: Sharp) => image.avif({ quality: 60 }) },
  gif: { extension: "gif", encode: (image: Sharp) => image.gif() },
} as const;

type Format = keyof typeof FORMATS;

const EXTENSION_FORMATS: Record<string, Format> = {
  jpg: "jpeg",
  jpeg: "jpeg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: "gif",
};

export class ImageRejectedError extends Error {
  override name = "ImageRejectedError";
}

/** Where an upload is written while it arrives: beside the uploads (same disk), never served. */
export async function incomingUploadPath(): Promise<string> {
  const directory = path.join(env().dataDir, "incoming-uploads");
  await fs.mkdir(directory, { recursive: true });
  return path.join(directory, `${randomBytes(12).toString("hex")}.part`);
}

/** Random characters and a timestamp, keeping the original's extension (SPEC §5). */
function storedName(extension: string): string {
  return `${randomBytes(8).toString("hex")}-${Date.now()}.${extension}`;
}

/** What sharp calls a format, as one of ours: AVIF is reported as HEIF with the AV1 codec. */
function formatOf(metadata: Metadata): Format | "heic" | null {
  if (metadata.format === "heif") return metadata.compression === "av1" ? "avif" : "heic";
  const detected = metadata.format as string | undefined;
  return detected && detected in FORMATS ? (detected as Format) : null;
}

export type DecodedUpload = {
  metadata: Metadata;
  detected: Format | "heic";
  /** The pixels, turned upright (camera orientation) and reduced to fit `fit`: no metadata left. */
  master: { data: Buffer; info: OutputInfo };
};

/**
 * sharp, loaded by the first upload rather than at start-up: with libvips it adds about 20 MB to a process
 * that may never receive a photo (decision record 0092).
 */
export async function loadSharp() {
  return (await import("sharp")).default;
}

/**
 * The checks and decoding every upload goes through (the blog's images and the media library's photos):
 * an empty, too large, too big in pixels, non-image or unsupported file is refused with a French
 * `ImageRejectedError`; otherwise the image is decoded once, oriented and reduced to fit `fit`, as raw
 * pixels from which every stored file is encoded (so no metadata, GPS included, is ever copied).
 */
export async function decodeUpload(
  filePath: string,
  fit: { width: number; height: number; fit: "inside" },
): Promise<DecodedUpload> {
  const { size } = await fs.stat(filePath);
  if (size === 0) throw new ImageRejectedError("Le fichier est vide.");
  if (size > MAX_UPLOAD_BYTES) throw new ImageRejectedError(TOO_LARGE_MESSAGE);
  const sharp = await loadSharp();
  const input = () => sharp(filePath, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS });
  let metadata: Metadata;
  try {
    metadata = await input().metadata();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new ImageRejectedError("L'image a trop de pixels (120 millions au plus).");
    }
    throw new ImageRejectedError("Le fichier n'est pas une image valide.");
  }
  const detected = formatOf(metadata);
  if (detected === null) {
    throw new ImageRejectedError(
      "Format non pris en charge : utilisez une image JPEG, PNG, WebP, AVIF ou GIF.",
    );
  }
  try {
    const master = await input()
      .rotate()
      .resize({ ...fit, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { metadata, detected, master };
  } catch {
    throw new ImageRejectedError(
      detected === "heic"
        ? "Les photos HEIC (iPhone) ne sont pas prises en charge : exportez-la en JPEG puis téléversez-la."
        : "Le fichier n'est pas une image valide.",
    );
  }
}

/**
 * Decodes an upload (a file on disk) with sharp: anything that is not a real bitmap image is refused,
 * SVG included. Applies the camera orientation, reduces it to the largest size the site shows
 * (MAX_STORED_WIDTH), strips every metadata (GPS!), and writes the original plus AVIF and WebP variants
 * to the site's storage (local disk or S3).
 * Returns the public URL of the original.
 */
export async function storeBlogImage(file: { name: string; path: string }): Promise<string> {
  const fitted = { width: MAX_STORED_WIDTH, height: MAX_STORED_WIDTH, fit: "inside" as const };
  const { metadata, detected, master } = await decodeUpload(file.path, fitted);
  // Keep the original's extension when it names a format we write; the bytes are re-encoded to match it.
  const requested = path.extname(file.name).slice(1).toLowerCase();
  const format: Format = EXTENSION_FORMATS[requested] ?? (detected === "heic" ? "jpeg" : detected);
  const { extension, encode } = FORMATS[format];
  const name = storedName(requested in EXTENSION_FORMATS ? requested : extension);

  const { width, height, channels } = master.info;
  const sharp = await loadSharp();
  const pixels = () => sharp(master.data, { raw: { width, height, channels } });
  const original = await encode(
    format === "gif" && detected === "gif" && (metadata.pages ?? 1) > 1
      ? sharp(file.path, { animated: true, limitInputPixels: MAX_INPUT_PIXELS }).resize({
          ...fitted,
          withoutEnlargement: true,
        })
      : pixels(),
  ).toBuffer();

  const store = storage();
  const url = `${BLOG_IMAGES_PATH}${name}`;
  const written: string[] = [];
  try {
    const write = async (fileName: string, bytes: Buffer) => {
      const key = `${BLOG_IMAGES_BUCKET}/${fileName}`;
      await store.put(key, bytes, { contentType: contentTypeOf(key) });
      written.push(key);
    };
    await write(name, original);
    for (const variantWidth of VARIANT_WIDTHS) {
      const resized = () => pixels().resize({ width: variantWidth, withoutEnlargement: true });
      const [avif, webp] = await Promise.all([
        // Effort 2: a 24-megapixel photo is ready in seconds, not a minute; files grow only a little.
        resized().avif({ quality: 55, effort: 2 }).toBuffer(),
        resized().webp({ quality: 78 }).toBuffer(),
      ]);
      await write(path.basename(variantUrl(url, variantWidth, "avif")), avif);
      await write(path.basename(variantUrl(url, variantWidth, "webp")), webp);
    }
  } catch (error) {
    await store.delete(written).catch(() => undefined);
    throw error;
  }
  return url;
}
