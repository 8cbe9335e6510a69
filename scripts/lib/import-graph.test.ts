import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph, runtimeImports } from "./import-graph";

const app = path.resolve(import.meta.dirname, "../../app");

describe("the import graph of app/", () => {
  it("has no cycle (type-only imports aside, imports on demand included)", () => {
    const cycles = importCycles(importGraph(app)).map((cycle) =>
      cycle.map((file) => path.relative(app, file)).sort(),
    );
    expect(cycles).toEqual([]);
  });

  it("reads what a module loads: values, re-exports and import(), not types", () => {
    const source = [
      'import { a, type B } from "./values";',
      'import type { C } from "./types-only";',
      'import { type D, type E } from "./types-too";',
      'import Default, { type F } from "./default";',
      'export { g } from "./reexported";',
      'export type { H } from "./reexported-type";',
      'import "./side-effect";',
      'const later = await import("./on-demand");',
      'import { x } from "react";',
    ].join("\n");
    expect(runtimeImports(source)).toEqual([
      "./values",
      "./default",
      "./reexported",
      "./side-effect",
      "react",
      "./on-demand",
    ]);
  });

  it("finds a cycle of three modules and a module that imports itself", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(importCycles(graph).map((cycle) => cycle.sort())).toEqual([["a", "b", "c"], ["e"]]);
  });
});
