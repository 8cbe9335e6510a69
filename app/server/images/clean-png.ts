import { BrokenImageError } from "./clean-jpeg.ts";

/**
 * Removes a PNG's metadata without touching its pixels (decision 0102): the chunks that make the image
 * (header, palette, transparency, data, end) and its colour (ICC profile, sRGB, gamma, chromaticities,
 * significant bits, cICP) and pixel density stay byte for byte; text (tEXt, zTXt, iTXt: software, author,
 * XMP), Exif (eXIf, which can hold a GPS position), time and unknown chunks go. Node builtins only.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const KEPT = new Set([
  "IHDR",
  "PLTE",
  "tRNS",
  "iCCP",
  "sRGB",
  "gAMA",
  "cHRM",
  "sBIT",
  "cICP",
  "pHYs",
  "IDAT",
  "IEND",
]);

export function isPng(file: Buffer): boolean {
  return file.subarray(0, 8).equals(SIGNATURE);
}

/** The PNG without its metadata. */
export function cleanPng(png: Buffer): Buffer {
  return Buffer.concat(cleanPngParts(png));
}

/** The PNG without its metadata, as parts of the source; throws `BrokenImageError` when it is not a whole PNG. */
export function cleanPngParts(png: Buffer): Buffer[] {
  if (!isPng(png)) throw new BrokenImageError("Ce fichier n'est pas un PNG.");
  const parts: Buffer[] = [SIGNATURE];
  let at = 8;
  let ended = false;
  let first = true;
  while (!ended) {
    if (at + 12 > png.length) throw new BrokenImageError("PNG tronqué.");
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type) || at + 12 + length > png.length) {
      throw new BrokenImageError("PNG tronqué ou endommagé.");
    }
    if (first && type !== "IHDR") throw new BrokenImageError("PNG endommagé.");
    first = false;
    if (KEPT.has(type)) parts.push(png.subarray(at, at + 12 + length));
    ended = type === "IEND";
    at += 12 + length;
  }
  // Anything after IEND is not part of the image.
  return parts;
}
