import { describe, expect, it } from "vitest";
import { centsForInput, typedCents } from "./admin-words";

describe("typedCents", () => {
  it("reads euros as the owner types them", () => {
    expect(typedCents("12")).toBe(1200);
    expect(typedCents("12,5")).toBe(1250);
    expect(typedCents("12.50 €")).toBe(1250);
    expect(typedCents("1 200")).toBe(120_000);
  });
  it("refuses what is not a positive amount", () => {
    expect(typedCents("")).toBeNull();
    expect(typedCents("0")).toBeNull();
    expect(typedCents("-3")).toBeNull();
    expect(typedCents("12,345")).toBeNull();
    expect(typedCents("douze")).toBeNull();
  });
  it("writes cents back for a field", () => {
    expect(centsForInput(15_000)).toBe("150");
    expect(centsForInput(1250)).toBe("12,50");
  });
});
