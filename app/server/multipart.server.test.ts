import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MultipartError, streamFileField } from "./multipart.server";

const boundary = "----limite-de-test";
const targets: string[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((target) => fs.rm(target, { force: true })));
});

function body(file: Buffer, fileName = "photo.jpg"): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="autre"\r\n\r\nvaleur\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** A request whose body arrives in chunks of `size` bytes (delimiters fall across chunks). */
function request(bytes: Buffer, size: number): Request {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += size) {
        controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + size)));
      }
      controller.close();
    },
  });
  return new Request("http://localhost/admin/images", {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

function target(): string {
  const file = path.join(os.tmpdir(), `multipart-${randomBytes(6).toString("hex")}.part`);
  targets.push(file);
  return file;
}

describe("streamFileField", () => {
  it("writes the file field's exact bytes whatever the chunk size", async () => {
    // Bytes that look like the start of a delimiter must not end the file.
    const file = Buffer.concat([randomBytes(70_000), Buffer.from(`\r\n--${boundary.slice(0, 8)}`)]);
    for (const size of [1, 7, 64, 4096, 1_000_000]) {
      const written = target();
      const result = await streamFileField(request(body(file), size), {
        fieldName: "file",
        target: written,
        maxBytes: 1_000_000,
      });
      expect(result).toEqual({ fileName: "photo.jpg", size: file.length, fields: {} });
      expect((await fs.readFile(written)).equals(file)).toBe(true);
    }
  });

  it("keeps the text fields asked for (before or after the file), whatever the chunk size", async () => {
    const file = randomBytes(5000);
    const bytes = Buffer.concat([
      body(file).subarray(0, -`--\r\n`.length),
      Buffer.from(
        `\r\nContent-Disposition: form-data; name="alt"\r\n\r\nÉté à Ussel, « les enfants »\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="ignore"\r\n\r\nnon\r\n--${boundary}--\r\n`,
      ),
    ]);
    for (const size of [1, 5, 4096]) {
      const result = await streamFileField(request(bytes, size), {
        fieldName: "file",
        target: target(),
        maxBytes: 10_000,
        textFields: ["alt", "autre"],
      });
      expect(result).toEqual({
        fileName: "photo.jpg",
        size: file.length,
        fields: { autre: "valeur", alt: "Été à Ussel, « les enfants »" },
      });
    }
  });

  it("stops at the limit with 'too-large'", async () => {
    const promise = streamFileField(request(body(randomBytes(5000)), 512), {
      fieldName: "file",
      target: target(),
      maxBytes: 4000,
    });
    await expect(promise).rejects.toEqual(new MultipartError("too-large"));
  });

  it("refuses a body without the file field, or cut short", async () => {
    const noFile = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="autre"\r\n\r\nx\r\n--${boundary}--\r\n`,
    );
    await expect(
      streamFileField(request(noFile, 10), { fieldName: "file", target: target(), maxBytes: 100 }),
    ).rejects.toMatchObject({ reason: "no-file" });
    const cut = body(randomBytes(300)).subarray(0, 250);
    await expect(
      streamFileField(request(cut, 10), { fieldName: "file", target: target(), maxBytes: 1000 }),
    ).rejects.toMatchObject({ reason: "malformed" });
  });
});
