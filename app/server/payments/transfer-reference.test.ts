import { describe, expect, it } from "vitest";
import {
  newTransferReference,
  readTransferReference,
  TRANSFER_REFERENCE_PATTERN,
} from "./transfer-reference";

describe("transfer references", () => {
  it("are `BC-` and 4 characters a bank statement cannot confuse (no I, L, O, U)", () => {
    for (let index = 0; index < 2000; index++) {
      const reference = newTransferReference("voucher");
      expect(reference).toMatch(TRANSFER_REFERENCE_PATTERN);
      expect(reference).toMatch(/^BC-[^ILOU]{4}$/);
    }
  });

  it("are drawn over the whole alphabet, not a predictable sequence", () => {
    const seen = new Set<string>();
    const characters = new Set<string>();
    for (let index = 0; index < 2000; index++) {
      const reference = newTransferReference("voucher");
      seen.add(reference);
      for (const character of reference.slice(3)) characters.add(character);
    }
    // 2,000 draws among 32⁴ = 1,048,576: a handful of clashes at most; all 32 characters appear.
    expect(seen.size).toBeGreaterThan(1990);
    expect(characters.size).toBe(32);
  });

  it("are read back as a person types them", () => {
    expect(readTransferReference("bc-7k3q")).toBe("BC-7K3Q");
    expect(readTransferReference(" BC 7K3Q ")).toBe("BC-7K3Q");
    expect(readTransferReference("BC-7KO1")).toBe("BC-7K01");
    expect(readTransferReference("BC-7KL1")).toBe("BC-7K11");
    expect(readTransferReference("BC-7K3")).toBeNull();
    expect(readTransferReference("BC-7K3U")).toBeNull();
  });
});
