import { describe, expect, it } from "vitest";
import { compactIban, formatIban, isValidIban } from "./iban";

// Published example IBANs (SWIFT's IBAN registry and the banks' documentation): their check digits hold.
const VALID = [
  "FR76 3000 6000 0112 3456 7890 189",
  "FR14 2004 1010 0505 0001 3M02 606",
  "DE89 3704 0044 0532 0130 00",
  "BE68 5390 0754 7034",
  "GB82 WEST 1234 5698 7654 32",
  "CH93 0076 2011 6238 5295 7",
  "MT84 MALT 0110 0001 2345 MTLC AST0 01S",
];

describe("isValidIban", () => {
  it.each(VALID)("accepts %s, however it is typed", (iban) => {
    expect(isValidIban(iban)).toBe(true);
    expect(isValidIban(iban.toLowerCase().replaceAll(" ", ""))).toBe(true);
    expect(isValidIban(iban.replaceAll(" ", "-"))).toBe(true);
  });

  it("refuses every single wrong digit of a French IBAN", () => {
    const iban = compactIban(VALID[0] ?? "");
    for (let index = 2; index < iban.length; index += 1) {
      const character = iban.charAt(index);
      if (!/\d/.test(character)) continue;
      const changed = `${iban.slice(0, index)}${(Number(character) + 1) % 10}${iban.slice(index + 1)}`;
      expect(isValidIban(changed), changed).toBe(false);
    }
  });

  it("refuses a French IBAN of the wrong length, and what is not an IBAN", () => {
    expect(isValidIban("FR76 3000 6000 0112 3456 7890 18")).toBe(false);
    expect(isValidIban("")).toBe(false);
    expect(isValidIban("3000 6000 0112 3456 7890 189")).toBe(false);
    expect(isValidIban("FR76 3000 6000 0112 3456 7890 18é")).toBe(false);
  });
});

describe("formatIban", () => {
  it("groups by four, as a bank statement prints it", () => {
    expect(formatIban("fr7630006000011234567890189")).toBe("FR76 3000 6000 0112 3456 7890 189");
  });
});
