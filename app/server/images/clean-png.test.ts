import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makeTestPng } from "../../../tests/support/photos";
import { BrokenImageError } from "./clean-jpeg";
import { cleanPng } from "./clean-png";

/** A PNG chunk of `type` holding `data`. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const check = Buffer.alloc(4);
  check.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, check]);
}

/** The PNG with metadata chunks inserted after its header, as cameras and editors write them. */
function withMetadata(png: Buffer): Buffer {
  const headerEnd = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([
    png.subarray(0, headerEnd),
    chunk("tEXt", Buffer.from("Author\0Camille Secret", "latin1")),
    chunk("eXIf", Buffer.from("MM\0*\0\0\0\x08GPS 45.5N", "latin1")),
    chunk("tIME", Buffer.from([0x07, 0xea, 6, 14, 15, 30, 0])),
    png.subarray(headerEnd),
    Buffer.from("trailing bytes after IEND"),
  ]);
}

const pixelsOf = async (file: Buffer) => crc32(await sharp(file).raw().toBuffer());

describe("cleanPng", () => {
  it("drops text, Exif and time chunks and keeps the pixels", async () => {
    const source = withMetadata(await makeTestPng({ index: 2, width: 200, height: 120 }));
    const cleaned = cleanPng(source);
    expect(cleaned.includes(Buffer.from("Camille Secret"))).toBe(false);
    expect(cleaned.includes(Buffer.from("eXIf"))).toBe(false);
    expect(cleaned.includes(Buffer.from("tIME"))).toBe(false);
    expect(cleaned.includes(Buffer.from("trailing"))).toBe(false);
    expect(await pixelsOf(cleaned)).toBe(await pixelsOf(source));
    const metadata = await sharp(cleaned).metadata();
    expect([metadata.width, metadata.height]).toEqual([200, 120]);
  });

  it("refuses a truncated or foreign file", async () => {
    const source = await makeTestPng({ index: 3, width: 200, height: 120 });
    expect(() => cleanPng(source.subarray(0, source.length - 20))).toThrow(BrokenImageError);
    expect(() => cleanPng(Buffer.from("not a png at all"))).toThrow(BrokenImageError);
  });
});
