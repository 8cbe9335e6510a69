import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RATIO_MAX, RATIO_MIN, RATIO_STEP, ratioClass, ratioHundredths } from "./ratio";

const css = readFileSync(path.join(import.meta.dirname, "justified-grid.css"), "utf8");

describe("the justified grid's ratio classes", () => {
  it("exist for every step from 0.5 to 2.5 (41 classes), each with its ratio", () => {
    const steps: number[] = [];
    for (let ratio = RATIO_MIN; ratio <= RATIO_MAX; ratio += RATIO_STEP) steps.push(ratio);
    expect(steps).toHaveLength(41);
    for (const ratio of steps) {
      const value = String(ratio / 100);
      expect(css).toContain(`.ratio-${ratio} {\n  --ratio: ${value};\n}`);
    }
    expect(css.match(/\.ratio-\d+ \{/g)).toHaveLength(41);
  });

  it("rounds a photo's ratio to 0.05 and clamps it", () => {
    expect(ratioClass(1600, 1067)).toBe("ratio-150");
    expect(ratioClass(1067, 1600)).toBe("ratio-65");
    expect(ratioClass(4000, 3000)).toBe("ratio-135");
    expect(ratioHundredths(100, 1000)).toBe(50);
    expect(ratioHundredths(5000, 100)).toBe(250);
    expect(ratioHundredths(0, 0)).toBe(100);
  });
});
