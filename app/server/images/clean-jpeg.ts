/**
 * Removes where a JPEG was taken without touching its pixels (decision 0102): the segments are copied as
 * they are, except the XMP data (APP1), Photoshop's APP13 (IPTC), comments, the other APPn and anything
 * after the end of the image (MPF secondary images and gain maps, with their own Exif). The camera's Exif
 * segment is written again without its GPS position and the blocks that may hold a place
 * (exif-without-location.ts): the capture date, camera and exposure stay. The colour profile (APP2
 * ICC_PROFILE), JFIF (APP0) and Adobe (APP14) segments stay, and so do the tables and the compressed scans:
 * the file decodes to exactly the same pixels. An Exif segment that cannot be read is replaced by a minimal
 * one holding only the orientation, so the photo still shows upright.
 *
 * Runs in the photo worker: node builtins only.
 */
import { exifWithoutLocation } from "./exif-without-location.ts";

export class BrokenImageError extends Error {
  override name = "BrokenImageError";
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;

const startsWith = (segment: Buffer, text: string) =>
  segment.subarray(4, 4 + text.length).equals(Buffer.from(text, "latin1"));

/** Whether a segment before the scan stays in the delivery original. */
function kept(marker: number, segment: Buffer): boolean {
  if (marker === APP0) return true;
  if (marker === APP2) return startsWith(segment, "ICC_PROFILE\0");
  if (marker === APP14) return startsWith(segment, "Adobe");
  if (marker >= APP1 && marker <= 0xef) return false;
  return marker !== COM;
}

/** The Exif orientation (1–8) of an APP1 Exif segment; 1 when absent or unreadable. */
export function exifOrientation(segment: Buffer): number {
  if (!startsWith(segment, "Exif\0\0")) return 1;
  const tiff = segment.subarray(10);
  if (tiff.length < 8) return 1;
  const order = tiff.toString("latin1", 0, 2);
  if (order !== "II" && order !== "MM") return 1;
  const u16 = (at: number) => (order === "II" ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (order === "II" ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const count = u16(ifd);
  for (let entry = 0; entry < count; entry++) {
    const at = ifd + 2 + entry * 12;
    if (at + 12 > tiff.length) return 1;
    if (u16(at) === 0x0112) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** An APP1 Exif segment with IFD0 holding the orientation only (big-endian TIFF). */
export function orientationSegment(orientation: number): Buffer {
  const segment = Buffer.alloc(36);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(34, 2);
  segment.write("Exif\0\0", 4, "latin1");
  segment.write("MM", 10, "latin1");
  segment.writeUInt16BE(42, 12);
  segment.writeUInt32BE(8, 14); // IFD0 right after the header
  segment.writeUInt16BE(1, 18); // one entry
  segment.writeUInt16BE(0x0112, 20); // Orientation
  segment.writeUInt16BE(3, 22); // SHORT
  segment.writeUInt32BE(1, 24); // one value
  segment.writeUInt16BE(orientation, 28);
  segment.writeUInt32BE(0, 32); // no next IFD
  return segment;
}

/** The end of an entropy-coded scan starting at `from`: the offset of the next marker. */
function scanEnd(jpeg: Buffer, from: number): number {
  let at = from;
  while (at < jpeg.length - 1) {
    if (jpeg[at] !== 0xff) {
      at++;
      continue;
    }
    const next = jpeg[at + 1] as number;
    // Stuffed 0xFF00 and restart markers belong to the scan.
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at += 2;
    else if (next === 0xff) at++;
    else return at;
  }
  throw new BrokenImageError("JPEG tronqué : la fin de l'image manque.");
}

/** The JPEG without its metadata (see above), and the camera orientation it keeps. */
export function cleanJpeg(jpeg: Buffer): { jpeg: Buffer; orientation: number } {
  const { parts, orientation } = cleanJpegParts(jpeg);
  return { jpeg: Buffer.concat(parts), orientation };
}

/**
 * The cleaned JPEG as parts of the source (no copy of a 20 MB photo: the worker writes them one after
 * the other), and the camera orientation it keeps. Throws `BrokenImageError` when the file is not a whole
 * JPEG.
 */
export function cleanJpegParts(jpeg: Buffer): { parts: Buffer[]; orientation: number } {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== SOI) {
    throw new BrokenImageError("Ce fichier n'est pas un JPEG.");
  }
  const head: Buffer[] = [];
  const rest: Buffer[] = [];
  let orientation = 1;
  let exif: Buffer | undefined;
  let scanned = false;
  let at = 2;
  for (;;) {
    if (at + 1 >= jpeg.length) throw new BrokenImageError("JPEG tronqué.");
    if (jpeg[at] !== 0xff) throw new BrokenImageError("JPEG endommagé.");
    const marker = jpeg[at + 1] as number;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === EOI) break;
    if (marker === SOI || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      throw new BrokenImageError("JPEG endommagé.");
    }
    if (at + 4 > jpeg.length) throw new BrokenImageError("JPEG tronqué.");
    const length = jpeg.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > jpeg.length) throw new BrokenImageError("JPEG tronqué.");
    const segment = jpeg.subarray(at, at + 2 + length);
    at += 2 + length;
    if (marker === APP1 && !exif && startsWith(segment, "Exif\0\0")) {
      orientation = exifOrientation(segment);
      exif = exifWithoutLocation(segment);
    }
    if (!kept(marker, segment)) continue;
    // Segments before the first scan go in `head` (the orientation's Exif joins them), the rest after.
    (scanned ? rest : head).push(segment);
    if (marker === SOS) {
      scanned = true;
      const end = scanEnd(jpeg, at);
      rest.push(jpeg.subarray(at, end));
      at = end;
    }
  }
  if (!scanned) throw new BrokenImageError("JPEG sans image.");
  // The SOS segment itself was pushed to `head` (the first one) – move it so the Exif goes before the frame.
  const firstScan = head.pop() as Buffer;
  const leadingApp0 = head.findIndex((segment) => segment[1] !== APP0);
  const split = leadingApp0 === -1 ? head.length : leadingApp0;
  const parts: Buffer[] = [
    jpeg.subarray(0, 2),
    ...head.slice(0, split),
    ...(exif ? [exif] : orientation !== 1 ? [orientationSegment(orientation)] : []),
    ...head.slice(split),
    firstScan,
    ...rest,
    Buffer.from([0xff, EOI]),
  ];
  return { parts, orientation };
}
