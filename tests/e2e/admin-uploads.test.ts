import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  signInCookie,
  type TestAccount,
} from "./support/admin";
import { useBrowser } from "./support/browser";

const { baseUrl } = useBrowser();
let admin: TestAccount;
let cookie = "";

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
  cookie = await signInCookie(admin);
});
afterAll(() => deleteAccount(admin));

async function upload(bytes: Uint8Array | Buffer, name: string, type: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${baseUrl}/admin/images`, {
    method: "POST",
    headers: { cookie },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe("image uploads", () => {
  it("refuses a text file named .jpg", async () => {
    const { status, body } = await upload(
      Buffer.from("ceci n'est pas une image"),
      "photo.jpg",
      "image/jpeg",
    );
    expect(status).toBe(415);
    expect(body).toEqual({
      error: "Impossible d'uploader l'image",
      reason: "Le fichier n'est pas une image valide.",
    });
  });

  it("refuses an SVG carrying a script", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>`;
    for (const name of ["dessin.svg", "dessin.png"]) {
      const { status, body } = await upload(Buffer.from(svg), name, "image/svg+xml");
      expect(status).toBe(415);
      expect(body.error).toBe("Impossible d'uploader l'image");
      expect(body.reason).toMatch(/Format non pris en charge|pas une image valide/);
    }
  });

  it("refuses a file larger than 15 MB", async () => {
    const big = Buffer.alloc(16 * 1024 * 1024, 1);
    const { status, body } = await upload(big, "enorme.jpg", "image/jpeg");
    expect(status).toBe(413);
    expect(body).toEqual({
      error: "Impossible d'uploader l'image",
      reason: "L'image dépasse la taille maximale de 15 Mo.",
    });
  });

  it("stores a real JPEG without its GPS metadata, with AVIF and WebP variants served immutable", async () => {
    const jpeg = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .jpeg()
      .withExif({
        IFD0: { Copyright: "Studio" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 32/1 0/1" },
      })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();

    const { status, body } = await upload(jpeg, "Mariage été.JPG", "image/jpeg");
    expect(status).toBe(201);
    expect(body.url).toMatch(/^\/uploads\/blog-images\/[0-9a-f]{16}-\d{13}\.jpg$/);

    const original = await fetch(`${baseUrl}${body.url}`);
    expect(original.status).toBe(200);
    expect(original.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const stored = await sharp(Buffer.from(await original.arrayBuffer())).metadata();
    expect(stored.format).toBe("jpeg");
    expect(stored.exif).toBeUndefined();
    expect(stored.width).toBe(1200);

    for (const [width, format] of [
      [480, "avif"],
      [960, "webp"],
      [1600, "avif"],
    ] as const) {
      const variant = await fetch(
        `${baseUrl}${(body.url ?? "").replace(/\.jpg$/, `-${width}.${format}`)}`,
      );
      expect(variant.status).toBe(200);
      const metadata = await sharp(Buffer.from(await variant.arrayBuffer())).metadata();
      expect(metadata.format).toBe(format === "avif" ? "heif" : "webp");
      expect(metadata.width).toBe(Math.min(width, 1200));
    }
  });
});
