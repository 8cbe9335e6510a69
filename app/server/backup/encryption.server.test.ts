import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { decryptStream, encryptStream, isEncrypted, WrongKeyError } from "./encryption.server";

async function through(stream: NodeJS.ReadWriteStream, input: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const source = Readable.from([input.subarray(0, 1000), input.subarray(1000)]);
  source.pipe(stream as unknown as NodeJS.WritableStream);
  for await (const chunk of stream as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const KEY = "une phrase de passe assez longue pour les sauvegardes";
const PLAIN = randomBytes(200_000);

describe("encrypted backups", () => {
  it("open with their key, and show nothing of what they hold", async () => {
    const sealed = await through(encryptStream(KEY), PLAIN);
    expect(isEncrypted(sealed)).toBe(true);
    expect(sealed.includes(PLAIN.subarray(5_000, 5_032))).toBe(false);
    expect((await through(decryptStream(KEY), sealed)).equals(PLAIN)).toBe(true);
    // An empty archive is sealed too (one last, empty piece).
    expect(
      (await through(decryptStream(KEY), await through(encryptStream(KEY), Buffer.alloc(0))))
        .length,
    ).toBe(0);
  });

  it("refuse a wrong key, a changed byte, a missing end and swapped pieces", async () => {
    const sealed = await through(encryptStream(KEY), PLAIN);
    await expect(
      through(decryptStream("une autre phrase de passe, pas la bonne"), sealed),
    ).rejects.toBeInstanceOf(WrongKeyError);
    const changed = Buffer.from(sealed);
    changed[100_000] = (changed[100_000] ?? 0) ^ 1;
    await expect(through(decryptStream(KEY), changed)).rejects.toBeInstanceOf(WrongKeyError);
    // Cut after whole pieces: every piece kept opens, but the last one is missing.
    const header = 29 + 16 + 8;
    const piece = 4 + 64 * 1024 + 16;
    await expect(
      through(decryptStream(KEY), sealed.subarray(0, header + 2 * piece)),
    ).rejects.toThrow("archive cut short");
    const swapped = Buffer.concat([
      sealed.subarray(0, header),
      sealed.subarray(header + piece, header + 2 * piece),
      sealed.subarray(header, header + piece),
      sealed.subarray(header + 2 * piece),
    ]);
    await expect(through(decryptStream(KEY), swapped)).rejects.toBeInstanceOf(WrongKeyError);
  });
});
