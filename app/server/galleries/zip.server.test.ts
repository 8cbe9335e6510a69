import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ObjectBody, Storage } from "../storage/types";
import {
  deliveryName,
  dosDateTime,
  layout,
  parseRange,
  slicesFor,
  uniqueNames,
  zipBytes,
  ZipSourceError,
  type ZipEntry,
  type ZipLayout,
} from "./zip.server";

const GiB = 1024 ** 3;
const modified = new Date("2026-06-14T10:30:00Z");

const fakeEntry = (index: number, size: number): ZipEntry => ({
  name: `Séance été/IMG_${String(index).padStart(4, "0")}.jpg`,
  size,
  crc32: 0x12345678 + index,
  modified,
  key: `galleries/g/p${index}/original.jpg`,
});

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("undefined");
  return value;
}

const nth = <T>(list: readonly T[], index: number): T => defined(list[index]);

/** The archive's tail (central directory and end records), the only bytes a layout holds after headers. */
function tailOf(zip: ZipLayout): { start: number; bytes: Buffer } {
  const last = zip.parts.at(-1);
  if (last?.kind !== "bytes") throw new Error("no tail");
  return { start: last.start, bytes: last.bytes };
}

type Central = {
  name: string;
  versionNeeded: number;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  extra: Buffer;
};

/** Reads the central directory the way an unzipper does, from the end records. */
function readDirectory(zip: ZipLayout) {
  const tail = tailOf(zip);
  const at = (absolute: number) => absolute - tail.start;
  const end = tail.bytes.subarray(tail.bytes.length - 22);
  expect(end.readUInt32LE(0)).toBe(0x06054b50);
  let count = end.readUInt16LE(10);
  let directorySize = end.readUInt32LE(12);
  let directoryStart = end.readUInt32LE(16);
  let zip64Record: Buffer | undefined;
  if (count === 0xffff || directoryStart === 0xffffffff) {
    const locator = tail.bytes.subarray(tail.bytes.length - 42, tail.bytes.length - 22);
    expect(locator.readUInt32LE(0)).toBe(0x07064b50);
    const recordAt = Number(locator.readBigUInt64LE(8));
    zip64Record = tail.bytes.subarray(at(recordAt), at(recordAt) + 56);
    expect(zip64Record.readUInt32LE(0)).toBe(0x06064b50);
    expect(Number(zip64Record.readBigUInt64LE(4))).toBe(44);
    count = Number(zip64Record.readBigUInt64LE(32));
    directorySize = Number(zip64Record.readBigUInt64LE(40));
    directoryStart = Number(zip64Record.readBigUInt64LE(48));
  }
  expect(directoryStart).toBe(tail.start);
  const entries: Central[] = [];
  let cursor = at(directoryStart);
  for (let index = 0; index < count; index += 1) {
    const header = tail.bytes.subarray(cursor);
    if (header.readUInt32LE(0) !== 0x02014b50) throw new Error(`no central header ${index}`);
    const nameLength = header.readUInt16LE(28);
    const extraLength = header.readUInt16LE(30);
    entries.push({
      versionNeeded: header.readUInt16LE(6),
      flags: header.readUInt16LE(8),
      crc: header.readUInt32LE(16),
      compressed: header.readUInt32LE(20),
      size: header.readUInt32LE(24),
      offset: header.readUInt32LE(42),
      name: header.subarray(46, 46 + nameLength).toString("utf8"),
      extra: header.subarray(46 + nameLength, 46 + nameLength + extraLength),
    });
    cursor += 46 + nameLength + extraLength;
  }
  expect(cursor - at(directoryStart)).toBe(directorySize);
  return { entries, zip64Record, end };
}

function localHeaderAt(zip: ZipLayout, offset: number): Buffer {
  const part = zip.parts.find(
    (candidate) => candidate.start === offset && candidate.kind === "bytes",
  );
  if (part?.kind !== "bytes") throw new Error(`no header at ${offset}`);
  return part.bytes;
}

