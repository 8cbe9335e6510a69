/**
 * A camera's Exif data without where the photo was taken (decision 0102): the capture date, camera,
 * lens, exposure and orientation stay, so a client's photo library files the photo under the day of the
 * session; the GPS position goes, and so does everything that can hold a place or cannot be rewritten
 * safely: IPTC and XMP packets (city, sublocation), maker notes (opaque blocks whose offsets would break),
 * the thumbnail's IFD and the interoperability IFD. The TIFF structure is written anew, in the byte order it
 * came in. Runs in the photo worker: node builtins only.
 */

const HEADER = "Exif\0\0";
const EXIF_IFD = 0x8769;
const GPS_IFD = 0x8825;
const INTEROPERABILITY_IFD = 0xa005;

/** Tags that never leave: a place, or a block that may hold one. */
const DROPPED = new Set([
  GPS_IFD,
  INTEROPERABILITY_IFD,
  0x014a, // SubIFDs
  0x02bc, // XMP packet
  0x83bb, // IPTC-NAA (city, sublocation, country)
  0x8568, // another IPTC block
  0x927c, // MakerNote
]);

/** Bytes of one value of each TIFF type (1 BYTE … 13 IFD). */
const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

type Entry = { tag: number; type: number; count: number; value: Buffer };

type Reader = { tiff: Buffer; u16: (at: number) => number; u32: (at: number) => number };

/** The entries of the IFD at `offset`, their values copied out; undefined when it does not fit. */
function readIfd({ tiff, u16, u32 }: Reader, offset: number): Entry[] | undefined {
  if (offset < 8 || offset + 2 > tiff.length) return undefined;
  const count = u16(offset);
  if (offset + 2 + count * 12 > tiff.length) return undefined;
  const entries: Entry[] = [];
  for (let index = 0; index < count; index++) {
    const at = offset + 2 + index * 12;
    const tag = u16(at);
    const type = u16(at + 2);
    const values = u32(at + 4);
    const size = (TYPE_SIZES[type] ?? 0) * values;
    if (size === 0 || size > tiff.length) continue; // an unknown type: left out rather than guessed
    const start = size <= 4 ? at + 8 : u32(at + 8);
    if (start + size > tiff.length) continue;
    entries.push({
      tag,
      type,
      count: values,
      value: Buffer.from(tiff.subarray(start, start + size)),
    });
  }
  return entries;
}

/** Writes IFDs one after the other, each followed by its values that do not fit in an entry. */
class TiffWriter {
  private readonly chunks: Buffer[] = [];
  private length = 8;
  private readonly littleEndian: boolean;
  constructor(littleEndian: boolean) {
    this.littleEndian = littleEndian;
  }

  private u16(value: number): Buffer {
    const buffer = Buffer.alloc(2);
    if (this.littleEndian) buffer.writeUInt16LE(value);
    else buffer.writeUInt16BE(value);
    return buffer;
  }

  private u32(value: number): Buffer {
    const buffer = Buffer.alloc(4);
    if (this.littleEndian) buffer.writeUInt32LE(value);
    else buffer.writeUInt32BE(value);
    return buffer;
  }

  /** Where the next IFD will start. */
  get offset(): number {
    return this.length;
  }

  /** The size of the IFD of these entries with its values, word-aligned. */
  static sizeOf(entries: Entry[]): number {
    let size = 2 + entries.length * 12 + 4;
    for (const entry of entries)
      if (entry.value.length > 4) size += entry.value.length + (entry.value.length % 2);
    return size;
  }

  write(entries: Entry[]): void {
    const ifd: Buffer[] = [this.u16(entries.length)];
    const values: Buffer[] = [];
    let valueOffset = this.length + 2 + entries.length * 12 + 4;
    for (const entry of entries) {
      ifd.push(this.u16(entry.tag), this.u16(entry.type), this.u32(entry.count));
      if (entry.value.length <= 4) {
        ifd.push(Buffer.concat([entry.value, Buffer.alloc(4 - entry.value.length)]));
      } else {
        ifd.push(this.u32(valueOffset));
        const padded =
          entry.value.length % 2 ? Buffer.concat([entry.value, Buffer.alloc(1)]) : entry.value;
        values.push(padded);
        valueOffset += padded.length;
      }
    }
    ifd.push(this.u32(0)); // no next IFD: the thumbnail's is left out
    const written = Buffer.concat([...ifd, ...values]);
    this.chunks.push(written);
    this.length += written.length;
  }

  /** The APP1 segment: marker, length, `Exif\0\0`, then the TIFF. */
  segment(): Buffer {
    const header = Buffer.concat([
      Buffer.from(this.littleEndian ? "II" : "MM", "latin1"),
      this.u16(42),
      this.u32(8),
    ]);
    const tiff = Buffer.concat([header, ...this.chunks]);
    const length = 2 + HEADER.length + tiff.length;
    if (length > 0xffff) throw new RangeError("Exif too large");
    const marker = Buffer.from([0xff, 0xe1, length >> 8, length & 0xff]);
    return Buffer.concat([marker, Buffer.from(HEADER, "latin1"), tiff]);
  }

  pointer(tag: number, offset: number): Entry {
    return { tag, type: 4, count: 1, value: this.u32(offset) };
  }
}

/**
 * The APP1 Exif `segment` (marker included) written again without location (see above); undefined when it
 * is not Exif or cannot be read, and the caller keeps the orientation alone.
 */
export function exifWithoutLocation(segment: Buffer): Buffer | undefined {
  if (!segment.subarray(4, 10).equals(Buffer.from(HEADER, "latin1"))) return undefined;
  const tiff = segment.subarray(10);
  if (tiff.length < 8) return undefined;
  const order = tiff.toString("latin1", 0, 2);
  if (order !== "II" && order !== "MM") return undefined;
  const littleEndian = order === "II";
  const reader: Reader = {
    tiff,
    u16: (at) => (littleEndian ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at)),
    u32: (at) => (littleEndian ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at)),
  };
  const ifd0 = readIfd(reader, reader.u32(4));
  if (!ifd0) return undefined;
  const pointerOf = (entries: Entry[], tag: number) => {
    const entry = entries.find((candidate) => candidate.tag === tag);
    return entry && entry.value.length === 4
      ? littleEndian
        ? entry.value.readUInt32LE(0)
        : entry.value.readUInt32BE(0)
      : undefined;
  };
  const exifOffset = pointerOf(ifd0, EXIF_IFD);
  const exif = exifOffset === undefined ? undefined : readIfd(reader, exifOffset);
  const kept = (entries: Entry[]) =>
    entries.filter((entry) => !DROPPED.has(entry.tag) && entry.tag !== EXIF_IFD);

  const writer = new TiffWriter(littleEndian);
  const first = kept(ifd0);
  if (exif) {
    // The Exif IFD follows IFD0 (with its pointer to it); entries stay in tag order.
    const withPointer = [...first, writer.pointer(EXIF_IFD, 0)].sort((a, b) => a.tag - b.tag);
    const exifAt = writer.offset + TiffWriter.sizeOf(withPointer);
    writer.write(
      withPointer.map((entry) =>
        entry.tag === EXIF_IFD ? writer.pointer(EXIF_IFD, exifAt) : entry,
      ),
    );
    writer.write(kept(exif));
  } else {
    writer.write(first);
  }
  try {
    return writer.segment();
  } catch {
    return undefined;
  }
}
