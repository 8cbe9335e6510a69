import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageDrivers, type StorageUnderTest } from "../../../tests/support/storage-drivers";
import { startS3Server, type S3Server } from "../../../tests/support/s3-server";
import { s3Storage } from "./s3.server";
import type { ObjectBody } from "./types";

/**
 * The storage contract (types.ts), the same for the local disk and a real S3-compatible server: what one
 * driver does, the other must do, byte for byte.
 */

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(object: ObjectBody | null): Promise<Buffer> {
  if (!object) throw new Error("object missing");
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `bytes` in uneven pieces, as a request body arrives. */
const streamOf = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 65_537) yield bytes.subarray(at, at + 65_537);
    })(),
  );

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(run));
  }
}

describe.each(storageDrivers)("storage: $kind", ({ kind, start }) => {
  let store: StorageUnderTest;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(async () => {
    await store?.stop();
  });

  it("is the driver it says", () => {
    expect(store.storage.kind).toBe(kind);
  });

  it("writes a Buffer and reads the same bytes back, with its size, type and ETag", async () => {
    const bytes = randomBytes(20_000);
    const written = await store.storage.put("blog-images/photo.jpg", bytes, {
      contentType: "image/jpeg",
    });
    expect(written).toMatchObject({ key: "blog-images/photo.jpg", size: 20_000 });
    expect(written.etag).not.toBe("");

    const head = await store.storage.head("blog-images/photo.jpg");
    expect(head).toMatchObject({ key: "blog-images/photo.jpg", size: 20_000 });
    expect(head?.contentType).toBe("image/jpeg");
    expect(head?.etag).toBe(written.etag);
    expect(head?.lastModified).toBeInstanceOf(Date);

    const read = await store.storage.get("blog-images/photo.jpg");
    expect(read?.range).toBeUndefined();
    expect(read?.size).toBe(20_000);
    expect(read?.etag).toBe(written.etag);
    expect(sha256(await bytesOf(read))).toBe(sha256(bytes));
  });

  it("writes a stream of known length byte for byte (no checksum framing stored with it)", async () => {
    const bytes = randomBytes(1_000_000 + 7);
    const written = await store.storage.put("media/stream-800.webp", streamOf(bytes), {
      contentType: "image/webp",
      contentLength: bytes.length,
    });
    expect(written.size).toBe(bytes.length);
    const read = await bytesOf(await store.storage.get("media/stream-800.webp"));
    expect(read.length).toBe(bytes.length);
    expect(sha256(read)).toBe(sha256(bytes));
    expect((await store.storage.head("media/stream-800.webp"))?.contentType).toBe("image/webp");
  });

  it("refuses a stream without its length, and a Buffer whose announced length is wrong", async () => {
    await expect(
      store.storage.put("media/unknown-length.jpg", streamOf(randomBytes(10)), {
        contentType: "image/jpeg",
      }),
    ).rejects.toThrow(/contentLength/);
    await expect(
      store.storage.put("media/wrong-length.jpg", randomBytes(10), {
        contentType: "image/jpeg",
        contentLength: 11,
      }),
    ).rejects.toThrow(/announced/);
    expect(await store.storage.head("media/unknown-length.jpg")).toBeNull();
    expect(await store.storage.head("media/wrong-length.jpg")).toBeNull();
  });

  it("answers null for an object that does not exist", async () => {
    expect(await store.storage.head("media/absent.jpg")).toBeNull();
    expect(await store.storage.get("media/absent.jpg")).toBeNull();
    expect(await store.storage.get("media/absent.jpg", { range: { start: 0, end: 1 } })).toBeNull();
  });

  it("reads ranges: inclusive ends, open ends, ends past the object, and refuses a start past it", async () => {
    await store.storage.put("media/range.txt", Buffer.from("hello world"), {
      contentType: "text/plain",
    });
    const first = await store.storage.get("media/range.txt", { range: { start: 0, end: 4 } });
    expect(first?.range).toEqual({ start: 0, end: 4 });
    expect(first?.size).toBe(11);
    expect((await bytesOf(first)).toString()).toBe("hello");

    const rest = await store.storage.get("media/range.txt", { range: { start: 6 } });
    expect(rest?.range).toEqual({ start: 6, end: 10 });
    expect((await bytesOf(rest)).toString()).toBe("world");

    const past = await store.storage.get("media/range.txt", { range: { start: 9, end: 500 } });
    expect(past?.range).toEqual({ start: 9, end: 10 });
    expect((await bytesOf(past)).toString()).toBe("ld");

    await expect(
      store.storage.get("media/range.txt", { range: { start: 11 } }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      store.storage.get("media/range.txt", { range: { start: 5, end: 2 } }),
    ).rejects.toBeInstanceOf(RangeError);
  });

  it("deletes objects, missing ones included", async () => {
    await store.storage.put("media/gone-1.jpg", Buffer.from("1"), { contentType: "image/jpeg" });
    await store.storage.put("media/gone-2.jpg", Buffer.from("2"), { contentType: "image/jpeg" });
    await store.storage.delete(["media/gone-1.jpg", "media/gone-2.jpg", "media/never-there.jpg"]);
    expect(await store.storage.head("media/gone-1.jpg")).toBeNull();
    expect(await store.storage.head("media/gone-2.jpg")).toBeNull();
    await store.storage.delete([]);
  });

  it("lists a prefix in key order, past 1,000 keys, then deletes it all (twice is fine)", async () => {
    const keys = Array.from(
      { length: 1_500 },
      (_, index) => `galleries/g1/p${String(index % 7)}/k${String(index).padStart(4, "0")}.jpg`,
    );
    const shuffled = [...keys].sort(() => Math.random() - 0.5);
    await inBatches(shuffled, 25, (key) =>
      store.storage.put(key, Buffer.from(key), { contentType: "image/jpeg" }),
    );
    // Neighbours that share the prefix's letters but not the prefix itself.
    await store.storage.put("galleries/g10/kept.jpg", Buffer.from("x"), {
      contentType: "image/jpeg",
    });
    await store.storage.put("galleries/g1.jpg", Buffer.from("x"), { contentType: "image/jpeg" });

    const listed: string[] = [];
    for await (const object of store.storage.list("galleries/g1/")) {
      listed.push(object.key);
      expect(object.size).toBe(object.key.length);
    }
    expect(listed).toEqual([...keys].sort((a, b) => (a < b ? -1 : 1)));

    expect(await store.storage.deletePrefix("galleries/g1/")).toBe(1_500);
    expect(await store.storage.deletePrefix("galleries/g1/")).toBe(0);
    const left: string[] = [];
    for await (const object of store.storage.list("galleries/")) left.push(object.key);
    expect(left).toEqual(["galleries/g1.jpg", "galleries/g10/kept.jpg"]);
  });

  it("assembles a multipart upload of 8 MiB, 8 MiB and 1 byte, part 2 sent twice", async () => {
    const parts = [randomBytes(8 * 1024 * 1024), randomBytes(8 * 1024 * 1024), randomBytes(1)];
    const whole = Buffer.concat(parts);
    const key = "galleries/g2/p1/upload.jpg";
    const uploadId = await store.storage.startMultipart(key, "image/jpeg");

    const [one, two, three] = parts as [Buffer, Buffer, Buffer];
    const etag1 = await store.storage.putPart(key, uploadId, 1, streamOf(one), one.length);
    // The first try of part 2 carried other bytes (a connection cut, a resent chunk): the retry wins.
    await store.storage.putPart(key, uploadId, 2, randomBytes(two.length), two.length);
    const etag2 = await store.storage.putPart(key, uploadId, 2, streamOf(two), two.length);
    const etag3 = await store.storage.putPart(key, uploadId, 3, three, 1);
    expect(await store.storage.head(key)).toBeNull();

    const written = await store.storage.completeMultipart(key, uploadId, [
      { part: 3, etag: etag3 },
      { part: 1, etag: etag1 },
      { part: 2, etag: etag2 },
    ]);
    expect(written.size).toBe(whole.length);
    const read = await bytesOf(await store.storage.get(key));
    expect(read.length).toBe(whole.length);
    expect(sha256(read)).toBe(sha256(whole));
  });

  it("aborts an unfinished upload: no object appears", async () => {
    const key = "galleries/g3/p1/upload.jpg";
    const uploadId = await store.storage.startMultipart(key, "image/jpeg");
    await store.storage.putPart(key, uploadId, 1, randomBytes(1024), 1024);
    await store.storage.abortMultipart(key, uploadId);
    await store.storage.abortMultipart(key, uploadId);
    expect(await store.storage.head(key)).toBeNull();
    if (kind === "local") {
      expect(await fs.readdir(`${store.dataDir}/incoming-uploads/parts`)).toEqual([]);
    }
  });

  it("hands a local file with the object's bytes to sharp-like readers", async () => {
    const bytes = randomBytes(50_000);
    await store.storage.put("galleries/g4/p1/original.jpg", bytes, { contentType: "image/jpeg" });
    let seen = "";
    const result = await store.storage.withLocalFile(
      "galleries/g4/p1/original.jpg",
      async (file) => {
        seen = file;
        expect(sha256(await fs.readFile(file))).toBe(sha256(bytes));
        return 42;
      },
    );
    expect(result).toBe(42);
    // A temporary copy is removed afterwards; the local disk gives the file itself.
    expect(existsSync(seen)).toBe(kind === "local");
    await expect(
      store.storage.withLocalFile("galleries/g4/p1/absent.jpg", async () => 0),
    ).rejects.toThrow(/does not exist/);
  });

  it.each([
    "../outside.jpg",
    "/etc/passwd",
    "media/../../outside.jpg",
    "media//double.jpg",
    "media/./dot.jpg",
    "Media/Upper.JPG",
    "media/space name.jpg",
    "",
  ])("refuses the key %j", async (key) => {
    const type = { contentType: "image/jpeg" };
    await expect(store.storage.put(key, Buffer.from("x"), type)).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(store.storage.get(key)).rejects.toThrow(/Invalid storage key/);
    await expect(store.storage.head(key)).rejects.toThrow(/Invalid storage key/);
    await expect(store.storage.delete([key])).rejects.toThrow(/Invalid storage key/);
    await expect(store.storage.startMultipart(key, "image/jpeg")).rejects.toThrow(
      /Invalid storage key/,
    );
  });

  it("refuses prefixes that could leave the store", async () => {
    await expect(store.storage.deletePrefix("../")).rejects.toThrow(/Invalid storage key/);
    await expect(store.storage.deletePrefix("media")).rejects.toThrow(/must end with/);
    const listing = async () => {
      for await (const _ of store.storage.list("../")) return;
    };
    await expect(listing()).rejects.toThrow(/Invalid storage key/);
    const listingWithoutSlash = async () => {
      for await (const _ of store.storage.list("media")) return;
    };
    await expect(listingWithoutSlash()).rejects.toThrow(/must end with/);
    // The whole store can be listed (the migration and checks do), never deleted at once.
    await expect(store.storage.deletePrefix("")).rejects.toThrow(/must end with/);
    const all: string[] = [];
    for await (const object of store.storage.list("")) all.push(object.key);
    expect(all).toContain("media/stream-800.webp");
    expect(all).toEqual([...all].sort((a, b) => (a < b ? -1 : 1)));
  });
});

describe("storage: s3 with S3_PREFIX", () => {
  let server: S3Server;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const store = (prefix?: string) =>
    s3Storage({
      endpoint: server.env.S3_ENDPOINT,
      bucket: server.env.S3_BUCKET,
      region: server.env.S3_REGION,
      accessKeyId: server.env.S3_ACCESS_KEY_ID,
      secretAccessKey: server.env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
      prefix,
      temporaryDirectory: os.tmpdir(),
    });

  it("keeps a site's keys under its prefix, and deletes nothing of its neighbours", async () => {
    const whole = store();
    const siteA = store("site-a");
    const siteB = store("site-b/");
    const type = { contentType: "image/jpeg" };
    await siteA.put("media/x-400.jpg", Buffer.from("a"), type);
    await siteB.put("media/x-400.jpg", Buffer.from("bb"), type);

    const keys: string[] = [];
    for await (const object of whole.list("")) keys.push(object.key);
    expect(keys).toEqual(["site-a/media/x-400.jpg", "site-b/media/x-400.jpg"]);

    const listed: string[] = [];
    for await (const object of siteA.list("media/")) listed.push(object.key);
    expect(listed).toEqual(["media/x-400.jpg"]);
    expect((await siteA.head("media/x-400.jpg"))?.size).toBe(1);

    expect(await siteA.deletePrefix("media/")).toBe(1);
    expect(await siteA.head("media/x-400.jpg")).toBeNull();
    expect((await siteB.head("media/x-400.jpg"))?.size).toBe(2);
  });
});
