import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hasGps } from "../../../tests/support/photos";
import { exifOrientation, orientationSegment } from "./clean-jpeg";
import { exifWithoutLocation } from "./exif-without-location";
import { heifExifSegment, uprightExif } from "./heif-exif";

/*
 * photo-exif.heic: tests/support/photos.ts makeTestJpeg({ index: 3, width: 320, height: 240 }) (a camera's
 * Exif: make, model, capture date, exposure, GPS), encoded by libheif's heif-enc 1.19, which carries the
 * JPEG's Exif into the HEIC's `Exif` item. photo.heic has none.
 */
const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "../../../tests/fixtures", name));

/** A small JPEG carrying `segment` after its start, to read it back with sharp. */
async function jpegWith(segment: Buffer): Promise<Buffer> {
  const jpeg = await sharp({
    create: { width: 8, height: 8, channels: 3, background: "#808080" },
  })
    .jpeg()
    .toBuffer();
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

describe("heifExifSegment", () => {
  it("reads a HEIC's Exif item as an APP1 segment: the capture date and camera, and its GPS", async () => {
    const segment = heifExifSegment(fixture("photo-exif.heic"));
    expect(segment?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xe1]));
    const exif = (await sharp(await jpegWith(segment ?? Buffer.alloc(0))).metadata()).exif;
    expect(exif?.toString("latin1")).toContain("2026:06:14 15:29:58");
    expect(exif?.toString("latin1")).toContain("Studio Test");
    expect(await hasGps(await jpegWith(segment ?? Buffer.alloc(0)))).toBe(true);

    // What the delivery JPEG gets: everything but the location.
    const kept = exifWithoutLocation(segment ?? Buffer.alloc(0));
    const delivered = await jpegWith(kept ?? Buffer.alloc(0));
    expect(await hasGps(delivered)).toBe(false);
    expect((await sharp(delivered).metadata()).exif?.toString("latin1")).toContain(
      "2026:06:14 15:29:58",
    );
  });

  it("finds nothing in a HEIC without Exif, nor in a file that is not one", () => {
    expect(heifExifSegment(fixture("photo.heic"))).toBeUndefined();
    expect(heifExifSegment(Buffer.from("pas une image"))).toBeUndefined();
    const truncated = fixture("photo-exif.heic").subarray(0, 200);
    expect(heifExifSegment(truncated)).toBeUndefined();
  });

  it("says upright for pixels the decoder already turned", () => {
    const turned = orientationSegment(6);
    expect(exifOrientation(turned)).toBe(6);
    expect(exifOrientation(uprightExif(turned))).toBe(1);
  });
});
