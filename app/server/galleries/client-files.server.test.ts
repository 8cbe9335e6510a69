import { describe, expect, it } from "vitest";
import { contentDisposition, downloadName } from "./client-files.server";

describe("download names", () => {
  it("gives the delivered format's extension to the uploaded name", () => {
    expect(downloadName("IMG_0012.HEIC", "jpg")).toBe("IMG_0012.jpg");
    expect(downloadName(".jpg", "jpg")).toBe("photo.jpg");
  });

  it("sends an ASCII fallback and the exact name percent-encoded as RFC 5987 asks", () => {
    expect(contentDisposition("Été (2) l'après-midi*.jpg")).toBe(
      `attachment; filename="Ete (2) l'apres-midi*.jpg"; filename*=UTF-8''%C3%89t%C3%A9%20%282%29%20l%27apr%C3%A8s-midi%2A.jpg`,
    );
    expect(contentDisposition('a"b\\c.jpg')).toBe(
      `attachment; filename="a_b_c.jpg"; filename*=UTF-8''a%22b%5Cc.jpg`,
    );
    expect(contentDisposition("Mariage.zip", "galerie.zip")).toMatch(
      /^attachment; filename="galerie.zip";/,
    );
  });
});
