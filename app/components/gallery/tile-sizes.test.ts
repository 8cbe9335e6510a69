import { describe, expect, it } from "vitest";
import { heroSizes, tileSizes } from "./tile-sizes";

describe("tileSizes", () => {
  it("gives a landscape photo its width when its square tile on a phone crops its sides", () => {
    // 3:2, drawn 1.5 times as wide as the tile (50vw - 18px).
    expect(tileSizes(1600, 1067)).toBe("(min-width: 48rem) 504px, calc(75vw - 27px)");
  });

  it("gives a portrait photo the tile's width on a phone, and its row's at most in the rows", () => {
    // 1067 × 1600: tile ratio 0.65 rounded from 0.667; 224 × 1.5 × 0.667 = 224.1.
    expect(tileSizes(1067, 1600)).toBe("(min-width: 48rem) 225px, calc(50vw - 18px)");
  });

  it("counts a panorama's own ratio beyond the clamped tile's", () => {
    expect(tileSizes(4000, 1000)).toBe("(min-width: 48rem) 1344px, calc(200vw - 72px)");
  });
});

describe("heroSizes", () => {
  it("gives the cover the page's width, wider where its box crops the photo's sides", () => {
    // 3:2 in a 4:5 box on a phone: drawn 1.875 times as wide as the box.
    expect(heroSizes(1600, 1067)).toBe(
      "(min-width: 80rem) 1248px, (min-width: 48rem) calc(100vw - 32px), calc(187.4vw - 59.968px)",
    );
    expect(heroSizes(1000, 2000)).toBe(
      "(min-width: 80rem) 1248px, (min-width: 48rem) calc(100vw - 32px), calc(100vw - 32px)",
    );
  });
});