describe("layout", () => {
  it("lays out a small archive without ZIP64: headers, sizes, offsets and total", () => {
    const entries = [fakeEntry(1, 1000), fakeEntry(2, 0), fakeEntry(3, 2500)];
    const zip = layout(entries);
    expect(zip.zip64).toBe(false);
    const nameBytes = Buffer.byteLength(nth(entries, 0).name);
    const locals = entries.reduce((sum, entry) => sum + 30 + nameBytes + entry.size, 0);
    expect(zip.total).toBe(locals + 3 * (46 + nameBytes) + 22);
    const { entries: central, zip64Record, end } = readDirectory(zip);
    expect(zip64Record).toBeUndefined();
    expect(end.readUInt16LE(8)).toBe(3);
    expect(central.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
    central.forEach((entry, index) => {
      expect(entry.flags).toBe(0x0800);
      expect(entry.versionNeeded).toBe(20);
      expect(entry.crc).toBe(nth(entries, index).crc32);
      expect(entry.size).toBe(nth(entries, index).size);
      expect(entry.compressed).toBe(nth(entries, index).size);
      expect(entry.offset).toBe(zip.offsets[index]);
      expect(entry.extra.length).toBe(0);
      const local = localHeaderAt(zip, entry.offset);
      expect(local.readUInt32LE(0)).toBe(0x04034b50);
      expect(local.readUInt16LE(6)).toBe(0x0800);
      expect(local.readUInt16LE(8)).toBe(0);
      expect(local.readUInt32LE(14)).toBe(nth(entries, index).crc32);
      expect(local.readUInt32LE(18)).toBe(nth(entries, index).size);
      expect(local.readUInt16LE(28)).toBe(0);
      expect(local.subarray(30).toString("utf8")).toBe(nth(entries, index).name);
    });
    // The parts tile the archive: each starts where the previous one ends.
    let position = 0;
    for (const part of zip.parts) {
      expect(part.start).toBe(position);
      position += part.kind === "bytes" ? part.bytes.length : part.length;
    }
    expect(position).toBe(zip.total);
  });

  it("writes ZIP64 offsets and end records for 5 GiB of entries, without any data", () => {
    const entries = [1, 2, 3, 4, 5].map((index) => fakeEntry(index, GiB));
    const zip = layout(entries);
    expect(zip.zip64).toBe(true);
    expect(zip.total).toBeGreaterThan(5 * GiB);
    const { entries: central, zip64Record, end } = readDirectory(zip);
    expect(zip64Record).toBeDefined();
    expect(Number(defined(zip64Record).readBigUInt64LE(24))).toBe(5);
    expect(defined(zip64Record).readUInt16LE(14)).toBe(45);
    expect(end.readUInt16LE(8)).toBe(0xffff);
    expect(end.readUInt32LE(12)).toBe(0xffffffff);
    expect(end.readUInt32LE(16)).toBe(0xffffffff);
    // The locator points at the ZIP64 record, right after the central directory.
    const tail = tailOf(zip);
    const locator = tail.bytes.subarray(tail.bytes.length - 42, tail.bytes.length - 22);
    expect(Number(locator.readBigUInt64LE(8))).toBe(zip.total - 22 - 20 - 56);
    expect(locator.readUInt32LE(16)).toBe(1);

    central.forEach((entry, index) => {
      const offset = nth(zip.offsets, index);
      expect(entry.size).toBe(GiB);
      expect(entry.crc).toBe(nth(entries, index).crc32);
      if (offset < 0xffffffff) {
        expect(entry.offset).toBe(offset);
        expect(entry.extra.length).toBe(0);
        expect(entry.versionNeeded).toBe(20);
      } else {
        // Only the offset overflows: the extra field holds it alone.
        expect(entry.offset).toBe(0xffffffff);
        expect(entry.versionNeeded).toBe(45);
        expect(entry.extra.readUInt16LE(0)).toBe(0x0001);
        expect(entry.extra.readUInt16LE(2)).toBe(8);
        expect(Number(entry.extra.readBigUInt64LE(4))).toBe(offset);
      }
      // Sizes under 4 GiB: the local headers need no ZIP64 field.
      expect(localHeaderAt(zip, offset).readUInt16LE(28)).toBe(0);
    });
    expect(zip.offsets[4]).toBeGreaterThanOrEqual(4 * GiB);
  });

  it("writes ZIP64 sizes in both headers for one entry of 4.5 GiB", () => {
    const entries = [fakeEntry(1, 4.5 * GiB), fakeEntry(2, 100)];
    const zip = layout(entries);
    const { entries: central } = readDirectory(zip);
    const big = nth(central, 0);
    expect(big.size).toBe(0xffffffff);
    expect(big.compressed).toBe(0xffffffff);
    expect(big.offset).toBe(0);
    expect(big.extra.readUInt16LE(2)).toBe(16);
    expect(Number(big.extra.readBigUInt64LE(4))).toBe(4.5 * GiB);
    expect(Number(big.extra.readBigUInt64LE(12))).toBe(4.5 * GiB);
    const local = localHeaderAt(zip, 0);
    expect(local.readUInt16LE(4)).toBe(45);
    expect(local.readUInt32LE(18)).toBe(0xffffffff);
    expect(local.readUInt32LE(22)).toBe(0xffffffff);
    const extra = local.subarray(30 + local.readUInt16LE(26));
    expect(extra.length).toBe(20);
    expect(Number(extra.readBigUInt64LE(4))).toBe(4.5 * GiB);
    expect(Number(extra.readBigUInt64LE(12))).toBe(4.5 * GiB);
    // The next entry starts past 4 GiB: its central offset goes to the extra field.
    const second = nth(central, 1);
    expect(second.offset).toBe(0xffffffff);
    expect(Number(second.extra.readBigUInt64LE(4))).toBe(zip.offsets[1]);
  });

  it("writes every ZIP64 field when forced, even for small entries", () => {
    const entries = [fakeEntry(1, 10), fakeEntry(2, 20)];
    const zip = layout(entries, { forceZip64: true });
    const { entries: central, zip64Record } = readDirectory(zip);
    expect(zip64Record).toBeDefined();
    central.forEach((entry, index) => {
      expect(entry.extra.readUInt16LE(2)).toBe(24);
      expect(Number(entry.extra.readBigUInt64LE(4))).toBe(nth(entries, index).size);
      expect(Number(entry.extra.readBigUInt64LE(20))).toBe(zip.offsets[index]);
    });
  });

  it("uses the ZIP64 end records from 65,535 entries", () => {
    const entries = Array.from({ length: 0xffff }, (_, index) => fakeEntry(index, 1));
    const { zip64Record } = readDirectory(layout(entries));
    expect(Number(defined(zip64Record).readBigUInt64LE(32))).toBe(0xffff);
    const fewer = readDirectory(layout(entries.slice(1)));
    expect(fewer.zip64Record).toBeUndefined();
    expect(fewer.end.readUInt16LE(10)).toBe(0xfffe);
  });
});

describe("ranges", () => {
  it("reads one range of a Range header, or none", () => {
    expect(parseRange(null, 1000)).toBeNull();
    expect(parseRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=900-5000", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
    expect(parseRange("bytes=5-1", 1000)).toBeNull();
  });

  it("maps a range onto header bytes and spans of entries", () => {
    const entries = [fakeEntry(1, 1000), fakeEntry(2, 2000), fakeEntry(3, 3000)];
    const zip = layout(entries);
    const second = nth(zip.offsets, 1);
    const secondData = second + 30 + Buffer.byteLength(nth(entries, 1).name);
    // From the last 10 bytes of the first entry to 50 bytes into the second one's data.
    const range = { start: second - 10, end: secondData + 49 };
    const slices = slicesFor(zip, range);
    expect(slices).toHaveLength(3);
    expect(slices[0]).toMatchObject({ kind: "entry", entry: entries[0], from: 990, to: 999 });
    expect(nth(slices, 1)).toEqual({ kind: "bytes", bytes: localHeaderAt(zip, second) });
    expect(slices[2]).toMatchObject({ kind: "entry", entry: entries[1], from: 0, to: 49 });
    const length = slices.reduce(
      (sum, slice) =>
        sum + (slice.kind === "bytes" ? slice.bytes.length : slice.to - slice.from + 1),
      0,
    );
    expect(length).toBe(range.end - range.start + 1);

    // Inside the central directory only.
    const tail = tailOf(zip);
    const inTail = slicesFor(zip, { start: tail.start + 5, end: tail.start + 9 });
    expect(inTail).toEqual([{ kind: "bytes", bytes: tail.bytes.subarray(5, 10) }]);
  });

  it("maps a range in the middle of a 5 GiB archive onto the right entry", () => {
    const entries = [1, 2, 3, 4, 5].map((index) => fakeEntry(index, GiB));
    const zip = layout(entries);
    const start = nth(zip.offsets, 3) + 100 + 2 * 1024 ** 2;
    const slices = slicesFor(zip, { start, end: start + 999 });
    const headerLength = nth(zip.offsets, 1) - nth(zip.offsets, 0) - GiB;
    expect(slices).toEqual([
      {
        kind: "entry",
        entry: entries[3],
        from: 100 + 2 * 1024 ** 2 - headerLength,
        to: 100 + 2 * 1024 ** 2 - headerLength + 999,
      },
    ]);
  });
});

describe("names and dates", () => {
  it("keeps the original names with the delivery format's extension", () => {
    expect(deliveryName("IMG_0012.HEIC", "jpg")).toBe("IMG_0012.jpg");
    expect(deliveryName("IMG_0012.JPG", "jpg")).toBe("IMG_0012.JPG");
    expect(deliveryName("mariée.jpeg", "jpg")).toBe("mariée.jpeg");
    expect(deliveryName("scan.png", "png")).toBe("scan.png");
    expect(deliveryName("sans extension", "jpg")).toBe("sans extension.jpg");
    expect(deliveryName("../../etc/passwd", "jpg")).toBe("etc passwd.jpg");
    expect(deliveryName("a\\b:c*?.jpg", "jpg")).toBe("a b c .jpg");
    expect(deliveryName("...", "jpg")).toBe("photo.jpg");
  });

  it("numbers duplicates « (2) », whatever their case, without taking an existing name", () => {
    expect(uniqueNames(["a.jpg", "b.jpg", "A.JPG", "a.jpg", "a (2).jpg"])).toEqual([
      "a.jpg",
      "b.jpg",
      "A (3).JPG",
      "a (4).jpg",
      "a (2).jpg",
    ]);
  });

  it("dates entries in Paris time, within the DOS range", () => {
    // 10:30 UTC on 14 June is 12:30 in Paris (summer time).
    const { date, time } = dosDateTime(modified);
    expect(date).toBe(((2026 - 1980) << 9) | (6 << 5) | 14);
    expect(time).toBe((12 << 11) | (30 << 5));
    expect(dosDateTime(new Date("1970-01-01T00:00:00Z")).date).toBe((0 << 9) | (1 << 5) | 1);
  });
});

/** A store of buffers in memory: what `zipBytes` needs of one. */
function memoryStore(objects: Map<string, Buffer>): Storage {
  return {
    async get(key: string, options?: { range?: { start: number; end?: number } }) {
      const bytes = objects.get(key);
      if (!bytes) return null;
      const start = options?.range?.start ?? 0;
      const end = options?.range?.end ?? bytes.length - 1;
      const body: ObjectBody = {
        key,
        size: bytes.length,
        etag: "x",
        lastModified: new Date(),
        contentType: "image/jpeg",
        body: Readable.from([bytes.subarray(start, end + 1)]),
      };
      return body;
    },
  } as unknown as Storage;
}

async function collect(iterable: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("zipBytes", () => {
  const files = [Buffer.from("première photo"), Buffer.alloc(3000, 7), Buffer.from("fin")];
  const entries = files.map((bytes, index) => ({
    ...fakeEntry(index, bytes.length),
    crc32: crc32(bytes),
  }));
  const store = () =>
    memoryStore(new Map(entries.map((entry, index) => [entry.key, nth(files, index)])));

  it("sends every range as the same bytes of the whole archive", async () => {
    const zip = layout(entries);
    const whole = await collect(zipBytes(zip, store()));
    expect(whole.length).toBe(zip.total);
    for (const [start, end] of [
      [0, 10],
      [40, 90],
      [nth(zip.offsets, 1) + 60, nth(zip.offsets, 2) + 5],
      [zip.total - 30, zip.total - 1],
    ] as const) {
      expect(await collect(zipBytes(zip, store(), { start, end }))).toEqual(
        whole.subarray(start, end + 1),
      );
    }
  });

  it("reads nothing ahead of its consumer, and lets go of the object when the client leaves", async () => {
    const big = Buffer.alloc(1024 * 1024, 3);
    const entry = { ...fakeEntry(1, big.length), crc32: crc32(big) };
    let body: Readable | undefined;
    const store = {
      async get() {
        // 64 KiB at a time, like a file stream.
        body = Readable.from(
          (function* () {
            for (let at = 0; at < big.length; at += 65536) yield big.subarray(at, at + 65536);
          })(),
        );
        return {
          key: entry.key,
          size: big.length,
          etag: "x",
          lastModified: modified,
          contentType: "image/jpeg",
          body,
        };
      },
    } as unknown as Storage;
    const bytes = zipBytes(layout([entry]), store);
    expect((await bytes.next()).value).toHaveLength(30 + Buffer.byteLength(entry.name));
    expect(body).toBeUndefined(); // the object is opened only when its bytes are asked for
    expect((await bytes.next()).value).toHaveLength(65536);
    await bytes.return(undefined);
    expect(body?.destroyed).toBe(true);
  });

  it("fails (never ends) when an object's length or CRC-32 is not the database's", async () => {
    const shorter = layout(
      entries.map((entry, index) => (index === 1 ? { ...entry, size: 2999 } : entry)),
    );
    await expect(collect(zipBytes(shorter, store()))).rejects.toBeInstanceOf(ZipSourceError);
    const otherCrc = layout(
      entries.map((entry, index) => (index === 2 ? { ...entry, crc32: 1 } : entry)),
    );
    await expect(collect(zipBytes(otherCrc, store()))).rejects.toThrow(/CRC-32/);
    const missing = layout([
      ...entries,
      { ...fakeEntry(9, 3), key: "galleries/g/none/original.jpg" },
    ]);
    await expect(collect(zipBytes(missing, store()))).rejects.toThrow(/missing/);
  });
});
