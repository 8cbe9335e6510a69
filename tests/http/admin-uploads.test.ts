import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  sessionCookieHeader,
  type TestAccount,
} from "../support/accounts";
import { serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();
let admin: TestAccount;
let cookie = "";

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
  cookie = await sessionCookieHeader(admin);
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

  // The limit was 15 MB, which refused photos straight from a camera; it is now 50 MB.
  it("refuses a file larger than 50 MB, announced or streamed without a length", async () => {
    const big = Buffer.alloc(51 * 1024 * 1024, 1);
    const tooLarge = {
      error: "Impossible d'uploader l'image",
      reason: "L'image dépasse la taille maximale de 50\u00a0Mo.",
    };
    expect(await upload(big, "enorme.jpg", "image/jpeg")).toEqual({ status: 413, body: tooLarge });

    // Without Content-Length the server counts while it streams the file to disk.
    const boundary = "----limite";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="enorme.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    );
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new Uint8Array(head));
        if (sent >= 51) {
          controller.enqueue(new Uint8Array(Buffer.from(`\r\n--${boundary}--\r\n`)));
          controller.close();
          return;
        }
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${baseUrl}/admin/images`, {
      method: "POST",
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(tooLarge);
  });

  it("accepts a 27 MB photo straight from a camera, reduced to the largest size the site shows", async () => {
    // Random noise does not compress: a 6000×4000 JPEG at quality 97 weighs what a camera's does (~27 MB).
    const width = 6000;
    const height = 4000;
    const noise = randomBytes(width * height * 3);
    const photo = await sharp(noise, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 97 })
      .withExif({ IFD0: { Make: "Appareil", Copyright: "Studio" } })
      .toBuffer();
    expect(photo.byteLength).toBeGreaterThan(20 * 1024 * 1024);
    expect(photo.byteLength).toBeLessThan(50 * 1024 * 1024);

    const { status, body } = await upload(photo, "DSC_0042.JPG", "image/jpeg");
    expect(status).toBe(201);
    const stored = await fetch(`${baseUrl}${body.url}`);
    expect(stored.status).toBe(200);
    const bytes = Buffer.from(await stored.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: "jpeg", width: 2400, height: 1600 });
    expect(metadata.exif).toBeUndefined();
    expect(bytes.byteLength).toBeLessThan(photo.byteLength / 2);
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
