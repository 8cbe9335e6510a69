import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  justifiedRows,
  photoRows,
  ROW_RATIO_MAX,
  ROW_RATIO_MIN,
  rowClasses,
} from "./justified-rows";

const css = readFileSync(path.join(import.meta.dirname, "justified-grid.css"), "utf8");

describe("justifiedRows", () => {
  it("puts two landscapes, or three portraits, or a landscape and a portrait on a row", () => {
    expect(justifiedRows([1.5, 1.5, 0.65, 0.65, 0.65, 1.5, 0.65, 1.5, 1.5])).toEqual([
      { rowRatio: 3, rowCount: 2 },
      { rowRatio: 3, rowCount: 2 },
      { rowRatio: 1.95, rowCount: 3 },
      { rowRatio: 1.95, rowCount: 3 },
      { rowRatio: 1.95, rowCount: 3 },
      { rowRatio: 2.15, rowCount: 2 },
      { rowRatio: 2.15, rowCount: 2 },
      { rowRatio: 3, rowCount: 2 },
      { rowRatio: 3, rowCount: 2 },
    ]);
  });

  it("gives a panorama a row of its own", () => {
    expect(justifiedRows([1.5, 2.5, 1.5])).toEqual([
      { rowRatio: 1.5, rowCount: 1 },
      { rowRatio: 2.5, rowCount: 1 },
      { rowRatio: 2.5, rowCount: 1 },
    ]);
  });

  it("keeps a short last row at a full row's height instead of stretching its photo over the width", () => {
    expect(justifiedRows([0.65])).toEqual([{ rowRatio: 2.5, rowCount: 1 }]);
    expect(justifiedRows([1.5, 1.5, 0.65])).toEqual([
      { rowRatio: 3, rowCount: 2 },
      { rowRatio: 3, rowCount: 2 },
      { rowRatio: 2.5, rowCount: 1 },
    ]);
    expect(justifiedRows([])).toEqual([]);
  });

  it("never puts more than three photos on a row", () => {
    const rows = justifiedRows([0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(rows.map((row) => row.rowCount)).toEqual([3, 3, 3, 2, 2]);
  });

  it("sums the ratios the photos are drawn at (rounded to 0.05 and clamped, as their classes)", () => {
    expect(
      photoRows([
        { width: 1600, height: 1067 },
        { width: 4000, height: 3000 },
      ]),
    ).toEqual([
      { rowRatio: 2.85, rowCount: 2 },
      { rowRatio: 2.85, rowCount: 2 },
    ]);
  });
});

describe("the rows' classes", () => {
  it("exist for every row ratio from 0.5 to 7.5 by 0.05 and for one to three photos", () => {
    for (let ratio = ROW_RATIO_MIN; ratio <= ROW_RATIO_MAX; ratio += 5) {
      expect(css).toContain(`.row-ratio-${ratio} {\n  --row-ratio: ${ratio / 100};\n}`);
    }
    expect(css.match(/\.row-ratio-\d+ \{/g)).toHaveLength(141);
    for (const count of [1, 2, 3])
      expect(css).toContain(`.row-of-${count} {\n  --row-count: ${count};\n}`);
  });

  it("name a tile's row", () => {
    expect(rowClasses({ rowRatio: 1.95, rowCount: 3 })).toBe("row-ratio-195 row-of-3");
    expect(rowClasses({ rowRatio: 3, rowCount: 2 })).toBe("row-ratio-300 row-of-2");
  });
});
