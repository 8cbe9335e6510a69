import { describe, expect, test } from "vitest";
import { countNewlines } from "./backup.server";

describe("countNewlines", () => {
  test("counts every newline of a chunk, at its edges too, and nothing else", () => {
    expect(countNewlines(Buffer.from(""))).toBe(0);
    expect(countNewlines(Buffer.from("sans fin de ligne"))).toBe(0);
    expect(countNewlines(Buffer.from("\nune\tligne\r\ndeux\n\n"))).toBe(4);
    const bytes = Buffer.alloc(70_000, 0x41);
    for (const at of [0, 1, 65_535, 65_536, 69_999]) bytes[at] = 10;
    expect(countNewlines(bytes)).toBe(5);
  });
});
