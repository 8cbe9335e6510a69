import { describe, expect, it } from "vitest";
import { csvCell } from "./csv";

describe("csvCell", () => {
  it("quotes and doubles quotes", () => {
    expect(csvCell('Elle a dit "oui"')).toBe('"Elle a dit ""oui"""');
    expect(csvCell("a;b")).toBe('"a;b"');
  });

  it("defuses what a spreadsheet would run as a formula", () => {
    for (const formula of ["=HYPERLINK(1)", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvCell(formula)).toBe(`"'${formula}"`);
    }
    expect(csvCell("IMG=1.jpg")).toBe('"IMG=1.jpg"');
  });
});
