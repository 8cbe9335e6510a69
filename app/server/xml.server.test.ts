import { describe, expect, it } from "vitest";
import { escapeXml } from "./xml.server";

describe("escapeXml", () => {
  it("escapes the five XML special characters", () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe("a &amp; b &lt; c &gt; d &quot; e &apos; f");
  });

  it("drops control characters XML 1.0 forbids but keeps tabs, new lines and accents", () => {
    expect(escapeXml("Été\u0000\u0008\t\nNoël\u001F")).toBe("Été\t\nNoël");
  });
});
