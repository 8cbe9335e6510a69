import { describe, expect, it } from "vitest";
import { movedOrder } from "./reorder";

describe("movedOrder", () => {
  it("swaps with the neighbour, and refuses past either end or an unknown id", () => {
    expect(movedOrder(["a", "b", "c"], "b", "up")).toEqual(["b", "a", "c"]);
    expect(movedOrder(["a", "b", "c"], "b", "down")).toEqual(["a", "c", "b"]);
    expect(movedOrder(["a", "b", "c"], "a", "up")).toBeNull();
    expect(movedOrder(["a", "b", "c"], "c", "down")).toBeNull();
    expect(movedOrder(["a", "b", "c"], "x", "up")).toBeNull();
  });
});
