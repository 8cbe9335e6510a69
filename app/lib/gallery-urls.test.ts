import { describe, expect, it } from "vitest";
import { GALLERY_UNBOUGHT_MAX_WIDTH, galleryWidthsFor, unboughtWidths } from "./gallery-urls";

describe("the web sizes of a gallery photo", () => {
  it("are the steps below the photo and its own width up to 2400 px", () => {
    expect(galleryWidthsFor(4000)).toEqual([480, 960, 1600, 2400]);
    expect(galleryWidthsFor(1067)).toEqual([480, 960, 1067]);
  });

  it("give a photo narrower than the smallest step a size below its own too", () => {
    expect(galleryWidthsFor(320)).toEqual([160, 320]);
  });

  it("show a photo to buy only below its original's width, and at most 1600 px", () => {
    for (const width of [320, 500, 1067, 1600, 2000, 2400, 6000]) {
      const shown = unboughtWidths(width, galleryWidthsFor(width));
      expect(shown.length).toBeGreaterThan(0);
      expect(Math.max(...shown)).toBeLessThan(width);
      expect(Math.max(...shown)).toBeLessThanOrEqual(GALLERY_UNBOUGHT_MAX_WIDTH);
    }
    expect(unboughtWidths(2400, galleryWidthsFor(2400))).toEqual([480, 960, 1600]);
  });
});
