/**
 * The Exif data of a HEIC/HEIF file (decision 0102): the iPhone writes the capture date, camera and
 * exposure in an item of type `Exif`, which heic-decode does not give (pixels only). Read from the ISO
 * base media boxes (ISO/IEC 23008-12: `meta` → `iinf` names the item, `iloc` says where its bytes are) and
 * returned as a JPEG APP1 segment, for the delivery JPEG. Runs in the photo worker: node builtins only.
 */

type Box = { type: string; start: number; content: number; end: number };

/** The boxes between `from` and `to` (a box's size 1 means a 64-bit size follows; 0, to the end). */
function boxes(file: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = file.readUInt32BE(at);
    const type = file.toString("latin1", at + 4, at + 8);
    let content = at + 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(file.readBigUInt64BE(at + 8));
      content = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < content - at || at + size > to) break;
    found.push({ type, start: at, content, end: at + size });
    at += size;
  }
  return found;
}

/** Reads an unsigned integer of `bytes` (0, 4 or 8) at `at`. */
function uint(file: Buffer, at: number, bytes: number): number {
  if (bytes === 0) return 0;
  if (bytes === 4) return file.readUInt32BE(at);
  if (bytes === 8) return Number(file.readBigUInt64BE(at));
  if (bytes === 2) return file.readUInt16BE(at);
  throw new RangeError(`size ${bytes}`);
}

/** The id of the item of type `Exif` (from `iinf`'s `infe` boxes of version 2 or 3). */
function exifItemId(file: Buffer, iinf: Box): number | undefined {
  const version = file[iinf.content] as number;
  const first = iinf.content + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxes(file, first, iinf.end)) {
    if (infe.type !== "infe") continue;
    const infeVersion = file[infe.content] as number;
    if (infeVersion < 2) continue;
    const idBytes = infeVersion === 3 ? 4 : 2;
    const id = uint(file, infe.content + 4, idBytes);
    const type = file.toString(
      "latin1",
      infe.content + 4 + idBytes + 2,
      infe.content + 8 + idBytes + 2,
    );
    if (type === "Exif") return id;
  }
  return undefined;
}

/** Where item `id`'s bytes are, from `iloc` (file offsets only: construction method 0). */
function itemExtents(file: Buffer, iloc: Box, id: number): Array<[number, number]> | undefined {
  const version = file[iloc.content] as number;
  let at = iloc.content + 4;
  const sizes = file.readUInt16BE(at);
  at += 2;
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 0xf;
  const baseOffsetSize = (sizes >> 4) & 0xf;
  const indexSize = version === 1 || version === 2 ? sizes & 0xf : 0;
  const count = version < 2 ? file.readUInt16BE(at) : file.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < count; item++) {
    const itemId = version < 2 ? file.readUInt16BE(at) : file.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version === 1 || version === 2) {
      method = file.readUInt16BE(at) & 0xf;
      at += 2;
    }
    at += 2; // data_reference_index
    const base = uint(file, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = file.readUInt16BE(at);
    at += 2;
    const extents: Array<[number, number]> = [];
    for (let extent = 0; extent < extentCount; extent++) {
      at += indexSize;
      const offset = uint(file, at, offsetSize);
      at += offsetSize;
      const length = uint(file, at, lengthSize);
      at += lengthSize;
      extents.push([base + offset, length]);
    }
    if (itemId === id) return method === 0 ? extents : undefined;
  }
  return undefined;
}

/**
 * The file's Exif as an APP1 segment (marker included, « Exif\0\0 » then the TIFF data), or undefined when
 * it has none or its boxes cannot be read.
 */
export function heifExifSegment(file: Buffer): Buffer | undefined {
  try {
    const meta = boxes(file, 0, file.length).find((box) => box.type === "meta");
    if (!meta) return undefined;
    // `meta` is a full box: version and flags first.
    const children = boxes(file, meta.content + 4, meta.end);
    const iinf = children.find((box) => box.type === "iinf");
    const iloc = children.find((box) => box.type === "iloc");
    if (!iinf || !iloc) return undefined;
    const id = exifItemId(file, iinf);
    if (id === undefined) return undefined;
    const extents = itemExtents(file, iloc, id);
    if (!extents || extents.length === 0) return undefined;
    const data = Buffer.concat(
      extents.map(([offset, length]) => {
        if (offset + length > file.length) throw new RangeError("extent");
        return file.subarray(offset, offset + length);
      }),
    );
    // The item starts with the offset of the TIFF header in what follows (after « Exif\0\0 », usually).
    const tiffStart = 4 + data.readUInt32BE(0);
    const tiff = data.subarray(tiffStart);
    const order = tiff.toString("latin1", 0, 2);
    if (tiff.length < 8 || (order !== "II" && order !== "MM")) return undefined;
    const length = 2 + 6 + tiff.length;
    if (length > 0xffff) return undefined;
    return Buffer.concat([
      Buffer.from([0xff, 0xe1, length >> 8, length & 0xff]),
      Buffer.from("Exif\0\0", "latin1"),
      tiff,
    ]);
  } catch {
    return undefined;
  }
}

/**
 * `segment` (an APP1 Exif segment) saying the photo is upright: the delivery JPEG of a HEIC is made of
 * pixels the decoder already turned, which a viewer must not turn again.
 */
export function uprightExif(segment: Buffer): Buffer {
  const copy = Buffer.from(segment);
  const tiff = 10;
  const little = copy.toString("latin1", tiff, tiff + 2) === "II";
  const u16 = (at: number) => (little ? copy.readUInt16LE(at) : copy.readUInt16BE(at));
  const ifd = tiff + (little ? copy.readUInt32LE(tiff + 4) : copy.readUInt32BE(tiff + 4));
  if (ifd + 2 > copy.length) return copy;
  const count = u16(ifd);
  for (let entry = 0; entry < count; entry++) {
    const at = ifd + 2 + entry * 12;
    if (at + 12 > copy.length) break;
    if (u16(at) === 0x0112) {
      if (little) copy.writeUInt16LE(1, at + 8);
      else copy.writeUInt16BE(1, at + 8);
    }
  }
  return copy;
}
