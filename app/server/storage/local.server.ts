import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomUUID } from "node:crypto";
import { checkKey, checkPrefix, contentTypeOf } from "./keys";
import type { ByteRange, ObjectInfo, Storage } from "./types";

/**
 * The local disk: `{root}/{key}`, the layout the site always had (DATA_DIR/uploads), so nothing moves for
 * existing sites. Writes go to a temporary name in the same folder, then a rename: a reader sees the old file
 * or the whole new one. Parts of an upload wait in `{partsRoot}/{uploadId}/` until it completes.
 */
export function localStorage(options: { root: string; partsRoot: string }): Storage {
  const { root, partsRoot } = options;
  const file = (key: string) => path.join(root, checkKey(key));
  const partsDirectory = (uploadId: string) => {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new Error(`Invalid upload id: ${uploadId}`);
    return path.join(partsRoot, uploadId);
  };

  async function info(key: string): Promise<ObjectInfo | null> {
    try {
      const stats = await fs.stat(file(key));
      if (!stats.isFile()) return null;
      return describe(key, stats);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** The folder of a prefix: `media/` or `galleries/{id}/` (a whole folder: keys never end in `/`). */
  function prefixDirectory(prefix: string) {
    return prefix === "" ? root : path.join(root, checkPrefix(prefix).slice(0, -1));
  }

  async function* list(prefix: string): AsyncGenerator<ObjectInfo> {
    const directory = prefixDirectory(prefix);
    let names: string[];
    try {
      names = await fs.readdir(directory, { recursive: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    // Key order as S3 gives it (bytes of the whole key; keys are ASCII, so code units compare the same).
    const keys = names
      .filter((name) => !name.includes(".tmp-"))
      .map((name) => `${prefix}${name.split(path.sep).join("/")}`)
      .filter(isValidKey)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of keys) {
      const found = await info(key);
      if (found) yield found;
    }
  }

  async function writeAtomically(key: string, write: (temporary: string) => Promise<void>) {
    const target = file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.tmp-${randomUUID()}`;
    try {
      await write(temporary);
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
    const written = await info(key);
    if (!written) throw new Error(`Storage: ${key} vanished after writing`);
    return written;
  }

  return {
    kind: "local",

    async put(key, body, { contentLength }) {
      // As S3 needs it (types.ts): a caller that forgot it fails here too, not only in production.
      if (!Buffer.isBuffer(body) && contentLength === undefined) {
        throw new Error(`Storage: ${key} needs its contentLength`);
      }
      return writeAtomically(key, async (temporary) => {
        if (Buffer.isBuffer(body)) {
          await fs.writeFile(temporary, body);
        } else {
          await pipeline(body, createWriteStream(temporary));
        }
        if (contentLength !== undefined) {
          const { size } = await fs.stat(temporary);
          if (size !== contentLength) {
            throw new Error(`Storage: ${key} received ${size} bytes, ${contentLength} announced`);
          }
        }
      });
    },

    async get(key, options = {}) {
      const found = await info(key);
      if (!found) return null;
      const range = resolveRange(options.range, found.size);
      const body = createReadStream(file(key), range ?? {});
      return range ? { ...found, body, range } : { ...found, body };
    },

    head: info,

    async delete(keys) {
      await Promise.all(keys.map((key) => fs.rm(file(key), { force: true })));
    },

    async deletePrefix(prefix) {
      const directory = prefixDirectory(checkPrefix(prefix));
      let count = 0;
      for await (const _ of list(prefix)) count += 1;
      await fs.rm(directory, { recursive: true, force: true });
      return count;
    },

    list,

    async startMultipart(key) {
      checkKey(key);
      const uploadId = randomUUID();
      await fs.mkdir(partsDirectory(uploadId), { recursive: true });
      return uploadId;
    },

    async putPart(key, uploadId, part, body, length) {
      checkKey(key);
      const directory = partsDirectory(uploadId);
      const target = path.join(directory, String(part));
      const temporary = `${target}.tmp-${randomUUID()}`;
      try {
        await pipeline(
          Buffer.isBuffer(body) ? Readable.from([body]) : body,
          createWriteStream(temporary),
        );
        const { size } = await fs.stat(temporary);
        if (size !== length)
          throw new Error(`Storage: part ${part} has ${size} bytes, ${length} announced`);
        await fs.rename(temporary, target);
        return `${part}-${size}`;
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },

    async completeMultipart(key, uploadId, parts) {
      const directory = partsDirectory(uploadId);
      const ordered = [...parts].sort((a, b) => a.part - b.part);
      const written = await writeAtomically(key, async (temporary) => {
        const output = createWriteStream(temporary);
        await pipeline(async function* () {
          for (const { part } of ordered)
            yield* createReadStream(path.join(directory, String(part)));
        }, output);
      });
      await fs.rm(directory, { recursive: true, force: true });
      return written;
    },

    async abortMultipart(_key, uploadId) {
      await fs.rm(partsDirectory(uploadId), { recursive: true, force: true });
    },

    async withLocalFile(key, use) {
      if (!(await info(key))) throw new Error(`Storage: ${key} does not exist`);
      return use(file(key));
    },
  };
}

function describe(key: string, stats: { size: number; mtimeMs: number; mtime: Date }): ObjectInfo {
  return {
    key,
    size: stats.size,
    etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
    lastModified: stats.mtime,
    contentType: contentTypeOf(key),
  };
}

/** An asked range clamped to the object; null for the whole of it. Throws RangeError when unsatisfiable. */
export function resolveRange(range: ByteRange | undefined, size: number) {
  if (!range) return null;
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (range.start < 0 || range.start > end)
    throw new RangeError(`Range ${range.start}-${range.end} of ${size}`);
  return { start: range.start, end };
}

function isMissing(error: unknown): boolean {
  return (
    (error as NodeJS.ErrnoException).code === "ENOENT" ||
    (error as NodeJS.ErrnoException).code === "ENOTDIR"
  );
}

/** Files a person put by hand under a name no key can have are not objects of the store. */
function isValidKey(key: string): boolean {
  try {
    checkKey(key);
    return true;
  } catch {
    return false;
  }
}
