import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { storeBlogImage } from "../../app/server/images/uploads.server";
import { deleteMedia, storeMedia } from "../../app/server/content/media-store.server";
import { db } from "../../app/server/db/client.server";
import { media } from "../../app/server/db/schema";
import { storage, resetStorageForTests } from "../../app/server/storage/storage.server";
import { variantUrl, VARIANT_WIDTHS } from "../../app/lib/image-variants";
import { useAppDatabase } from "../support/database";
import { makeTestJpeg } from "../support/photos";
import { startS3Server, type S3Server } from "../support/s3-server";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// Decision 0100: with S3_* set, the blog's images and the media library go to the bucket (nothing under
// DATA_DIR/uploads), and a site on that bucket serves them; a deleted photo's files leave the bucket.

let s3: S3Server;
let dataDir: string;
let server: ServerProcess | undefined;

useAppDatabase();

beforeAll(async () => {
  s3 = await startS3Server();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "storage-s3-uploads-"));
  // Read by env() on its first use, which comes after this (storage() reads it on the first upload).
  Object.assign(process.env, { DATA_DIR: dataDir, ...s3.env });
  resetStorageForTests();
});

afterAll(async () => {
  resetStorageForTests();
  await server?.stop();
  await s3?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

async function incoming(bytes: Buffer): Promise<string> {
  const file = path.join(dataDir, `upload-${Date.now()}-${Math.random()}.part`);
  await fs.writeFile(file, bytes);
  return file;
}

async function served(url: string) {
  const response = await fetch(`${server?.baseUrl}${url}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function objectBytes(key: string) {
  const object = await storage().get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of object?.body ?? []) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("uploads with S3", () => {
  it("stores a blog image and a library photo in the bucket, served by a site on it, and deletes the photo's files", async () => {
    expect(storage().kind).toBe("s3");
    const photo = await makeTestJpeg({ index: 3, width: 1200, height: 800 });

    const url = await storeBlogImage({ name: "portrait.jpg", path: await incoming(photo) });
    expect(url).toMatch(/^\/uploads\/blog-images\/[0-9a-f]{16}-\d{13}\.jpg$/);
    const blogKeys = [
      url,
      ...VARIANT_WIDTHS.flatMap((width) => [
        variantUrl(url, width, "avif"),
        variantUrl(url, width, "webp"),
      ]),
    ].map((address) => address.replace(/^\/uploads\//, ""));
    for (const key of blogKeys) expect(await storage().head(key), key).not.toBeNull();

    const id = await storeMedia(
      { name: "mariage.jpg", path: await incoming(photo) },
      { alt: "Un mariage", focal: { x: 50, y: 50 } },
    );
    const [row] = await db().select().from(media).where(eq(media.id, id));
    const file = row?.file ?? "";
    const mediaKeys: string[] = [];
    for await (const object of storage().list("media/")) mediaKeys.push(object.key);
    expect(mediaKeys.length).toBe((row?.widths.length ?? 0) * 3);
    expect(mediaKeys.every((key) => key.startsWith(`media/${file}-`))).toBe(true);
    expect(row?.bytes).toBeGreaterThan(0);

    // Nothing on the local disk but the incoming files.
    expect(await fs.readdir(dataDir).then((names) => names.includes("uploads"))).toBe(false);

    server = await startServerProcess(inject("adminDatabaseUrl"), { ...s3.env, SEED_DEMO: "0" });
    const original = await served(url);
    expect(original.status).toBe(200);
    expect(original.bytes.equals(await objectBytes(blogKeys[0] ?? ""))).toBe(true);
    const smallest = `media/${file}-${row?.widths[0]}.avif`;
    const variant = await served(`/uploads/${smallest}`);
    expect(variant.status).toBe(200);
    expect(variant.bytes.equals(await objectBytes(smallest))).toBe(true);

    expect(await deleteMedia(id)).toEqual({ status: "deleted" });
    for (const key of mediaKeys) expect(await storage().head(key), key).toBeNull();
    expect((await served(`/uploads/${smallest}`)).status).toBe(404);
  });
});
