import { describe, expect, it } from "vitest";
import { heroSizes, tileSizes } from "./tile-sizes";

// On a phone each photo is whole, as wide as its share of its row (decision 0134, justified-rows.ts).
describe("tileSizes", () => {
  it("gives a landscape photo its share of a phone's row", () => {
    // 3:2 beside another: half the page (100vw less 2 × 16 px of padding).
    expect(tileSizes(1600, 1067, { rowRatio: 3, rowCount: 2 })).toBe(
      "(min-width: 48rem) 504px, calc(50vw - 16px)",
    );
  });

  it("gives a portrait photo its share of a phone's row, and its row's at most in the rows", () => {
    // 1067 × 1600: tile ratio 0.65 rounded from 0.667, a third of a row of three portraits (1.95);
    // drawn 0.667 / 0.65 times as wide as its tile. 224 × 1.5 × 0.667 = 224.1.
    expect(tileSizes(1067, 1600, { rowRatio: 1.95, rowCount: 3 })).toBe(
      "(min-width: 48rem) 225px, calc(34.2vw - 10.944px)",
    );
  });

  it("counts a panorama's own ratio beyond the clamped tile's", () => {
    expect(tileSizes(4000, 1000, { rowRatio: 2.5, rowCount: 1 })).toBe(
      "(min-width: 48rem) 1344px, calc(160vw - 51.2px)",
    );
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
