import { describe, expect, it } from "vitest";
import { formatSize } from "./sizes";

// The unit follows a non-breaking space, and Intl fr-FR groups thousands with a narrow one.
const read = (text: string) => text.replace(/\u00a0/g, "~").replace(/\u202f/g, "_");

describe("formatSize", () => {
  it("writes bytes as French readers do, with a non-breaking space before the unit", () => {
    expect(read(formatSize(850))).toBe("850~octets");
    expect(read(formatSize(0))).toBe("0~octet");
    expect(read(formatSize(1))).toBe("1~octet");
    expect(read(formatSize(1023))).toBe("1_023~octets");
    expect(read(formatSize(12 * 1024))).toBe("12~Ko");
    expect(read(formatSize(1.4 * 1024 * 1024))).toBe("1,4~Mo");
    expect(read(formatSize(2.3 * 1024 ** 3))).toBe("2,3~Go");
  });

  it("counts 1 Ko as 1 024 octets, so the product's limits read round", () => {
    expect(read(formatSize(1024))).toBe("1~Ko");
    expect(read(formatSize(50 * 1024 * 1024))).toBe("50~Mo");
    expect(read(formatSize(1_000_000))).toBe("977~Ko");
  });

  it("keeps one decimal below 10 of a unit and none above, never « 1 024 Ko »", () => {
    expect(read(formatSize(9.94 * 1024 * 1024))).toBe("9,9~Mo");
    expect(read(formatSize(12.4 * 1024 * 1024))).toBe("12~Mo");
    expect(read(formatSize(1024 * 1024 - 1))).toBe("1~Mo");
    expect(read(formatSize(5 * 1024 ** 5))).toBe("5_120~To");
    expect(read(formatSize(-3))).toBe("0~octet");
  });
});
