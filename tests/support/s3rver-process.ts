/**
 * The s3rver 3.7.1 command (same arguments), run by tests/support/s3-server.ts in a child process, with one
 * fix: its file store answers a PUT (object or part) when the bytes have passed its hashing step, before
 * the file under it is flushed, so a GET right after a PUT can read a short file (seen: a 25-byte object
 * read back as 0 bytes with 25 writes at a time). Here both writes answer once the file is complete, as any
 * real S3 does (read-after-write consistency). Nothing else of s3rver changes.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

type Store = { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
type StoreWithMetadata = Store & {
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
};

const require = createRequire(import.meta.url);
const FilesystemStore = require("s3rver/lib/stores/filesystem.js") as {
  prototype: Record<string, unknown>;
};

/** Writes `content` to `file` and resolves with its size and MD5 once the file is closed. */
async function writeHashed(content: Buffer | Readable, file: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const md5 = createHash("md5");
  let size = 0;
  await pipeline(
    Buffer.isBuffer(content) ? Readable.from([content]) : content,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        md5.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(file),
  );
  return { size, md5: md5.digest("hex") };
}

FilesystemStore.prototype.putObject = async function putObject(
  this: StoreWithMetadata,
  object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown },
) {
  const written = await writeHashed(
    object.content,
    this.getResourcePath(object.bucket, object.key, "object"),
  );
  await this.putMetadata(object.bucket, object.key, object.metadata, written.md5);
  return written;
};

FilesystemStore.prototype.putPart = async function putPart(
  this: Store,
  bucket: string,
  uploadId: string,
  partNumber: number,
  content: Readable,
) {
  const partPath = path.join(
    this.getResourcePath(bucket, undefined, "uploads"),
    uploadId,
    String(partNumber),
  );
  const written = await writeHashed(content, partPath);
  await fs.writeFile(`${partPath}.md5`, written.md5);
  return written;
};

require("s3rver/bin/s3rver.js");
