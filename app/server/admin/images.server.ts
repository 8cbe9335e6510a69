import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata, type Sharp } from "sharp";
import { BLOG_IMAGES_PATH, VARIANT_WIDTHS, variantUrl } from "~/lib/image-variants";
import { env } from "../env.server";

/** SPEC: the bucket of the blog's images. Local storage keeps it as DATA_DIR/uploads/blog-images. */
export const BLOG_IMAGES_BUCKET = "blog-images";
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;

/** Formats we accept, with the extension and encoder of the re-encoded original. */
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

/** Storage of the blog's files: the local disk (served by the app under /uploads). */
export function blogImagesDirectory(): string {
  return path.join(env().dataDir, "uploads", BLOG_IMAGES_BUCKET);
}

/** Random characters and a timestamp, keeping the original's extension (SPEC §5). */
function storedName(extension: string): string {
  return `${randomBytes(8).toString("hex")}-${Date.now()}.${extension}`;
}

/**
 * Decodes an upload with sharp (anything that is not a real bitmap image is refused, SVG included),
 * applies the camera orientation, strips every metadata (GPS!), and writes the re-encoded original plus
 * AVIF and WebP variants. Returns the public URL of the original.
 */
export async function storeBlogImage(file: { name: string; bytes: Buffer }): Promise<string> {
  if (file.bytes.byteLength === 0) throw new ImageRejectedError("Le fichier est vide.");
  if (file.bytes.byteLength > MAX_UPLOAD_BYTES) {
    throw new ImageRejectedError("L'image dépasse la taille maximale de 15 Mo.");
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(file.bytes, {
      failOn: "error",
      limitInputPixels: 100_000_000,
    }).metadata();
  } catch {
    throw new ImageRejectedError("Le fichier n'est pas une image valide.");
  }
  const detected = metadata.format as string | undefined;
  if (!detected || !(detected in FORMATS)) {
    throw new ImageRejectedError(
      "Format non pris en charge : utilisez une image JPEG, PNG, WebP, AVIF ou GIF.",
    );
  }
  // Keep the original's extension when it names a format we write; the bytes are re-encoded to match it.
  const requested = path.extname(file.name).slice(1).toLowerCase();
  const format: Format = EXTENSION_FORMATS[requested] ?? (detected as Format);
  const { extension, encode } = FORMATS[format];
  const name = storedName(requested in EXTENSION_FORMATS ? requested : extension);

  // Decoding the whole image (not just its header) proves it is real before anything is written.
  const base = () => sharp(file.bytes, { failOn: "error", animated: format === "gif" }).rotate();
  let original: Buffer;
  try {
    original = await encode(base()).toBuffer();
  } catch {
    throw new ImageRejectedError("Le fichier n'est pas une image valide.");
  }

  const directory = blogImagesDirectory();
  await fs.mkdir(directory, { recursive: true });
  const url = `${BLOG_IMAGES_PATH}${name}`;
  const written: string[] = [];
  try {
    const write = async (fileName: string, bytes: Buffer) => {
      const target = path.join(directory, fileName);
      await fs.writeFile(target, bytes, { flag: "wx" });
      written.push(target);
    };
    await write(name, original);
    for (const width of VARIANT_WIDTHS) {
      const resized = () => sharp(file.bytes).rotate().resize({ width, withoutEnlargement: true });
      const [avif, webp] = await Promise.all([
        resized().avif({ quality: 55, effort: 4 }).toBuffer(),
        resized().webp({ quality: 78 }).toBuffer(),
      ]);
      await write(path.basename(variantUrl(url, width, "avif")), avif);
      await write(path.basename(variantUrl(url, width, "webp")), webp);
    }
  } catch (error) {
    await Promise.all(written.map((target) => fs.rm(target, { force: true })));
    throw error;
  }
  return url;
}
