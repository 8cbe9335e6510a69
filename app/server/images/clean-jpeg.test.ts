import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hasGps, makeTestJpeg } from "../../../tests/support/photos";
import { BrokenImageError, cleanJpeg, exifOrientation, orientationSegment } from "./clean-jpeg";

const pixelsOf = async (file: Buffer) =>
  crc32((await sharp(file).raw().toBuffer({ resolveWithObject: true })).data);

describe("cleanJpeg", () => {
  it("drops the GPS position, keeps the capture date, the camera, the pixels and the orientation", async () => {
    const source = await makeTestJpeg({ index: 3, width: 640, height: 427, orientation: 6 });
    expect(await hasGps(source)).toBe(true);

    const { jpeg, orientation } = cleanJpeg(source);

    expect(orientation).toBe(6);
    expect(await hasGps(jpeg)).toBe(false);
    const exif = (await sharp(jpeg).metadata()).exif ?? Buffer.alloc(0);
    for (const kept of ["Studio Test", "2026:06:14 15:30:00", "2026:06:14 15:29:58"]) {
      expect(exif.includes(Buffer.from(kept)), kept).toBe(true);
    }
    const before = await sharp(source).metadata();
    const after = await sharp(jpeg).metadata();
    expect(after.orientation).toBe(6);
    expect(after.autoOrient).toEqual({ width: 427, height: 640 });
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    // The same compressed scans: exactly the same decoded pixels.
    expect(await pixelsOf(jpeg)).toBe(await pixelsOf(source));
    expect(jpeg.length).toBeLessThan(source.length);
  });

  it("keeps an upright photo's Exif without its position, and its colour profile", async () => {
    const source = await sharp(await makeTestJpeg({ index: 4, width: 320, height: 200 }))
      .withIccProfile("p3")
      .withExif({
        IFD0: { Make: "Studio Test" },
        IFD2: { DateTimeOriginal: "2026:07:01 11:00:00", ExposureTime: "1/250" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 32/1 0/1" },
      })
      .jpeg()
      .toBuffer();
    expect(await hasGps(source)).toBe(true);
    const { jpeg, orientation } = cleanJpeg(source);
    expect(orientation).toBe(1);
    const metadata = await sharp(jpeg).metadata();
    expect(await hasGps(jpeg)).toBe(false);
    expect(metadata.exif?.includes(Buffer.from("2026:07:01 11:00:00"))).toBe(true);
    expect(metadata.icc?.length).toBe((await sharp(source).metadata()).icc?.length);
    expect(await pixelsOf(jpeg)).toBe(await pixelsOf(source));
  });

  it("keeps a progressive JPEG's scans and drops what follows the end of the image", async () => {
    const source = await sharp(await makeTestJpeg({ index: 5, width: 300, height: 300 }))
      .jpeg({ progressive: true })
      .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 32/1 0/1" } })
      .toBuffer();
    // A secondary image after the end (as MPF writes), with its own GPS position.
    const trailer = await makeTestJpeg({ index: 6, width: 64, height: 64 });
    const { jpeg } = cleanJpeg(Buffer.concat([source, trailer]));
    expect(jpeg.length).toBeLessThan(source.length);
    expect(await hasGps(jpeg)).toBe(false);
    expect(await pixelsOf(jpeg)).toBe(await pixelsOf(source));
  });

  it("refuses a truncated or foreign file", async () => {
    const source = await makeTestJpeg({ index: 7, width: 320, height: 200 });
    expect(() => cleanJpeg(source.subarray(0, Math.floor(source.length / 2)))).toThrow(
      BrokenImageError,
    );
    expect(() => cleanJpeg(source.subarray(0, 300))).toThrow(BrokenImageError);
    expect(() => cleanJpeg(Buffer.from("GIF89a not a jpeg"))).toThrow(BrokenImageError);
  });

  it("reads and writes the orientation tag in both byte orders", () => {
    for (const orientation of [1, 3, 6, 8]) {
      expect(exifOrientation(orientationSegment(orientation))).toBe(orientation);
    }
    const little = Buffer.from(orientationSegment(1));
    little.write("II", 10, "latin1");
    little.writeUInt16LE(42, 12);
    little.writeUInt32LE(8, 14);
    little.writeUInt16LE(1, 18);
    little.writeUInt16LE(0x0112, 20);
    little.writeUInt16LE(3, 22);
    little.writeUInt32LE(1, 24);
    little.writeUInt16LE(8, 28);
    expect(exifOrientation(little)).toBe(8);
  });
});
