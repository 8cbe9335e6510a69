import { describe, expect, it } from "vitest";
import { formOutcomeMessage } from "./form-outcome";
import { claimedFormat, photoFileName, sniffFormat } from "./resumable.server";

const heif = (brand: string) =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from(`ftyp${brand}`, "latin1"),
    Buffer.alloc(4),
  ]);

describe("the formats of a gallery's uploads", () => {
  it("reads the format a file claims by its name and type", () => {
    expect(claimedFormat("IMG_0001.JPG", "image/jpeg")).toBe("jpg");
    expect(claimedFormat("scan.jpeg", "")).toBe("jpg");
    expect(claimedFormat("IMG_0002.HEIC", "")).toBe("heic");
    expect(claimedFormat("IMG_0003.heif", "image/heif")).toBe("heic");
    expect(claimedFormat("logo.png", "image/png")).toBe("png");
    // A name and a type that disagree, another format, no extension but a known type.
    expect(claimedFormat("photo.jpg", "image/png")).toBeNull();
    expect(claimedFormat("contrat.pdf", "application/pdf")).toBeNull();
    expect(claimedFormat("photo.avif", "image/avif")).toBeNull();
    expect(claimedFormat("photo", "image/jpeg")).toBe("jpg");
    expect(claimedFormat("photo", "")).toBeNull();
  });

  it("knows JPEG, PNG and HEIF by their first bytes, and nothing else", () => {
    expect(sniffFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0, 0]))).toBe("jpg");
    expect(sniffFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      "png",
    );
    expect(sniffFormat(heif("heic"))).toBe("heic");
    expect(sniffFormat(heif("mif1"))).toBe("heic");
    expect(sniffFormat(heif("avif"))).toBeNull();
    expect(sniffFormat(Buffer.from("<html>"))).toBeNull();
    expect(sniffFormat(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffFormat(Buffer.alloc(0))).toBeNull();
  });

  it("turns only known words of the address into the form's message", () => {
    expect(formOutcomeMessage("format")).toEqual({
      ok: false,
      text: "Format non pris en charge : JPEG, HEIC ou PNG.",
    });
    expect(formOutcomeMessage("ok")?.ok).toBe(true);
    expect(formOutcomeMessage("toString")).toBeNull();
    expect(formOutcomeMessage("<script>")).toBeNull();
  });
});

describe("a photo's name from a plain form", () => {
  it("keeps the last path part, without control characters, composed, 255 characters at most", () => {
    expect(photoFileName("IMG_0001.JPG")).toBe("IMG_0001.JPG");
    expect(photoFileName("..\\..\\windows\\IMG_0002.jpg")).toBe("IMG_0002.jpg");
    expect(photoFileName("../../etc/IMG_0003.jpg")).toBe("IMG_0003.jpg");
    expect(photoFileName("IMG\u0000_00\u001b04.jpg\r\n")).toBe("IMG_0004.jpg");
    expect(photoFileName(" e\u0301te\u0301.heic ")).toBe("été.heic");
    expect(photoFileName(`${"a".repeat(300)}.jpg`)).toHaveLength(255);
    expect(photoFileName("dossier/")).toBe("");
  });
});
